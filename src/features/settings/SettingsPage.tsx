/**
 * pages/setting/setting (custom header): language and notifications (both this device's own
 * choices, so they sit together at the top), the settings pages, and log out (pending commands
 * are cancelled after asking, this device's push subscription ended, the user's databases
 * deleted, the token revoked).
 */
import '../../ui/antd-render.js';
import { Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import { closeUserDatabases } from '../../../client-db/use-sync-db.js';
import { PageHeader } from '../../app/PageHeader.js';
import { LanguageSelect } from '../../ui/LanguageSelect.js';
import { LinkList } from '../../ui/LinkList.js';
import { PushSwitch } from '../push/PushSwitch.js';
import { unsubscribeDevice } from '../push/device-push.js';

const ENTRIES = [
  ['settings.nickname', ROUTES.profile],
  ['settings.accounts', ROUTES.accounts],
  ['settings.login_password', ROUTES.updatePassword],
  ['settings.trade_password', ROUTES.updatePassword1],
  ['settings.authenticator', ROUTES.updatePassword3],
  ['settings.security_centre', ROUTES.securityCentre],
  ['settings.passkeys', ROUTES.passkeys],
  ['settings.kyc', ROUTES.identity],
  ['settings.feedback', ROUTES.feedback],
  ['settings.customer_service', ROUTES.kefu],
  ['settings.community_service', `${ROUTES.kefu}?section=community`],
] as const;

export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const logout = async () => {
    // Commands still waiting would be lost: say how many, and cancel them only if the user agrees.
    const pending = await send('logout-pending-count');
    const confirmed = await Dialog.confirm({
      content:
        pending > 0 ? t('settings.logout_pending_confirm', { count: pending }) : t('settings.logout_confirm'),
      confirmText: t('settings.logout'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      // Before auth-logout, which forgets whose databases to delete; this page's handles are
      // closed first so the deletion is not held up by them.
      closeUserDatabases();
      // The next user of this device starts with notifications off; the server drops the
      // subscription itself once this session has ended (docs/protocol.md section 34).
      await unsubscribeDevice();
      await send('logout-discard');
      await send('auth-logout');
    } finally {
      setBusy(false);
    }
    navigate(ROUTES.login, { replace: true });
  };

  return (
    <>
      <PageHeader title={t('settings.title')} back />
      <div className="page-padding stack">
        <section className="card">
          <LanguageSelect />
        </section>
        <PushSwitch />
        <LinkList entries={ENTRIES} />
        <Button color="danger" fill="outline" block size="large" loading={busy} onClick={() => void logout()}>
          {t('settings.logout')}
        </Button>
      </div>
    </>
  );
}
