/**
 * pages/my/my, the assets tab: the active account's balances and total in USDT (read from its
 * synced `balances` and the public RAB price), the ways to move money, then the profile and
 * invite code. Visitors see a login prompt in place.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useGo } from '../../app/navigation.js';
import { ROUTES } from '../../app/paths.js';
import { useSession } from '../../../client-db/use-session.js';
import { AsOf } from '../../ui/AsOf.js';
import { useCopy } from '../../ui/use-copy.js';
import { useUserInfo } from '../security/use-user-info.js';
import { LinkList } from '../../ui/LinkList.js';
import { OutboxLink } from '../outbox/OutboxLink.js';
import { useAccountName } from '../account/account-data.js';
import { formatMoney } from '../../../contract/money.js';
import { useAccountTotal, type AccountTotalView } from './use-account-total.js';
import { CardSection } from '../../ui/Card.js';

/** The ways to move money from this tab, in the order the spec lists them. */
const MONEY_ENTRIES = [
  ['my.recharge', ROUTES.recharge],
  ['my.withdraw', ROUTES.withdraw],
  ['withdraw.records_title', ROUTES.withdrawRecords],
  ['my.exchange', ROUTES.exchange],
  ['my.payment_methods', ROUTES.withdraw2],
  ['my.records', ROUTES.walletRecords],
  ['my.manage_accounts', ROUTES.accounts],
] as const;

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
  const { user } = useUserInfo();

  const copy = useCopy();

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
      <AccountAssets />
      <CardSection id="my-invite" className="card invite" title={t('my.invite_code')}>
        <p className="invite__code">{user?.inviteCode ?? '…'}</p>
        <Button size="small" onClick={() => copy(user?.inviteCode ?? '')}>
          {t('copy.action')}
        </Button>
      </CardSection>
      <OutboxLink />
      <Link className="list-link" to={ROUTES.reserves}>
        {t('reserves.title')}
      </Link>
      <Link className="list-link" to={ROUTES.settings}>
        {t('settings.title')}
      </Link>
    </div>
  );
}

/** The active account: its name, the total with how it is made, each balance, and the money entries. */
function AccountAssets() {
  const { t } = useTranslation();
  const go = useGo();
  const view = useAccountTotal();
  const nameOf = useAccountName();
  return (
    <>
      <TotalCard view={view} />
      {view.state === 'ready' && <AsOf syncedAt={view.syncedAt} />}
      {view.state === 'none' && <p className="card muted">{t('my.no_account')}</p>}
      {view.state === 'ready' && (
        <section className="card" aria-labelledby="my-account">
          <div className="account-head">
            <div>
              <p className="muted">{t('my.account_current')}</p>
              <h2 id="my-account" className="card__title account-head__name">
                {nameOf(view.account)}
              </h2>
            </div>
            {/* The main account is named by its role already; a sub-account says what it is. */}
            {view.account.kind === 'sub' && <span className="badge badge--muted">{t('my.account_sub')}</span>}
          </div>
          <button
            type="button"
            className="link-button account-head__switch"
            onClick={() => go(ROUTES.accounts)}
          >
            {t('my.switch_account')}
          </button>
          <h3 className="visually-hidden">{t('my.balances')}</h3>
          <dl className="figures">
            <Figure label={t('my.cash')} amount={formatMoney(view.figures.cash)} unit="USDT" />
            <Figure label={t('my.hosting')} amount={formatMoney(view.figures.hosting)} unit="USDT" />
            <Figure label={t('my.held')} amount={formatMoney(view.figures.held)} unit="USDT" />
            <Figure label={t('my.rab')} amount={formatMoney(view.figures.rab)} unit="RAB" />
            {view.figures.rabHeld !== 0n && (
              <Figure label={t('my.rab_held')} amount={formatMoney(view.figures.rabHeld)} unit="RAB" />
            )}
          </dl>
        </section>
      )}
      <nav aria-label={t('my.money')}>
        <LinkList entries={MONEY_ENTRIES} />
      </nav>
    </>
  );
}

function TotalCard({ view }: { view: AccountTotalView }) {
  const { t } = useTranslation();
  const figures = view.state === 'ready' ? view.figures : null;
  return (
    <section className="card card--accent" aria-labelledby="my-total" aria-busy={view.state === 'loading'}>
      <h2 id="my-total" className="card__label">
        {t('my.total')}
      </h2>
      <p className="card__figure">
        {figures === null ? (view.state === 'loading' ? '…' : '0') : formatMoney(figures.total)}{' '}
        <span className="card__unit">USDT</span>
      </p>
      {figures !== null && (
        <p className="card__note">
          {figures.rabPrice === null
            ? t('my.total_explained_no_price')
            : t('my.total_explained', { price: formatMoney(figures.rabPrice) })}
        </p>
      )}
    </section>
  );
}

function Figure({ label, amount, unit }: { label: string; amount: string; unit: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {amount} <span className="figures__unit">{unit}</span>
      </dd>
    </div>
  );
}
