/**
 * Runs an operator's action and says how it went: the server's own message on a refusal (or on
 * the field it names, in a form), a plain sentence when the server cannot be reached, nothing
 * when the operator cancelled the step-up. `useBusyAction` also says while one runs.
 */
import { App, type FormInstance } from 'antd';
import { useCallback, useState } from 'react';
import { ConsoleApiError, StepUpCancelled } from '../api.js';
import { useI18n } from '../i18n/i18n.js';

export function useAction() {
  const { message } = App.useApp();
  const { t } = useI18n();
  return useCallback(
    async <T>(action: () => Promise<T>, form?: FormInstance): Promise<T | undefined> => {
      try {
        return await action();
      } catch (error) {
        if (error instanceof StepUpCancelled) return undefined;
        if (error instanceof ConsoleApiError) {
          const field = error.field;
          if (form && field && form.getFieldInstance(field) !== undefined)
            form.setFields([{ name: field, errors: [error.message] }]);
          else void message.error(error.message);
          return undefined;
        }
        void message.error(t('common.network_error'));
        return undefined;
      }
    },
    [message, t],
  );
}

/** useAction with `busy` true while its action runs (the form's submit shows it loading). */
export function useBusyAction() {
  const run = useAction();
  const [busy, setBusy] = useState(false);
  const runBusy = useCallback(
    async <T>(action: () => Promise<T>, form?: FormInstance): Promise<T | undefined> => {
      setBusy(true);
      try {
        return await run(action, form);
      } finally {
        setBusy(false);
      }
    },
    [run],
  );
  return { busy, run: runBusy };
}
