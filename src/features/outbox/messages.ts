/** The user's words for the outbox's refusals (outbox-enqueue, -cancel, -retry, -dismiss). */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export type Refusal =
  | { reason: 'outbox_full'; limit: number }
  | { reason: 'invalid_input'; field: string; message: string }
  | {
      reason:
        'not_logged_in' | 'offline' | 'not_found' | 'not_cancellable' | 'not_retryable' | 'not_dismissable';
    };

/** Returns a function turning a refusal into a translated sentence. */
export function useRefusalMessage() {
  const { t } = useTranslation();
  return useCallback(
    (refusal: Refusal): string => {
      switch (refusal.reason) {
        case 'outbox_full':
          return t('outbox.refused_outbox_full', { limit: refusal.limit });
        case 'invalid_input':
          return t('outbox.refused_invalid_input');
        default:
          return t(`outbox.refused_${refusal.reason}`);
      }
    },
    [t],
  );
}
