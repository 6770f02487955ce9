/** Parts the mining machine pages share: the account's mining summary and the links between them. */
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/paths.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { LinkList } from '../../ui/LinkList.js';
import { useAccountSyncedAt } from '../account/account-data.js';
import { holdingsSummary } from './machine-view.js';
import { useAvailableTickets, useHoldings } from './use-machines.js';
import { AccentCard } from '../../ui/Card.js';
import { Figure } from '../../ui/Figure.js';

const SUMMARY_COLLECTIONS = ['owned_machines', 'tickets'] as const;

/** The pages of the feature, linked from each other. */
export const MACHINE_LINKS = [
  ['machine.title', ROUTES.machines],
  ['machine.mine_title', ROUTES.myMachines],
  ['machine.records_title', ROUTES.miningRecords],
  ['machine.tickets_title', ROUTES.tickets],
] as const;

/** Links to the feature's other pages (not the one shown). */
export function MachineLinks({ except }: { except: string }) {
  return <LinkList entries={MACHINE_LINKS.filter(([, path]) => path !== except)} />;
}

/** The account's active hash power, output a day, all earned and tickets available, as synced. */
export function MiningSummary({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const holdings = useHoldings(active);
  const tickets = useAvailableTickets(active);
  const syncedAt = useAccountSyncedAt(active, SUMMARY_COLLECTIONS);
  const summary = holdings === undefined ? null : holdingsSummary(holdings);
  const figure = (value: string | number | undefined | null) => (value == null ? '…' : value);
  return (
    <AccentCard id="machine-summary" className="machine-summary" title={t('machine.summary_title')}>
      <p className="card__figure">
        {figure(summary?.hashPower)} <span className="card__unit">T</span>
      </p>
      <dl className="figures machine-summary__figures">
        <Figure label={t('machine.summary_daily')} value={`${figure(summary?.dailyOutput)} USDT`} />
        <Figure label={t('machine.summary_earned')} value={`${figure(summary?.earned)} USDT`} />
        <Figure label={t('machine.summary_active')} value={figure(summary?.active)} />
        <Figure label={t('machine.summary_tickets')} value={figure(tickets)} />
      </dl>
      <AsOf syncedAt={syncedAt} />
    </AccentCard>
  );
}
