/**
 * pages/update_pwd/update_pwd (spec section 4, password change mode 1): the login password, with
 * the old one and an e-mailed code. The user's other devices are logged out; withdrawals wait 24 hours.
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { PasswordChangeForm } from './password-form.js';
import { useUserInfo } from './use-user-info.js';

export default function LoginPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useUserInfo();
  return (
    <PasswordChangeForm
      oldField="oldPassword"
      newField="password"
      oldLabel={t('field.oldPassword')}
      newLabel={t('field.newPassword')}
      codeKind="security-send-login-password-code"
      save={(change) => send('security-update-login-password', change)}
      onDone={() => navigate(ROUTES.settings, { replace: true })}
    >
      <p className="hint">{t('security.login_hint', { email: user?.email ?? '…' })}</p>
    </PasswordChangeForm>
  );
}
