/** pages/register/verify_code: the e-mailed code completes the registration and logs in. */
import { useState } from 'react';
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

export default function RegisterVerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ code: '' });
  // The draft as this page opened with it: clearing drafts.register on success must not re-render
  // the page into its no-draft redirect before the navigation away lands (router updates are transitions).
  const [draft] = useState(() => drafts.register);
  if (!draft) return <Navigate to={ROUTES.register} replace />;

  const resend = async () => {
    const outcome = await send('auth-send-register-code', { email: draft.email });
    if (handle(outcome, form.sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };

  const submit = form.submit(
    ({ code }) => check({ code: checkCode(code.trim()) }),
    async ({ code }) => {
      const outcome = await send('auth-register', { ...draft, code: code.trim() });
      if (!handle(outcome, form.sink)) return;
      drafts.register = null;
      toast(outcome.message);
      navigate(ROUTES.home, { replace: true });
    },
  );

  return (
    <form className="form page-padding" onSubmit={submit} noValidate>
      <p className="hint">{t('auth.code_sent_to', { email: draft.email })}</p>
      <CodeField {...form.bind('code')} onResend={resend} sentUntil={draft.codeSentUntil} />
      <SubmitButton busy={form.busy}>{t('auth.register')}</SubmitButton>
    </form>
  );
}
