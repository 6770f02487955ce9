/**
 * The e-mailed code step of the registration and of the password reset: the hint naming the
 * address, the code field with its resend, the submit. The page says what the code is sent to
 * and what follows once the server accepts it.
 */
import { useTranslation } from 'react-i18next';
import { checkCode } from '../../../contract/validation.js';
import type { Outcome } from '../../../sync/ports.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { CodeField } from '../../ui/CodeField.js';
import { useChecks } from '../../ui/field-messages.js';
import { SubmitButton } from '../../ui/form-fields.js';
import { toast } from '../../ui/toast.js';
import { useForm } from '../../ui/use-form.js';
import { secondsToWait } from './code-wait.js';

/**
 * A code form for `email`: its button asks `resendKind` for a new code; the trimmed code goes to
 * `verify`, and an accepted one to `onAccepted` with the server's message.
 */
export function CodeStepForm({
  email,
  sentUntil,
  resendKind,
  submitLabel,
  verify,
  onAccepted,
}: {
  email: string;
  sentUntil: number;
  resendKind: 'auth-send-register-code' | 'auth-send-forget-code';
  submitLabel: string;
  verify: (code: string) => Promise<Outcome<unknown>>;
  onAccepted: (code: string, message: string) => void;
}) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ code: '' });

  const resend = async () => {
    const outcome = await send(resendKind, { email });
    if (handle(outcome, form.sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };

  const submit = form.submit(
    ({ code }) => check({ code: checkCode(code.trim()) }),
    async ({ code }) => {
      const trimmed = code.trim();
      const outcome = await verify(trimmed);
      if (handle(outcome, form.sink)) onAccepted(trimmed, outcome.message);
    },
  );

  return (
    <form className="form page-padding" onSubmit={submit} noValidate>
      <p className="hint">{t('auth.code_sent_to', { email })}</p>
      <CodeField {...form.bind('code')} onResend={resend} sentUntil={sentUntil} />
      <SubmitButton busy={form.busy}>{submitLabel}</SubmitButton>
    </form>
  );
}
