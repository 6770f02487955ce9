/** pages/login/login: e-mail and password; links to register, forgot password and download. */
import { Button } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { checkEmail, checkPassword } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/routes.js';
import { send } from '../../app/worker-client.js';
import { Field } from '../../ui/Field.js';
import { AuthLayout } from './AuthLayout.js';
import { useChecks } from './messages.js';
import { useForm } from './use-form.js';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const form = useForm({ email: '', password: '' });
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = check({
      email: checkEmail(form.values.email),
      password: checkPassword(form.values.password),
    });
    form.setErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    const outcome = await send('auth-login', {
      email: form.values.email.trim(),
      password: form.values.password,
    });
    setBusy(false);
    if (handle(outcome, form.sink)) navigate(ROUTES.home, { replace: true });
  };

  return (
    <AuthLayout title={t('auth.login_title')} subtitle={t('auth.login_subtitle')}>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('field.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          value={form.values.email}
          onChange={form.set('email')}
          error={form.errors.email}
        />
        <Field
          label={t('field.password')}
          type="password"
          autoComplete="current-password"
          value={form.values.password}
          onChange={form.set('password')}
          error={form.errors.password}
        />
        <Button type="submit" color="primary" block size="large" loading={busy}>
          {t('auth.login')}
        </Button>
      </form>
      <nav className="auth__links" aria-label={t('auth.more_actions')}>
        <Link to={ROUTES.forgot}>{t('auth.forgot_link')}</Link>
        <Link to={ROUTES.register}>{t('auth.register_link')}</Link>
        <Link to={ROUTES.download}>{t('auth.download_link')}</Link>
      </nav>
    </AuthLayout>
  );
}
