/**
 * The account's hosting orders on the Hosting tab: each with its progress to maturity, interest
 * accrued and paid, its terms and its change records, and increase, decrease and redeem, each
 * confirmed in a dialog stating its exact figures and any early-exit penalty. The changes are the
 * outbox commands `hosting-add`, `hosting-sub` and `hosting-redeem`: queued while offline (shown
 * on the order as waiting) and expired after an hour; each is followed to its answer.
 */
import type { TFunction } from 'i18next';
import { Button } from 'antd-mobile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HostingChangeRecord, HostingOrderRecord } from '../../../contract/api/hosting.js';
import type { HostingCommand } from '../../../worker/commands.js';
import { serverNow } from '../../app/server-clock.js';
import { send } from '../../app/worker-client.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ItemForms } from '../../ui/ItemForms.js';
import { TimeFigure } from '../../ui/Figure.js';
import { AmountField } from '../../ui/form-fields.js';
import { toast } from '../../ui/toast.js';
import { useAccountSyncedAt } from '../account/account-data.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { useForm } from '../../ui/use-form.js';
import { useCommandFlow } from '../outbox/use-command-flow.js';
import { useRefusalMessage } from '../outbox/messages.js';
import { Figure, useAmountProblemText } from './hosting-parts.js';
import {
  changeKindKey,
  changePreview,
  CHANGES_SHOWN,
  commandOutcome,
  nameIn,
  orderStatusKey,
  payoutKey,
  progressOf,
  ratePercent,
  shownAmount,
  sortOrders,
  type ChangeKind,
  type ChangePreview,
} from './hosting-view.js';
import { useHostingChanges, useHostingOrders } from './use-hosting.js';
import { MoneyLine } from '../../ui/MoneyLine.js';
import { RecordsSection, type RecordsWords } from '../../ui/RecordsSection.js';

/** The changes an order's card queues and follows to their end. */
const CHANGE_KINDS = ['hosting-add', 'hosting-sub', 'hosting-redeem'] as const;

const ORDER_COLLECTIONS = ['hosting_orders', 'hosting_changes'] as const;
const ORDERS_WORDS: RecordsWords = { title: 'hosting.orders_title', empty: 'hosting.orders_empty' };

export function Orders({ active, pending }: { active: ActiveAccount; pending: readonly HostingCommand[] }) {
  const orders = useHostingOrders(active);
  const changes = useHostingChanges(active);
  const syncedAt = useAccountSyncedAt(active, ORDER_COLLECTIONS);
  return (
    <RecordsSection
      words={ORDERS_WORDS}
      syncedAt={syncedAt}
      records={orders === undefined ? undefined : sortOrders(orders)}
      listClassName="hosting-orders"
    >
      {(order) => (
        <OrderItem
          active={active}
          order={order}
          changes={changes?.get(order.id) ?? []}
          pending={pending.filter(
            (command) => command.kind !== 'hosting-create' && command.params.orderId === order.id,
          )}
        />
      )}
    </RecordsSection>
  );
}

/** The changes an order in progress offers, in their buttons' order. */
const ORDER_ACTIONS: readonly ChangeKind[] = ['add', 'sub', 'redeem'];

/** Whether an order in progress offers `kind`: add before maturity, sub before it with early exit, redeem at maturity or with early exit. */
function actionOpen(kind: ChangeKind, order: HostingOrderRecord, matured: boolean): boolean {
  if (kind === 'add') return !matured;
  if (kind === 'sub') return !matured && order.earlyExit;
  return matured || order.earlyExit;
}

function OrderItem({
  active,
  order,
  changes,
  pending,
}: {
  active: ActiveAccount;
  order: HostingOrderRecord;
  changes: readonly HostingChangeRecord[];
  pending: readonly HostingCommand[];
}) {
  const { t, i18n } = useTranslation();
  const online = useLink() === 'online';
  const name = nameIn(order.names, i18n.language);
  const label = t('hosting.order_label', { name, id: order.id });
  const flow = useCommandFlow({
    kind: CHANGE_KINDS,
    active,
    resume: false,
    outcomeOf: commandOutcome,
    texts: {
      refused: (message) => t('hosting.refused', { message }),
      expired: t('hosting.change_expired'),
      cancelled: t('hosting.cancelled'),
    },
    onSettled: (command, outcome) => {
      if (outcome.kind === 'done') toast(doneText(t, command));
    },
  });
  const progress = progressOf(order, serverNow());
  const inProgress = order.status === 'in_progress';
  const matured = serverNow() >= Date.parse(order.endAt);
  const headingId = useId();

  return (
    <li className="card hosting-order" aria-labelledby={headingId}>
      <div className="hosting-order__head">
        <h3 id={headingId} className="hosting-order__name">
          {name} <span className="muted hosting-order__id">#{order.id}</span>
        </h3>
        <span className={`badge hosting-badge hosting-badge--${order.status}`}>
          {t(orderStatusKey(order))}
        </span>
      </div>
      <p className="hosting-order__principal">
        <span className="muted">{t('hosting.principal')}</span>{' '}
        <strong>{shownAmount(order.amount)} USDT</strong>
      </p>
      <div className="hosting-progress">
        <progress
          max={100}
          value={progress.percent}
          aria-label={t('hosting.progress_label', { name })}
          aria-valuetext={t('hosting.progress', {
            done: progress.daysDone,
            days: progress.days,
            percent: progress.percent,
          })}
        />
        <p className="muted hosting-progress__text">
          {t('hosting.progress', { done: progress.daysDone, days: progress.days, percent: progress.percent })}
        </p>
      </div>
      <dl className="figure-list hosting-order__figures">
        <Figure label={t('hosting.daily_rate')} value={ratePercent(order.dailyRate)} />
        <Figure label={t('hosting.term')} value={t('hosting.term_days', { count: order.days })} />
        <Figure label={t('hosting.accrued')} value={`${shownAmount(order.accruedInterest)} USDT`} />
        <Figure label={t('hosting.paid')} value={`${shownAmount(order.paidInterest)} USDT`} />
        {inProgress && (
          <Figure label={t('hosting.per_day')} value={`${shownAmount(order.dailyInterest)} USDT`} />
        )}
        {order.penalty !== '0' && (
          <Figure label={t('hosting.penalty')} value={`${shownAmount(order.penalty)} USDT`} />
        )}
        <TimeFigure label={t('hosting.start')} at={order.startAt} />
        <TimeFigure label={t('hosting.end')} at={order.endAt} />
      </dl>
      <p className="muted hosting-hint">
        {t(payoutKey(order.payout))} ·{' '}
        {order.earlyExit
          ? t('hosting.early_exit_yes', { rate: ratePercent(order.penaltyRate) })
          : t('hosting.early_exit_no')}
      </p>
      {pending.length > 0 && (
        <ul className="hosting-pending" aria-label={t('hosting.pending_label')}>
          {pending.map((waiting) => (
            <li key={waiting.id}>{pendingText(t, waiting, online)}</li>
          ))}
        </ul>
      )}
      <p className="hosting-status hosting-status--error" role="alert">
        {flow.notice ?? ''}
      </p>
      {inProgress && (
        <ItemForms
          className="row__actions hosting-order__actions"
          size="small"
          actions={ORDER_ACTIONS.filter((kind) => actionOpen(kind, order, matured)).map((kind) => ({
            kind,
            label: t(`hosting.${kind}`),
            named: t(`hosting.${kind}_named`, { name: label }),
          }))}
          form={(kind, close) => (
            <ChangePanel
              active={active}
              order={order}
              name={label}
              kind={kind}
              onClose={close}
              onQueued={(id) => {
                flow.follow(id);
                close();
              }}
            />
          )}
        />
      )}
      <Changes changes={changes} label={label} />
    </li>
  );
}

/** What a confirmed change says. */
function doneText(t: TFunction, command: HostingCommand): string {
  switch (command.kind) {
    case 'hosting-create':
      return t('hosting.created', { amount: command.params.amount });
    case 'hosting-add':
      return t('hosting.added', { amount: command.params.amount });
    case 'hosting-sub':
      return t('hosting.subtracted', { amount: command.params.amount });
    case 'hosting-redeem':
      return t('hosting.redeemed');
  }
}

/** A change still waiting in the outbox, and why it waits. */
function pendingText(t: TFunction, command: HostingCommand, online: boolean): string {
  const what =
    command.kind === 'hosting-add'
      ? t('hosting.pending_add', { amount: command.params.amount })
      : command.kind === 'hosting-sub'
        ? t('hosting.pending_sub', { amount: command.params.amount })
        : command.kind === 'hosting-redeem'
          ? t('hosting.pending_redeem')
          : t('hosting.pending_create', { amount: command.params.amount });
  const state =
    command.state === 'sending'
      ? t('hosting.pending_sending')
      : online
        ? t('hosting.pending_queued')
        : t('hosting.pending_offline');
  return `${what}: ${state}`;
}

/**
 * An increase or decrease: the amount, its figures as they stand, then a confirmation stating
 * them; a redeem goes straight to its confirmation. Confirming queues the command.
 */
function ChangePanel({
  active,
  order,
  name,
  kind,
  onClose,
  onQueued,
}: {
  active: ActiveAccount;
  order: HostingOrderRecord;
  name: string;
  kind: ChangeKind;
  onClose: () => void;
  onQueued: (id: string) => void;
}) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const refusal = useRefusalMessage();
  const problemText = useAmountProblemText();
  const form = useForm({ amount: '' });
  const [confirming, setConfirming] = useState(kind === 'redeem');
  const [busy, setBusy] = useState(false);
  const preview = changePreview(order, kind, form.values.amount, serverNow());

  const problemOf = (shown: ChangePreview): string | null => {
    switch (shown.kind) {
      case 'empty':
        return problemText({ key: 'required' });
      case 'invalid':
        return problemText(shown.problem);
      case 'refused':
        return t(shown.refusal.key, shown.refusal);
      default:
        return null;
    }
  };

  const onReview = form.submit(
    () => {
      const problem = problemOf(preview);
      return problem === null ? {} : { amount: problem };
    },
    async () => {
      setConfirming(true);
    },
  );

  const confirm = async () => {
    if (preview.kind !== 'add' && preview.kind !== 'sub' && preview.kind !== 'redeem') return;
    setBusy(true);
    try {
      const amount = form.values.amount.trim();
      const params = { accountId: active.accountId, orderId: order.id };
      const result = await send(
        'outbox-enqueue',
        kind === 'redeem'
          ? { kind: 'hosting-redeem', params }
          : { kind: kind === 'add' ? 'hosting-add' : 'hosting-sub', params: { ...params, amount } },
      );
      if (result.kind === 'refused') {
        toast(refusal(result));
        setConfirming(false);
        if (kind === 'redeem') onClose();
        return;
      }
      if (!online) toast(t('hosting.queued_offline'));
      onQueued(result.id);
    } finally {
      setBusy(false);
    }
  };

  const title = t(`hosting.confirm_${kind}`);
  const redeemRefused =
    kind === 'redeem' && preview.kind === 'refused' ? t(preview.refusal.key, preview.refusal) : null;
  return (
    <div className="hosting-panel">
      {kind !== 'redeem' && (
        <form
          className="form"
          onSubmit={onReview}
          noValidate
          aria-label={t(`hosting.${kind}_named`, { name })}
        >
          <AmountField
            label={t(kind === 'add' ? 'hosting.add_amount' : 'hosting.sub_amount')}
            {...form.bind('amount')}
          />
          <ChangeFigures preview={preview} />
          <div className="row__actions">
            <Button type="submit" color="primary" size="small">
              {t('hosting.review')}
            </Button>
            <Button size="small" onClick={onClose}>
              {t('hosting.close')}
            </Button>
          </div>
        </form>
      )}
      {redeemRefused !== null && (
        <p className="hosting-status hosting-status--error" role="alert">
          {redeemRefused}
        </p>
      )}
      {confirming && redeemRefused === null && (
        <ConfirmDialog
          title={title}
          subtitle={name}
          confirmLabel={t('hosting.confirm')}
          busy={busy}
          onConfirm={() => void confirm()}
          onClose={() => {
            setConfirming(false);
            if (kind === 'redeem') onClose();
          }}
        >
          <ChangeFigures preview={preview} />
          <p className="muted hosting-hint">
            {t(online ? 'hosting.confirm_note_online' : 'hosting.confirm_note_offline')}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The exact figures of a change; nothing while the amount is not one. */
function ChangeFigures({ preview }: { preview: ChangePreview }) {
  const { t } = useTranslation();
  switch (preview.kind) {
    case 'add':
      return (
        <dl className="figure-list" aria-live="polite">
          <Figure label={t('hosting.figure_added')} value={`${preview.amount} USDT`} />
          <Figure
            label={t('hosting.figure_principal_after')}
            value={`${preview.principalAfter} USDT`}
            strong
          />
          <Figure
            label={t('hosting.figure_daily_after')}
            value={`${preview.dailyBefore} → ${preview.dailyAfter} USDT`}
          />
        </dl>
      );
    case 'sub':
      return (
        <dl className="figure-list" aria-live="polite">
          <Figure label={t('hosting.figure_taken_out')} value={`${preview.amount} USDT`} />
          <Figure
            label={t('hosting.figure_penalty', { rate: preview.penaltyRate })}
            value={`${preview.penalty} USDT`}
          />
          <Figure label={t('hosting.figure_to_cash')} value={`${preview.toCash} USDT`} strong />
          <Figure label={t('hosting.figure_principal_after')} value={`${preview.principalAfter} USDT`} />
          <Figure label={t('hosting.figure_daily_after_only')} value={`${preview.dailyAfter} USDT`} />
        </dl>
      );
    case 'redeem':
      return (
        <div aria-live="polite">
          {preview.becauseMinimum !== null && (
            <p className="hosting-short">
              {t('hosting.sub_becomes_redeem', { minimum: preview.becauseMinimum })}
            </p>
          )}
          <dl className="figure-list">
            <Figure label={t('hosting.figure_principal')} value={`${preview.principal} USDT`} />
            <Figure
              label={
                preview.atMaturity
                  ? t('hosting.figure_no_penalty')
                  : t('hosting.figure_penalty', { rate: preview.penaltyRate })
              }
              value={`${preview.penalty} USDT`}
            />
            <Figure label={t('hosting.figure_to_cash')} value={`${preview.toCash} USDT`} strong />
          </dl>
          <p className="muted hosting-hint">{t('hosting.redeem_interest_note')}</p>
        </div>
      );
    default:
      return null;
  }
}

/** An order's change records (the operator-log), newest first. */
function Changes({ changes, label }: { changes: readonly HostingChangeRecord[]; label: string }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  if (changes.length === 0) return null;
  const shown = all ? changes : changes.slice(0, CHANGES_SHOWN);
  return (
    <details className="hosting-changes">
      <summary>{t('hosting.changes_title', { count: changes.length })}</summary>
      <ul className="row-list" aria-label={t('hosting.changes_of', { name: label })}>
        {shown.map((change) => (
          <MoneyLine
            key={change.id}
            className="hosting-change"
            kind={t(changeKindKey(change.kind))}
            amount={change.amount}
            unit="USDT"
            detail={[
              t('hosting.change_after', { amount: shownAmount(change.principalAfter) }),
              change.penalty === '0'
                ? null
                : t('hosting.change_penalty', { amount: shownAmount(change.penalty) }),
            ]}
            at={change.createdAt}
          />
        ))}
      </ul>
      {!all && changes.length > CHANGES_SHOWN && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          {t('hosting.changes_all')}
        </button>
      )}
    </details>
  );
}
