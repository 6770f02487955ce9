/**
 * Withdrawal records (pages/withdraw_record/withdraw_record): the active account's synced
 * `withdrawals`, newest first, each with its amount, fee, destination, status and stage, the
 * reason of a rejection or failure, the transaction hash (copyable) or bank reference, and its
 * times. Read from IndexedDB, so the page opens offline, with how fresh the list is.
 */
import { useTranslation } from 'react-i18next';
import type { WithdrawalRecord } from '../../../contract/api/withdraw.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { useCopy } from '../../ui/use-copy.js';
import { Figure, TimeFigure } from '../../ui/Figure.js';
import { syncedListPage } from '../account/PerAccount.js';
import { shownAmount } from '../../ui/amounts.js';
import { shortHash } from '../../ui/chain-text.js';
import { useWithdrawals } from './use-withdraw.js';
import { destinationOf, reasonOf, stageKey, statusKey, statusTone } from './withdraw-view.js';
import './withdraw.css';
import { PagedRows, RECORDS_PAGE, usePaging } from '../../ui/RecordsSection.js';

const COLLECTIONS = ['withdrawals'] as const;

export default syncedListPage(COLLECTIONS, Withdrawals);

function Withdrawals({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const paging = usePaging(RECORDS_PAGE, 'withdraw.more');
  // One more than shown, to know whether there is more.
  const withdrawals = useWithdrawals(active, paging.shown + 1);
  if (withdrawals?.length === 0) return <p className="card muted">{t('withdraw.records_empty')}</p>;
  return (
    <PagedRows
      rows={withdrawals}
      paging={paging}
      className="card row-list"
      label={t('withdraw.records_title')}
    >
      {(withdrawal) => <WithdrawalLine withdrawal={withdrawal} />}
    </PagedRows>
  );
}

function WithdrawalLine({ withdrawal }: { withdrawal: WithdrawalRecord }) {
  const { t } = useTranslation();
  const reason = reasonOf(withdrawal);
  const copy = useCopy();
  return (
    <li className="withdrawal">
      <p className="withdrawal__amount">
        {shownAmount(withdrawal.amount)} <span className="withdrawal__unit">USDT</span>
      </p>
      <p className={`withdrawal__status tone--${statusTone(withdrawal.status)}`}>
        {t(statusKey(withdrawal.status))} · {t(stageKey(withdrawal.stage))}
      </p>
      <dl className="withdrawal__details">
        <Figure label={t('withdraw.destination')} value={destinationOf(withdrawal)} />
        <Figure label={t('withdraw.fee')} value={`${shownAmount(withdrawal.fee)} USDT`} />
        <Figure label={t('withdraw.total')} value={`${shownAmount(withdrawal.total)} USDT`} />
        {reason !== null && (
          <div className="withdrawal__reason">
            <dt>{t('withdraw.reason')}</dt>
            <dd>{reason}</dd>
          </div>
        )}
        {withdrawal.txHash !== null && (
          <div>
            <dt>{t('withdraw.transaction')}</dt>
            <dd className="withdrawal__hash">
              <code title={withdrawal.txHash}>{shortHash(withdrawal.txHash)}</code>
              <button
                type="button"
                className="link-button"
                onClick={() => copy(withdrawal.txHash ?? '')}
                aria-label={t('withdraw.copy_hash')}
              >
                {t('copy.action')}
              </button>
            </dd>
          </div>
        )}
        {withdrawal.reference !== null && (
          <Figure label={t('withdraw.reference')} value={withdrawal.reference} />
        )}
        <TimeFigure label={t('withdraw.created_at')} at={withdrawal.createdAt} />
        {withdrawal.completedAt !== null && (
          <TimeFigure label={t('withdraw.completed_at')} at={withdrawal.completedAt} />
        )}
      </dl>
    </li>
  );
}
