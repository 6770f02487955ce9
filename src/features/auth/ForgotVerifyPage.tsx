/** pages/forget_pwd/verify_code: checks the reset code (without using it), then forget_pwd1. */
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { CodeStepForm } from './CodeStepForm.js';
import { drafts } from './flow.js';

export default function ForgotVerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const draft = drafts.forgot;
  if (!draft) return <Navigate to={ROUTES.forgot} replace />;
  return (
    <CodeStepForm
      email={draft.email}
      sentUntil={draft.codeSentUntil}
      resendKind="auth-send-forget-code"
      submitLabel={t('auth.next')}
      verify={(code) => send('auth-check-forget-code', { email: draft.email, code })}
      onAccepted={(code) => {
        drafts.forgot = { ...draft, code };
        navigate(ROUTES.forgotReset);
      }}
    />
  );
}
