/**
 * Mining records (pages/blance_record/blance_record11): the account's income lines of
 * type mining_machine from the synced `income` collection, newest first, each with the machine
 * that earned it, the day it was earned and whether it arrived; readable offline.
 */
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/paths.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { useRecordsList } from '../account/account-data.js';
import { MachineLinks } from './machine-parts.js';
import { holdingsSummary, miningLines, type MiningLine } from './machine-view.js';
import { useHoldings, useMiningIncome, usePullOnOpen } from './use-machines.js';
import './machine.css';
import { RecordsSection, type RecordsList } from '../../ui/RecordsSection.js';
import { MoneyLine } from '../../ui/MoneyLine.js';
import { AccentCard } from '../../ui/Card.js';

const LINES: RecordsList = {
  title: 'machine.records_list',
  empty: 'machine.records_empty',
  more: 'machine.more',
  collections: ['income', 'owned_machines'],
};

export default perAccountPage(MiningRecords);

function MiningRecords({ active }: { active: ActiveAccount }) {
  const { t, i18n } = useTranslation();
  const list = useRecordsList(active, LINES);
  const income = useMiningIncome(active, list.paging.shown + 1);
  const holdings = useHoldings(active);
  usePullOnOpen();
  const lines = income === undefined ? undefined : miningLines(income, holdings ?? [], i18n.language);
  const earned = holdings === undefined ? null : holdingsSummary(holdings).earned;
  return (
    <div className="page-padding stack">
      <AccentCard id="mining-total" title={t('machine.records_total')}>
        <p className="card__figure">
          {earned ?? '…'} <span className="card__unit">USDT</span>
        </p>
      </AccentCard>
      <RecordsSection {...list} records={lines}>
        {(line) => <Line line={line} />}
      </RecordsSection>
      <MachineLinks except={ROUTES.miningRecords} />
    </div>
  );
}

function Line({ line }: { line: MiningLine }) {
  const { t } = useTranslation();
  return (
    <MoneyLine
      kind={
        line.name === null
          ? t('machine.record_holding', { id: line.holdingId })
          : t('machine.holding_label', { name: line.name, id: line.holdingId })
      }
      amount={line.amount}
      unit="USDT"
      detail={[t('machine.record_earned', { date: line.earningsDate })]}
      when={t(line.status === 'arrived' ? 'machine.record_arrived' : 'machine.record_pending', {
        date: line.arrivalDate,
      })}
    />
  );
}
