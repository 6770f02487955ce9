/** pages/register/verify_code: the e-mailed code completes the registration and logs in. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { CodeStepForm } from './CodeStepForm.js';
import { drafts } from './flow.js';

export default function RegisterVerifyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The draft as this page opened with it: clearing drafts.register on success must not re-render
  // the page into its no-draft redirect before the navigation away lands (router updates are transitions).
  const [draft] = useState(() => drafts.register);
  if (!draft) return <Navigate to={ROUTES.register} replace />;
  return (
    <CodeStepForm
      email={draft.email}
      sentUntil={draft.codeSentUntil}
      resendKind="auth-send-register-code"
      submitLabel={t('auth.register')}
      verify={(code) => send('auth-register', { ...draft, code })}
      onAccepted={(_code, message) => {
        drafts.register = null;
        toast(message);
        navigate(ROUTES.home, { replace: true });
      }}
    />
  );
}
