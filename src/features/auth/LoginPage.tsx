/**
 * pages/login/login: e-mail and password, or a passkey (no e-mail typed: the browser offers the
 * passkeys it holds for this site); links to register, forgot password and download.
 */
import { Button } from '../../ui/adm-button.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { checkEmail, checkPassword } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { AuthLayout } from './AuthLayout.js';
import { useChecks } from '../../ui/field-messages.js';
import { EmailField, PasswordField, SubmitButton } from '../../ui/form-fields.js';
import { useForm } from '../../ui/use-form.js';
import { toast } from '../../ui/toast.js';
import { passkeysSupported, signWithPasskey } from '../passkeys/webauthn.js';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ email: '', password: '' });
  const [passkeyBusy, setPasskeyBusy] = useState(false);

  const submit = form.submit(
    ({ email, password }) => check({ email: checkEmail(email), password: checkPassword(password) }),
    async ({ email, password }) => {
      const outcome = await send('auth-login', { email: email.trim(), password });
      if (handle(outcome, form.sink)) navigate(ROUTES.home, { replace: true });
    },
  );

  const passkeyLogin = async () => {
    setPasskeyBusy(true);
    try {
      const options = await send('passkey-login-options');
      if (!handle(options)) return;
      const signed = await signWithPasskey(options.data.options);
      if (!signed.ok) {
        toast(t(signed.reason));
        return;
      }
      const outcome = await send('passkey-login', {
        challengeId: options.data.challengeId,
        response: signed.response,
      });
      if (handle(outcome)) navigate(ROUTES.home, { replace: true });
    } finally {
      setPasskeyBusy(false);
    }
  };

  return (
    <AuthLayout title={t('auth.login_title')} subtitle={t('auth.login_subtitle')}>
      <form className="form" onSubmit={submit} noValidate>
        <EmailField {...form.bind('email')} />
        <PasswordField
          label={t('field.password')}
          autoComplete="current-password"
          {...form.bind('password')}
        />
        <SubmitButton busy={form.busy}>{t('auth.login')}</SubmitButton>
      </form>
      {passkeysSupported() ? (
        <Button block size="large" loading={passkeyBusy} onClick={() => void passkeyLogin()}>
          {t('auth.passkey_login')}
        </Button>
      ) : null}
      <nav className="auth__links" aria-label={t('auth.more_actions')}>
        <Link to={ROUTES.forgot}>{t('auth.forgot_link')}</Link>
        <Link to={ROUTES.register}>{t('auth.register_link')}</Link>
        <Link to={ROUTES.download}>{t('auth.download_link')}</Link>
      </nav>
    </AuthLayout>
  );
}
