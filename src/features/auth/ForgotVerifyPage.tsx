/** pages/forget_pwd/verify_code: checks the reset code (without using it), then forget_pwd1. */
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { checkCode } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { CodeField } from '../../ui/CodeField.js';
import { secondsToWait } from './code-wait.js';
import { drafts } from './flow.js';
import { useChecks } from '../../ui/field-messages.js';
import { SubmitButton } from '../../ui/form-fields.js';
import { useForm } from '../../ui/use-form.js';

export default function ForgotVerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ code: '' });
  const draft = drafts.forgot;
  if (!draft) return <Navigate to={ROUTES.forgot} replace />;

  const resend = async () => {
    const outcome = await send('auth-send-forget-code', { email: draft.email });
    if (handle(outcome, form.sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };

  const submit = form.submit(
    (values) => check({ code: checkCode(values.code.trim()) }),
    async (values) => {
      const code = values.code.trim();
      const outcome = await send('auth-check-forget-code', { email: draft.email, code });
      if (!handle(outcome, form.sink)) return;
      drafts.forgot = { ...draft, code };
      navigate(ROUTES.forgotReset);
    },
  );

  return (
    <form className="form page-padding" onSubmit={submit} noValidate>
      <p className="hint">{t('auth.code_sent_to', { email: draft.email })}</p>
      <CodeField {...form.bind('code')} onResend={resend} sentUntil={draft.codeSentUntil} />
      <SubmitButton busy={form.busy}>{t('auth.next')}</SubmitButton>
    </form>
  );
}
