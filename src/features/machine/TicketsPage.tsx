/**
 * Tickets (pages/blance_record/blance_record12): how many the account has available
 * and each ticket (available or used, where it came from, what it paid for), from the synced
 * `tickets` collection, newest first, readable offline.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TicketRecord, TicketStatus } from '../../../contract/api/machine.js';
import { ROUTES } from '../../app/paths.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { DateTime } from '../../ui/DateTime.js';
import { useRecordsList } from '../account/account-data.js';
import { MachineLinks } from './machine-parts.js';
import { nameIn } from './machine-view.js';
import { useAvailableTickets, useHoldings, usePullOnOpen, useTickets } from './use-machines.js';
import { Choice } from '../../ui/Choice.js';
import './machine.css';
import { RecordsSection, type RecordsList } from '../../ui/RecordsSection.js';
import { AccentCard } from '../../ui/Card.js';

const TICKETS: RecordsList = {
  title: 'machine.tickets_list',
  empty: 'machine.tickets_empty',
  more: 'machine.more',
  collections: ['tickets'],
};
const FILTERS = ['all', 'available', 'used'] as const;
type Filter = (typeof FILTERS)[number];

export default perAccountPage(Tickets);

function Tickets({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const list = useRecordsList(active, TICKETS);
  const tickets = useTickets(active, filter as TicketStatus | 'all', list.paging.shown + 1);
  const available = useAvailableTickets(active);
  const holdings = useHoldings(active);
  usePullOnOpen();
  const names = new Map((holdings ?? []).map((holding) => [holding.id, holding.names]));
  return (
    <div className="page-padding stack">
      <AccentCard id="tickets-available" title={t('machine.tickets_available_title')}>
        <p className="card__figure">{available ?? '…'}</p>
        <p>{t('machine.tickets_intro')}</p>
      </AccentCard>
      <Choice
        className="card choices"
        optionsClassName="choices__options machine-filter"
        legend={t('machine.tickets_filter')}
        name="ticket-filter"
        options={FILTERS.map((option) => ({ value: option, label: t(`machine.filter_${option}`) }))}
        value={filter}
        onChange={(option) => {
          setFilter(option);
          list.paging.reset();
        }}
      />
      <RecordsSection {...list} records={tickets}>
        {(ticket) => <Ticket ticket={ticket} names={names} />}
      </RecordsSection>
      <MachineLinks except={ROUTES.tickets} />
    </div>
  );
}

function Ticket({ ticket, names }: { ticket: TicketRecord; names: Map<string, Record<string, string>> }) {
  const { t, i18n } = useTranslation();
  const usedFor = ticket.usedFor === null ? undefined : names.get(ticket.usedFor);
  return (
    <li className="record">
      <span className="record__kind">{t('machine.ticket_label', { id: ticket.id })}</span>
      <span
        className={`badge machine-ticket__status ${ticket.status === 'used' ? 'badge--muted' : 'machine-badge--on'}`}
      >
        {t(`machine.ticket_${ticket.status}`)}
      </span>
      <span className="record__book muted">
        {t(`machine.ticket_source_${ticket.source}`)}
        {ticket.memo ? ` · ${ticket.memo}` : ''}
      </span>
      <span className="record__time muted">
        <DateTime at={ticket.createdAt} style="short" />
      </span>
      {ticket.status === 'used' && ticket.usedFor !== null && (
        <span className="record__after muted">
          {usedFor === undefined
            ? t('machine.ticket_used_for_id', { id: ticket.usedFor })
            : t('machine.ticket_used_for', { name: nameIn(usedFor, i18n.language), id: ticket.usedFor })}
        </span>
      )}
    </li>
  );
}
