/**
 * What the login and trade password forms share: the new password with its confirmation, the
 * close of a change (the e-mailed code with its resend, the online-only hint, the submit), and
 * the whole change form (old password, new one twice, code).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { checkCode, checkConfirmPassword, checkPassword } from '../../../contract/validation.js';
import type { Outcome } from '../../../sync/ports.js';
import type { FieldErrorSink } from '../../app/outcome.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { CodeField } from '../../ui/CodeField.js';
import { PasswordField, SubmitButton, type Bound } from '../../ui/form-fields.js';
import { useChecks } from '../../ui/field-messages.js';
import { toast } from '../../ui/toast.js';
import { useForm } from '../../ui/use-form.js';
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
function CodeAndSubmit({
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

/** A password change's values under the wire's names of the old and the new password. */
export type PasswordChange<Old extends string, New extends string> = Record<
  Old | New | 'confirmPassword' | 'code',
  string
>;

/**
 * A password change (spec section 4): the old password (`oldField`), the new one (`newField`)
 * twice and the e-mailed code (`codeKind` asks for it), checked here; `save` sends them with the
 * code trimmed, and a success is the server's toast, then `onDone`. `children` head the form.
 */
export function PasswordChangeForm<Old extends string, New extends string>({
  oldField,
  newField,
  oldLabel,
  newLabel,
  codeKind,
  labelledBy,
  save,
  onDone,
  children,
}: {
  oldField: Old;
  newField: New;
  oldLabel: string;
  newLabel: string;
  codeKind: 'security-send-login-password-code' | 'security-send-trade-password-code';
  labelledBy?: string;
  save: (change: PasswordChange<Old, New>) => Promise<Outcome<unknown>>;
  onDone: () => void;
  children: ReactNode;
}) {
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ [oldField]: '', [newField]: '', confirmPassword: '', code: '' } as PasswordChange<
    Old,
    New
  >);
  const submit = form.submit(
    (values) =>
      check({
        [oldField]: checkPassword(values[oldField]),
        [newField]: checkPassword(values[newField]),
        confirmPassword: checkConfirmPassword(values[newField], values.confirmPassword),
        code: checkCode(values.code.trim()),
      } as Record<keyof PasswordChange<Old, New>, string | null>),
    async (values) => {
      const outcome = await save({ ...values, code: values.code.trim() });
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      onDone();
    },
  );
  return (
    <form className="form page-padding" onSubmit={submit} noValidate aria-labelledby={labelledBy}>
      {children}
      <PasswordField label={oldLabel} autoComplete="current-password" {...form.bind(oldField)} />
      <NewPasswordFields
        label={newLabel}
        password={form.bind(newField)}
        confirm={form.bind('confirmPassword')}
      />
      <CodeAndSubmit kind={codeKind} code={form.bind('code')} sink={form.sink} busy={form.busy} />
    </form>
  );
}
