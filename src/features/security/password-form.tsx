/**
 * What the login and trade password forms share: the new password with its confirmation, and the
 * close of a change (the e-mailed code with its resend, the online-only hint, the submit).
 */
import { useTranslation } from 'react-i18next';
import type { FieldErrorSink } from '../../app/outcome.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { CodeField } from '../../ui/CodeField.js';
import { PasswordField, SubmitButton, type Bound } from '../../ui/form-fields.js';
import { toast } from '../../ui/toast.js';
import { secondsToWait } from '../auth/code-wait.js';

/** The new password (named by `label`) and the same again. */
export function NewPasswordFields({
  label,
  password,
  confirm,
}: {
  label: string;
  password: Bound;
  confirm: Bound;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField label={label} autoComplete="new-password" {...password} />
      <PasswordField label={t('field.confirmPassword')} autoComplete="new-password" {...confirm} />
    </>
  );
}

/**
 * The code field whose button asks the server for a code (`kind`): the answer is a toast, a
 * refusal is shown beside the form's fields; then the online-only hint and the submit.
 */
export function CodeAndSubmit({
  kind,
  code,
  sink,
  busy,
}: {
  kind: 'security-send-login-password-code' | 'security-send-trade-password-code';
  code: Bound;
  sink: FieldErrorSink;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const handle = useOutcome();
  const resend = async () => {
    const outcome = await send(kind);
    if (handle(outcome, sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };
  return (
    <>
      <CodeField {...code} onResend={resend} sentUntil={0} />
      <p className="hint">{t('security.online_only')}</p>
      <SubmitButton busy={busy}>{t('security.submit')}</SubmitButton>
    </>
  );
}
