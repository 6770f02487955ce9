/** pages/forget_pwd/verify_code: checks the reset code (without using it), then forget_pwd1. */
import { Button } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { checkCode } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/routes.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { CodeField } from './CodeField.js';
import { secondsToWait } from './code-wait.js';
import { drafts } from './flow.js';
import { useChecks } from './messages.js';
import { useForm } from './use-form.js';

export default function ForgotVerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ code: '' });
  const [busy, setBusy] = useState(false);
  const draft = drafts.forgot;
  if (!draft) return <Navigate to={ROUTES.forgot} replace />;

  const resend = async () => {
    const outcome = await send('auth-send-forget-code', { email: draft.email });
    if (handle(outcome, form.sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const code = form.values.code.trim();
    const errors = check({ code: checkCode(code) });
    form.setErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    const outcome = await send('auth-check-forget-code', { email: draft.email, code });
    setBusy(false);
    if (!handle(outcome, form.sink)) return;
    drafts.forgot = { ...draft, code };
    navigate(ROUTES.forgotReset);
  };

  return (
    <form className="form page-padding" onSubmit={(event) => void submit(event)} noValidate>
      <p className="hint">{t('auth.code_sent_to', { email: draft.email })}</p>
      <CodeField
        value={form.values.code}
        onChange={form.set('code')}
        error={form.errors.code}
        onResend={resend}
        sentUntil={draft.codeSentUntil}
      />
      <Button type="submit" color="primary" block size="large" loading={busy}>
        {t('auth.next')}
      </Button>
    </form>
  );
}
