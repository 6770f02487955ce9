/**
 * Mining machines (pages/goods_detail/goods_detail): the account's mining summary, the
 * machines on offer (from the public `machines` collection, so the page opens offline), and on
 * each a buy (with USDT or tickets) and, when it is for rent, a rent for days. Each shows what it
 * costs and earns by the server's own exact rule before it is sent. A buy or rent carries the
 * trade password: it is an outbox command sent only while online, expired after a minute, its
 * password blanked once it settles; offline the buttons say why they wait.
 */
import { CountField, TradePasswordField } from '../../ui/form-fields.js';
import { Button } from 'antd-mobile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StackSection } from '../../ui/Card.js';
import type { MachineRecord, PayWith } from '../../../contract/api/machine.js';
import { checkPassword } from '../../../contract/validation.js';
import { ROUTES } from '../../app/paths.js';
import { publicDatabase, useSyncedAt, type ActiveAccount } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { perAccountPage } from '../account/PerAccount.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import { useBalance } from '../account/account-data.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { CommandLines } from '../outbox/CommandLines.js';
import { useCommandFlow, useFlowTexts } from '../outbox/use-command-flow.js';
import { MachineLinks, MiningSummary } from './machine-parts.js';
import {
  acquirePreview,
  commandOutcome,
  nameIn,
  type AcquireMode,
  type AcquirePreview,
} from './machine-view.js';
import { useAvailableTickets, MACHINE_KINDS, useOfferedMachines, usePullOnOpen } from './use-machines.js';
import { Choice } from '../../ui/Choice.js';
import { ItemForms } from '../../ui/ItemForms.js';
import { Figure, GridFigure } from '../../ui/Figure.js';
import './machine.css';

const OFFER_COLLECTIONS = ['machines'] as const;
/** A machine's buttons, in their order: buy, and rent when it is for rent. */
const ACQUIRE_MODES: readonly AcquireMode[] = ['buy', 'rent'];

export default perAccountPage(Machines);

function Machines({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const machines = useOfferedMachines();
  const syncedAt = useSyncedAt(publicDatabase(), OFFER_COLLECTIONS);
  usePullOnOpen();
  return (
    <div className="page-padding stack">
      <MiningSummary active={active} />
      <MachineLinks except={ROUTES.machines} />
      <StackSection id="machine-offer" title={t('machine.offer_title')}>
        <AsOf syncedAt={syncedAt} />
        {machines !== undefined && machines.length === 0 && (
          <p className="card muted">
            {syncedAt === null ? t('machine.offer_not_synced') : t('machine.offer_empty')}
          </p>
        )}
        {machines !== undefined && machines.length > 0 && (
          <ul className="machine-list" aria-labelledby="machine-offer">
            {machines.map((machine) => (
              <MachineCard key={machine.id} active={active} machine={machine} />
            ))}
          </ul>
        )}
      </StackSection>
    </div>
  );
}

function MachineCard({ active, machine }: { active: ActiveAccount; machine: MachineRecord }) {
  const { t, i18n } = useTranslation();
  const name = nameIn(machine.names, i18n.language);
  const titleId = useId();
  return (
    <li className="card machine" aria-labelledby={titleId}>
      <h3 id={titleId} className="machine__name">
        {name}
      </h3>
      <dl className="figures machine__figures">
        <GridFigure label={t('machine.hash_power')}>{machine.hashPower} T</GridFigure>
        <GridFigure label={t('machine.price')}>{machine.price} USDT</GridFigure>
        <GridFigure label={t('machine.ticket_price')}>
          {machine.ticketPrice === 0
            ? t('machine.not_for_tickets')
            : t('machine.tickets_count', { count: machine.ticketPrice })}
        </GridFigure>
        <GridFigure label={t('machine.term')}>{t('machine.days_count', { count: machine.days })}</GridFigure>
        <GridFigure label={t('machine.output_per_t')}>
          {t('machine.usdt_a_day', { amount: machine.dailyOutput })}
        </GridFigure>
        <GridFigure label={t('machine.output_per_machine')}>
          {t('machine.usdt_a_day', { amount: machine.machineDailyOutput })}
        </GridFigure>
        <GridFigure label={t('machine.rent_price')}>
          {machine.rentPrice === null
            ? t('machine.not_for_rent')
            : t('machine.usdt_a_day', { amount: machine.rentPrice })}
        </GridFigure>
      </dl>
      <ItemForms
        className="machine__actions"
        actions={ACQUIRE_MODES.filter((mode) => mode === 'buy' || machine.rentPrice !== null).map((mode) => ({
          kind: mode,
          label: t(`machine.${mode}`),
          named: t(`machine.${mode}_named`, { name }),
          primary: mode === 'buy',
        }))}
        form={(mode, close) => (
          <AcquireForm active={active} machine={machine} mode={mode} name={name} onClose={close} />
        )}
      />
    </li>
  );
}

function AcquireForm({
  active,
  machine,
  mode,
  name,
  onClose,
}: {
  active: ActiveAccount;
  machine: MachineRecord;
  mode: AcquireMode;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const check = useChecks();
  const balance = useBalance(active);
  const ticketsAvailable = useAvailableTickets(active);
  const form = useForm({ quantity: '1', days: String(Math.min(machine.days, 7)), tradePassword: '' });
  const [payWith, setPayWith] = useState<PayWith>('usdt');
  const texts = useFlowTexts('machine');
  const flow = useCommandFlow({
    kind: MACHINE_KINDS,
    active,
    match: { machineId: machine.id },
    outcomeOf: commandOutcome,
    sink: form.sink,
    texts,
    onSettled: (command, outcome) => {
      if (outcome.kind === 'done')
        toast(
          t(command.kind === 'machine-buy' ? 'machine.bought' : 'machine.rented', {
            quantity: command.params.quantity,
            name,
          }),
        );
    },
  });
  const hintId = useId();
  const formTitleId = useId();
  const preview = acquirePreview(
    machine,
    mode,
    { quantityText: form.values.quantity, daysText: form.values.days, payWith },
    { cash: balance?.cash ?? null, ticketsAvailable: ticketsAvailable ?? null },
  );

  const problem = (view: AcquirePreview): Partial<Record<'quantity' | 'days', string>> => {
    if (view.kind !== 'invalid') return {};
    return {
      [view.field]: t(view.field === 'quantity' ? 'machine.quantity_range' : 'machine.days_range', {
        max: view.max,
      }),
    };
  };

  const onSubmit = form.submit(
    ({ tradePassword }) => ({
      ...problem(preview),
      ...check({ tradePassword: checkPassword(tradePassword) }),
    }),
    async ({ tradePassword }) => {
      if (preview.kind !== 'ok') return;
      const common = { accountId: active.accountId, machineId: machine.id, tradePassword };
      const queued = await flow.enqueue(
        mode === 'buy'
          ? { kind: 'machine-buy', params: { ...common, quantity: preview.quantity, payWith } }
          : { kind: 'machine-rent', params: { ...common, quantity: preview.quantity, days: preview.days } },
      );
      if (queued) form.set('tradePassword')('');
    },
  );

  const disabledReason = !online
    ? t('machine.offline')
    : preview.kind === 'not_for_tickets'
      ? t('machine.not_for_tickets')
      : null;

  return (
    <form className="machine-form form" onSubmit={onSubmit} noValidate aria-labelledby={formTitleId}>
      <h4 id={formTitleId} className="machine-form__title">
        {t(mode === 'buy' ? 'machine.buy_title' : 'machine.rent_title', { name })}
      </h4>
      <CountField label={t('machine.quantity_label')} maxLength={3} {...form.bind('quantity')} />
      {mode === 'rent' && (
        <CountField
          label={t('machine.days_label', { max: machine.days })}
          maxLength={4}
          {...form.bind('days')}
        />
      )}
      {mode === 'buy' && (
        <Choice
          className="choices machine-form__pay"
          legend={t('machine.pay_with')}
          name={`pay-with-${machine.id}`}
          options={(['usdt', 'ticket'] as const).map((option) => ({
            value: option,
            label: t(`machine.pay_${option}`),
            disabled: option === 'ticket' && machine.ticketPrice === 0,
            note: (
              <span className="muted">
                {option === 'usdt'
                  ? `${balance?.cash ?? '…'} USDT`
                  : t('machine.tickets_available', { count: ticketsAvailable ?? 0 })}
              </span>
            ),
          }))}
          value={payWith}
          onChange={setPayWith}
        />
      )}
      <Preview preview={preview} mode={mode} />
      <TradePasswordField label={t('machine.trade_password')} {...form.bind('tradePassword')} />
      <p className="muted machine-form__note">{t('machine.online_only')}</p>
      <div className="machine-form__actions">
        <Button
          type="submit"
          color="primary"
          loading={flow.sending}
          disabled={disabledReason !== null}
          aria-describedby={disabledReason === null ? undefined : hintId}
        >
          {t(mode === 'buy' ? 'machine.confirm_buy' : 'machine.confirm_rent')}
        </Button>
        <Button onClick={onClose}>{t('machine.close')}</Button>
      </div>
      {disabledReason !== null && (
        <p id={hintId} className="muted machine-form__hint">
          {disabledReason}
        </p>
      )}
      <CommandLines flow={flow} status={flow.command == null ? '' : t('machine.sending')} />
    </form>
  );
}

/** What the buy or rent typed costs and earns, to the minor unit. */
function Preview({ preview, mode }: { preview: AcquirePreview; mode: AcquireMode }) {
  const { t } = useTranslation();
  return (
    <section
      className="machine-preview figure-panel"
      aria-live="polite"
      aria-label={t('machine.preview_title')}
    >
      {preview.kind === 'ok' ? (
        <>
          <dl className="figure-list">
            <div>
              <dt>{t(mode === 'buy' ? 'machine.preview_cost' : 'machine.preview_rent_cost')}</dt>
              <dd>
                {preview.tickets > 0
                  ? t('machine.tickets_count', { count: preview.tickets })
                  : `${preview.cost} USDT`}
              </dd>
            </div>
            <Figure label={t('machine.preview_daily')} value={`${preview.daily} USDT`} />
            <div className="machine-preview__total">
              <dt>{t('machine.preview_total', { count: preview.days })}</dt>
              <dd>{preview.total} USDT</dd>
            </div>
          </dl>
          <p className="muted">{t('machine.preview_note')}</p>
          {preview.short && (
            <p className="machine-preview__short">
              {t(preview.tickets > 0 ? 'machine.short_tickets' : 'machine.short_cash')}
            </p>
          )}
        </>
      ) : (
        <p className="muted">
          {preview.kind === 'not_for_tickets'
            ? t('machine.not_for_tickets')
            : preview.kind === 'not_for_rent'
              ? t('machine.not_for_rent')
              : t(preview.field === 'quantity' ? 'machine.quantity_range' : 'machine.days_range', {
                  max: preview.max,
                })}
        </p>
      )}
    </section>
  );
}

/** The buy or rent being sent, as a status. */
