/** Copying with the spec's messages (section 8) in the user's language: the copy buttons' one handler. */
import { useTranslation } from 'react-i18next';
import { copyText } from './copy.js';

export function useCopy(): (text: string) => void {
  const { t } = useTranslation();
  return (text: string) =>
    void copyText(text, {
      empty: t('copy.empty'),
      unsupported: t('copy.unsupported'),
      failed: t('copy.failed'),
      copied: t('copy.copied'),
    });
}
