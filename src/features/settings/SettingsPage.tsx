/** pages/setting/setting (custom header): language, and log out (the token is revoked on the server). */
import '../../ui/antd-render.js';
import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '../../app/routes.js';
import { send } from '../../app/worker-client.js';
import { useGo } from '../../app/navigation.js';
import { PageHeader } from '../../app/PageHeader.js';
import { LanguageSelect } from '../../ui/LanguageSelect.js';

const LATER = [
  ['settings.nickname', '/pages/setting/setting1'],
  ['settings.login_password', '/pages/update_pwd/update_pwd'],
  ['settings.trade_password', '/pages/update_pwd/update_pwd1'],
  ['settings.authenticator', '/pages/update_pwd/update_pwd3'],
  ['settings.kyc', '/pages/setting/setting2'],
  ['settings.feedback', '/pages/setting/setting3'],
] as const;

export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const go = useGo();
  const [busy, setBusy] = useState(false);

  const logout = async () => {
    const confirmed = await Dialog.confirm({
      content: t('settings.logout_confirm'),
      confirmText: t('settings.logout'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    setBusy(true);
    await send('auth-logout');
    setBusy(false);
    navigate(ROUTES.login, { replace: true });
  };

  return (
    <>
      <PageHeader title={t('settings.title')} back />
      <div className="page-padding stack">
        <section className="card">
          <LanguageSelect />
        </section>
        <ul className="list card">
          {LATER.map(([label, path]) => (
            <li key={path}>
              <button type="button" className="list-link" onClick={() => go(path)}>
                {t(label)}
              </button>
            </li>
          ))}
        </ul>
        <Button color="danger" fill="outline" block size="large" loading={busy} onClick={() => void logout()}>
          {t('settings.logout')}
        </Button>
      </div>
    </>
  );
}
