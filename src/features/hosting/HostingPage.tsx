/**
 * The Hosting tab (pages/index/index2): the account's hosting balance and whether it
 * counts as valid hosting; the products on offer (kept on the device, shown offline with their
 * age) with an earnings preview of the amount typed, computed by the daily job's own integer rule;
 * a new order with the trade password (an outbox command sent only while online); the account's
 * orders with their progress to maturity, interest accrued and paid, their change records, and
 * increase, decrease and redeem, each confirmed with its exact figures and any early-exit penalty
 * (outbox commands that wait for the network for up to an hour); the income records by type; and
 * the hosting record pages.
 */
import { useTranslation } from 'react-i18next';
import type { BalanceRecord } from '../../../contract/api/account.js';
import { ROUTES } from '../../app/paths.js';
import { send } from '../../app/worker-client.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { AsOf } from '../../ui/AsOf.js';
import { LinkList } from '../../ui/LinkList.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { useAccountName, useAccounts, useAccountSyncedAt, useBalance } from '../account/account-data.js';
import { CreateOrder } from './CreateOrder.js';
import { shownAmount, validHostingOf } from './hosting-view.js';
import { IncomeRecords } from './IncomeRecords.js';
import { Orders } from './Orders.js';
import { useHostingConfig, usePendingHostingCommands, usePullOnOpen } from './use-hosting.js';
import './hosting.css';
import { Select } from '../../ui/Select.js';
import { AccentCard } from '../../ui/Card.js';

const BALANCE_COLLECTIONS = ['balances'] as const;
const RECORD_ENTRIES = [
  ['dividends.title', ROUTES.dividends],
  ['delivery.title', ROUTES.delivery],
] as const;

export default perAccountPage(Hosting);

function Hosting({ active }: { active: ActiveAccount }) {
  const { t, i18n } = useTranslation();
  const online = useLink() === 'online';
  const { config, state } = useHostingConfig(active.userId, online, i18n.language);
  const balance = useBalance(active) ?? null;
  const pending = usePendingHostingCommands(active) ?? [];
  usePullOnOpen();

  return (
    <div className="page-padding stack hosting">
      <AccountCard active={active} balance={balance} threshold={config?.validHostingThreshold ?? null} />
      <CreateOrder active={active} config={config} state={state} balance={balance} online={online} />
      <Orders active={active} pending={pending} />
      <IncomeRecords active={active} />
      <nav aria-label={t('hosting.more_records')}>
        <LinkList entries={RECORD_ENTRIES} />
      </nav>
    </div>
  );
}

/** The account the tab shows (switchable here), its cash and hosting balances, and its valid-hosting standing. */
function AccountCard({
  active,
  balance,
  threshold,
}: {
  active: ActiveAccount;
  balance: BalanceRecord | null;
  threshold: string | null;
}) {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const nameOf = useAccountName();
  const syncedAt = useAccountSyncedAt(active, BALANCE_COLLECTIONS);
  const standing = validHostingOf(balance?.hosting ?? null, threshold);
  const ordered = [...(accounts ?? [])].sort((a, b) =>
    a.kind === b.kind ? a.createdAt.localeCompare(b.createdAt) : a.kind === 'main' ? -1 : 1,
  );
  return (
    <AccentCard id="hosting-summary" className="hosting-summary" title={t('hosting.hosting_balance')}>
      <p className="card__figure">
        {balance === null ? '…' : shownAmount(balance.hosting)} <span className="card__unit">USDT</span>
      </p>
      <p className="card__note">
        {t('hosting.cash_balance', { amount: balance === null ? '…' : shownAmount(balance.cash) })}
      </p>
      {standing !== null && (
        <p className="card__note hosting-summary__valid">
          {standing.valid
            ? t('hosting.valid_yes', { threshold: standing.threshold })
            : t('hosting.valid_no', { threshold: standing.threshold, missing: standing.missing ?? '' })}
        </p>
      )}
      {ordered.length > 1 && (
        <Select
          className="hosting-summary__account"
          label={t('hosting.account')}
          value={active.accountId}
          options={ordered.map((account) => ({ value: account.id, label: nameOf(account) }))}
          onChange={(accountId) => void send('account-select', { accountId })}
        />
      )}
      {ordered.length === 1 && ordered[0] !== undefined && (
        <p className="card__note">{t('hosting.account_named', { name: nameOf(ordered[0]) })}</p>
      )}
      {balance !== null && (
        <div className="hosting-summary__as-of">
          <AsOf syncedAt={syncedAt} />
        </div>
      )}
    </AccentCard>
  );
}
