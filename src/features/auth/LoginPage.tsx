/** pages/login/login: e-mail and password; links to register, forgot password and download. */
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

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ email: '', password: '' });

  const submit = form.submit(
    ({ email, password }) => check({ email: checkEmail(email), password: checkPassword(password) }),
    async ({ email, password }) => {
      const outcome = await send('auth-login', { email: email.trim(), password });
      if (handle(outcome, form.sink)) navigate(ROUTES.home, { replace: true });
    },
  );

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
      <nav className="auth__links" aria-label={t('auth.more_actions')}>
        <Link to={ROUTES.forgot}>{t('auth.forgot_link')}</Link>
        <Link to={ROUTES.register}>{t('auth.register_link')}</Link>
        <Link to={ROUTES.download}>{t('auth.download_link')}</Link>
      </nav>
    </AuthLayout>
  );
}
