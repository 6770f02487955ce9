/** The account's income records on the Hosting tab (the synced `income` collection), filtered by type. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncomeRecord, IncomeType } from '../../../contract/api/income.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { useAccountSyncedAt } from '../account/account-data.js';
import {
  INCOME_PAGE,
  INCOME_TYPE_LIST,
  incomeStatusKey,
  incomeTypeKey,
  shownAmount,
} from './hosting-view.js';
import { useIncome } from './use-hosting.js';
import { Select } from '../../ui/Select.js';
import { MoreButton } from '../../ui/MoreButton.js';
const INCOME_COLLECTIONS = ['income'] as const;

export function IncomeRecords({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const [type, setType] = useState<IncomeType | 'all'>('all');
  const [shown, setShown] = useState(INCOME_PAGE);
  const syncedAt = useAccountSyncedAt(active, INCOME_COLLECTIONS);
  // One more than shown, to know whether there is more.
  const lines = useIncome(active, type, shown + 1);
  return (
    <section className="stack" aria-labelledby="hosting-income">
      <h2 id="hosting-income" className="section-title">
        {t('hosting.income_title')}
      </h2>
      <AsOf syncedAt={syncedAt} />
      <Select
        className="card"
        label={t('hosting.income_filter')}
        value={type}
        options={[
          { value: 'all', label: t('hosting.income_all') },
          ...INCOME_TYPE_LIST.map((option) => ({ value: option, label: t(incomeTypeKey(option)) })),
        ]}
        onChange={(value) => {
          setType(value);
          setShown(INCOME_PAGE);
        }}
      />
      {lines !== undefined && lines.length === 0 && (
        <p className="card muted">
          {t(type === 'all' ? 'hosting.income_empty' : 'hosting.income_empty_type')}
        </p>
      )}
      {lines !== undefined && lines.length > 0 && (
        <ul className="card row-list" aria-labelledby="hosting-income">
          {lines.slice(0, shown).map((line) => (
            <IncomeLine key={line.id} line={line} />
          ))}
        </ul>
      )}
      {lines !== undefined && lines.length > shown && (
        <MoreButton onClick={() => setShown((count) => count + INCOME_PAGE)}>
          {t('hosting.income_more')}
        </MoreButton>
      )}
    </section>
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
