/**
 * pages/update_pwd/update_pwd (spec section 4, password change mode 1): the login password, with
 * the old one and an e-mailed code. The user's other devices are logged out; withdrawals wait 24 hours.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { checkCode, checkConfirmPassword, checkPassword } from '../../../contract/validation.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { toast } from '../../ui/toast.js';
import { CodeField } from '../../ui/CodeField.js';
import { secondsToWait } from '../auth/code-wait.js';
import { PasswordField, SubmitButton } from '../../ui/form-fields.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { useUserInfo } from './use-user-info.js';

export default function LoginPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handle = useOutcome();
  const check = useChecks();
  const { user } = useUserInfo();
  const form = useForm({ oldPassword: '', password: '', confirmPassword: '', code: '' });

  const resend = async () => {
    const outcome = await send('security-send-login-password-code');
    if (handle(outcome, form.sink)) toast(outcome.message);
    return secondsToWait(outcome);
  };

  const submit = form.submit(
    ({ oldPassword, password, confirmPassword, code }) =>
      check({
        oldPassword: checkPassword(oldPassword),
        password: checkPassword(password),
        confirmPassword: checkConfirmPassword(password, confirmPassword),
        code: checkCode(code.trim()),
      }),
    async ({ oldPassword, password, confirmPassword, code }) => {
      const outcome = await send('security-update-login-password', {
        oldPassword,
        password,
        confirmPassword,
        code: code.trim(),
      });
      if (!handle(outcome, form.sink)) return;
      toast(outcome.message);
      navigate(ROUTES.settings, { replace: true });
    },
  );

  return (
    <form className="form page-padding" onSubmit={submit} noValidate>
      <p className="hint">{t('security.login_hint', { email: user?.email ?? '…' })}</p>
      <PasswordField
        label={t('field.oldPassword')}
        autoComplete="current-password"
        {...form.bind('oldPassword')}
      />
      <PasswordField label={t('field.newPassword')} autoComplete="new-password" {...form.bind('password')} />
      <PasswordField
        label={t('field.confirmPassword')}
        autoComplete="new-password"
        {...form.bind('confirmPassword')}
      />
      <CodeField {...form.bind('code')} onResend={resend} sentUntil={0} />
      <p className="hint">{t('security.online_only')}</p>
      <SubmitButton busy={form.busy}>{t('security.submit')}</SubmitButton>
    </form>
  );
}
