/**
 * Every console action asks first: a dialog that states the action's exact effect; the action
 * runs only on Confirm (the dialog closes then; a step-up, if the server asks, opens its own).
 */
import { App } from 'antd';
import { useCallback } from 'react';
import { useI18n } from '../i18n/i18n.js';

export function useConfirm() {
  const { modal } = App.useApp();
  const { t } = useI18n();
  return useCallback(
    (effect: string, action: () => Promise<unknown>) =>
      modal.confirm({
        title: t('common.confirm_title'),
        content: effect,
        okText: t('common.confirm'),
        cancelText: t('common.cancel'),
        onOk: () => {
          void action();
        },
      }),
    [modal, t],
  );
}
