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
import { PasswordField } from '../../ui/form-fields.js';
import { CodeAndSubmit, NewPasswordFields } from './password-form.js';
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
      <NewPasswordFields
        label={t('field.newPassword')}
        password={form.bind('password')}
        confirm={form.bind('confirmPassword')}
      />
      <CodeAndSubmit
        kind="security-send-login-password-code"
        code={form.bind('code')}
        sink={form.sink}
        busy={form.busy}
      />
    </form>
  );
}
