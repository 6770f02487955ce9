/** pages/my/my, the assets tab: the profile and invite code; visitors see a login prompt in place. */
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { UserInfo } from '../../../contract/api/user.js';
import { useOutcome } from '../../app/outcome.js';
import { ROUTES } from '../../app/routes.js';
import { send } from '../../app/worker-client.js';
import { useSession } from '../../db/use-session.js';
import { copyText } from '../../ui/copy.js';
import { OutboxLink } from '../outbox/OutboxLink.js';

export default function MyPage() {
  const session = useSession();
  return session ? <Profile /> : <LoginPrompt />;
}

function LoginPrompt() {
  const { t } = useTranslation();
  return (
    <div className="page-padding stack">
      <section className="card login-prompt">
        <h2 className="card__title">{t('my.login_prompt_title')}</h2>
        <p className="muted">{t('my.login_prompt')}</p>
        <Link className="button-link button-link--primary" to={ROUTES.login}>
          {t('auth.login')}
        </Link>
        <Link to={ROUTES.register}>{t('auth.register_link')}</Link>
      </section>
    </div>
  );
}

function Profile() {
  const { t } = useTranslation();
  const handle = useOutcome();
  const [user, setUser] = useState<UserInfo | null>(null);
  useEffect(() => {
    let live = true;
    void send('user-info').then((outcome) => {
      if (live && handle(outcome)) setUser(outcome.data);
    });
    return () => {
      live = false;
    };
  }, [handle]);

  const copy = () =>
    copyText(user?.inviteCode ?? '', {
      empty: t('copy.empty'),
      unsupported: t('copy.unsupported'),
      failed: t('copy.failed'),
      copied: t('copy.copied'),
    });

  return (
    <div className="page-padding stack">
      <section className="card profile" aria-busy={user === null}>
        <img
          className="profile__avatar"
          src={user?.avatar || '/avatars/01.svg'}
          alt=""
          width="56"
          height="56"
        />
        <div>
          <h2 className="card__title">{user?.nickname ?? '…'}</h2>
          <p className="muted">{user?.email ?? ''}</p>
        </div>
      </section>
      <section className="card" aria-labelledby="my-balances">
        <h2 id="my-balances" className="card__title">
          {t('my.accounts')}
        </h2>
        <dl className="figures">
          <div>
            <dt>{t('my.cash_account')}</dt>
            <dd>0 USDT</dd>
          </div>
          <div>
            <dt>{t('my.hosting_account')}</dt>
            <dd>0 USDT</dd>
          </div>
        </dl>
      </section>
      <section className="card invite" aria-labelledby="my-invite">
        <h2 id="my-invite" className="card__title">
          {t('my.invite_code')}
        </h2>
        <p className="invite__code">{user?.inviteCode ?? '…'}</p>
        <Button size="small" onClick={() => void copy()}>
          {t('copy.action')}
        </Button>
      </section>
      <OutboxLink />
      <Link className="list-link" to={ROUTES.settings}>
        {t('settings.title')}
      </Link>
    </div>
  );
}
