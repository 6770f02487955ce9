/** The account's income records on the Hosting tab (the synced `income` collection), filtered by type. */
import { useTranslation } from 'react-i18next';
import type { IncomeRecord, IncomeType } from '../../../contract/api/income.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { useRecordsList } from '../account/account-data.js';
import { INCOME_TYPE_LIST, incomeStatusKey, incomeTypeKey } from './hosting-view.js';
import { useIncome } from './use-hosting.js';
import { MoneyLine } from '../../ui/MoneyLine.js';
import { RecordsSection, useRecordsFilter, type RecordsList } from '../../ui/RecordsSection.js';

const INCOME: RecordsList = {
  title: 'hosting.income_title',
  empty: 'hosting.income_empty',
  more: 'hosting.income_more',
  collections: ['income'],
};

export function IncomeRecords({ active }: { active: ActiveAccount }) {
  const filter = useRecordsFilter<IncomeType>(INCOME_TYPE_LIST, incomeTypeKey, 'hosting.income_filter');
  const list = useRecordsList(active, INCOME);
  const lines = useIncome(active, filter.value, list.paging.shown + 1);
  return (
    <RecordsSection {...list} filter={filter} records={lines}>
      {(line) => <IncomeLine line={line} />}
    </RecordsSection>
  );
}

function IncomeLine({ line }: { line: IncomeRecord }) {
  const { t } = useTranslation();
  const arrived = line.status === 'arrived';
  return (
    <MoneyLine
      className="hosting-income"
      kind={t(incomeTypeKey(line.type))}
      amount={line.amount}
      unit="USDT"
      detail={[
        t('hosting.income_earned', { date: line.earningsDate }),
        t(arrived ? 'hosting.income_arrived_on' : 'hosting.income_due_on', { date: line.arrivalDate }),
        line.memo,
      ]}
    >
      <span className={`badge hosting-badge hosting-badge--${line.status}`}>
        {t(incomeStatusKey(line.status))}
      </span>
    </MoneyLine>
  );
}
