/** The account's income records on the Hosting tab (the synced `income` collection), filtered by type. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncomeRecord, IncomeType } from '../../../contract/api/income.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { useAccountSyncedAt } from '../account/account-data.js';
import {
  INCOME_PAGE,
  INCOME_TYPE_LIST,
  incomeStatusKey,
  incomeTypeKey,
  shownAmount,
} from './hosting-view.js';
import { useIncome } from './use-hosting.js';
import { RecordsFilter, RecordsSection, usePaging } from '../../ui/RecordsSection.js';
const INCOME_COLLECTIONS = ['income'] as const;

export function IncomeRecords({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const [type, setType] = useState<IncomeType | 'all'>('all');
  const paging = usePaging(INCOME_PAGE);
  const syncedAt = useAccountSyncedAt(active, INCOME_COLLECTIONS);
  const lines = useIncome(active, type, paging.shown + 1);
  const filter = (
    <RecordsFilter
      label={t('hosting.income_filter')}
      allLabel={t('hosting.income_all')}
      value={type}
      values={INCOME_TYPE_LIST}
      labelOf={(option) => t(incomeTypeKey(option))}
      onChange={setType}
      onReset={paging.reset}
    />
  );
  return (
    <RecordsSection
      id="hosting-income"
      title={t('hosting.income_title')}
      syncedAt={syncedAt}
      filter={filter}
      records={lines}
      empty={t(type === 'all' ? 'hosting.income_empty' : 'hosting.income_empty_type')}
      paging={paging}
      more={t('hosting.income_more')}
    >
      {(line) => <IncomeLine line={line} />}
    </RecordsSection>
  );
}

function IncomeLine({ line }: { line: IncomeRecord }) {
  const { t } = useTranslation();
  const arrived = line.status === 'arrived';
  return (
    <li className="record hosting-income">
      <p className="record__kind">{t(incomeTypeKey(line.type))}</p>
      <p className="record__amount record__amount--in">
        +{shownAmount(line.amount)} <span className="record__unit">USDT</span>
      </p>
      <p className="muted record__book">
        {t('hosting.income_earned', { date: line.earningsDate })} ·{' '}
        {t(arrived ? 'hosting.income_arrived_on' : 'hosting.income_due_on', { date: line.arrivalDate })}
        {line.memo !== null && line.memo !== '' && ` · ${line.memo}`}
      </p>
      <span className={`badge hosting-badge hosting-badge--${line.status}`}>
        {t(incomeStatusKey(line.status))}
      </span>
    </li>
  );
}
