/**
 * The Trading tab's two forms: listing an order (its side, volume, price and whether it may be
 * taken in parts, with what listing holds now, the maker's fee and what filling it whole brings,
 * all shown before confirming), and taking an order from the book (the volume, what the user pays,
 * the taker's fee and the amount received). Both are outbox commands sent only while online and
 * expired after a minute: they carry the price the user saw and the trade password, which is
 * blanked once they settle. A take of an order that changed meanwhile is refused (409) with the
 * order's new state; the page says so and the book is pulled again.
 */
import { AmountField, SubmitButton, TradePasswordField } from '../../ui/form-fields.js';
import { Button } from 'antd-mobile';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OtcBookRecord } from '../../../contract/api/otc.js';
import { checkPassword } from '../../../contract/validation.js';
import type { EnqueueInput, OutboxRecord } from '../../../worker/commands.js';
import type { FieldErrorSink } from '../../app/outcome.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { ratePercent, shownAmount } from '../../ui/amounts.js';
import { Choice } from '../../ui/Choice.js';
import { Figure } from '../../ui/Figure.js';
import { toast } from '../../ui/toast.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import { pricedOutcome, type PricedOutcome } from '../outbox/command-outcome.js';
import { CommandLines } from '../outbox/CommandLines.js';
import { useCommandFlow, useFlowTexts } from '../outbox/use-command-flow.js';
import {
  isOpen,
  listingView,
  OTC_SIDES,
  shownBand,
  takeView,
  type ListingView,
  type OtcSide,
  type OtcTerms,
  type TakeView,
} from './otc-view.js';
import { CardForm } from '../../ui/Card.js';
import { useLink } from '../../ui/OfflineBanner.js';

type OtcKind = 'otc-buy' | 'otc-sell' | 'otc-take';
type Command<K extends OtcKind = OtcKind> = Extract<OutboxRecord, { kind: K }>;
type Input = Extract<EnqueueInput, { kind: OtcKind }>;

/**
 * A choice of a side (buy or sell) in the words of the place it stands in (the book, the listing
 * form, the account's orders): its legend `trading.<place>_side`, each side `trading.<place>_<side>`.
 */
export function SideChoice({
  place,
  sides = OTC_SIDES,
  value,
  onChange,
}: {
  place: 'book' | 'list' | 'mine';
  /** The sides in the order shown. */
  sides?: readonly OtcSide[];
  value: OtcSide;
  onChange: (side: OtcSide) => void;
}) {
  const { t } = useTranslation();
  return (
    <Choice
      legend={t(`trading.${place}_side`)}
      name={`otc-${place}-side`}
      options={sides.map((side) => ({ value: side, label: t(`trading.${place}_${side}`) }))}
      value={value}
      onChange={onChange}
    />
  );
}

/** A form's command (src/features/outbox/use-command-flow.ts) in the trading tab's words. */
function useOtcCommand(
  kind: OtcKind,
  active: ActiveAccount,
  sink: FieldErrorSink,
  onSettled: (command: Command, outcome: PricedOutcome) => void,
) {
  const { t } = useTranslation();
  const texts = useFlowTexts('trading');
  const flow = useCommandFlow<OtcKind, PricedOutcome>({
    kind,
    active,
    outcomeOf: pricedOutcome,
    sink,
    texts: { ...texts, stale: (message) => t('trading.changed', { message }) },
    onSettled,
  });
  // The form passes its own kind's params (checked again at the worker's edge).
  const enqueue = (params: Input['params']) => flow.enqueue({ kind, params } as Input);
  return { enqueue, sending: flow.sending, notice: flow.notice };
}

/** Why the listing cannot go as typed, in the user's language; null when it can (or nothing is typed). */
function useListingProblem() {
  const { t } = useTranslation();
  return (view: ListingView): { field: 'volume' | 'price'; text: string } | null => {
    switch (view.kind) {
      case 'closed':
        return { field: 'price', text: t('server.otc_closed') };
      case 'empty':
        return null;
      case 'invalid':
        return {
          field: view.field,
          text: t(view.field === 'volume' ? 'server.amount_invalid' : 'trading.price_invalid'),
        };
      case 'below_minimum':
        return {
          field: 'volume',
          text: t('server.otc_volume_minimum', { minimum: shownAmount(view.minimum) }),
        };
      case 'out_of_band':
        return {
          field: 'price',
          text: t('server.otc_price_band', shownBand(view)),
        };
      case 'too_large':
        return { field: 'volume', text: t('server.otc_volume_too_large') };
      case 'ok':
        return view.short ? { field: 'volume', text: t('trading.short', { asset: view.heldAsset }) } : null;
    }
  };
}

/** What the market's forms (and the book that opens the take) are given by the Trading tab. */
export interface OtcFormProps {
  active: ActiveAccount;
  terms: OtcTerms | null;
  onSettled: () => void;
}

export function ListForm({ active, terms, onSettled }: OtcFormProps) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const check = useChecks();
  const problemOf = useListingProblem();
  const form = useForm({ volume: '', price: '', tradePassword: '' });
  const [side, setSide] = useState<OtcSide>('buy');
  const [splittable, setSplittable] = useState(true);
  const view = listingView(side, form.values.volume, form.values.price, terms);
  const problem = problemOf(view);
  const settled = useCallback(
    (command: Command, outcome: PricedOutcome) => {
      if (outcome.kind === 'done' && command.kind !== 'otc-take') {
        toast(
          t(command.kind === 'otc-buy' ? 'trading.listed_buy' : 'trading.listed_sell', {
            volume: command.params.volume,
            price: command.params.price,
          }),
        );
        form.set('volume')('');
      }
      onSettled();
    },
    // `form.set` is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [onSettled, t],
  );
  const buy = useOtcCommand('otc-buy', active, form.sink, settled);
  const sell = useOtcCommand('otc-sell', active, form.sink, settled);
  const current = side === 'buy' ? buy : sell;

  const onSubmit = form.submit(
    ({ volume, price, tradePassword }) => ({
      ...(volume.trim() === '' ? { volume: t('server.field_required', { field: t('trading.volume') }) } : {}),
      ...(price.trim() === '' ? { price: t('server.field_required', { field: t('trading.price') }) } : {}),
      ...(problem === null ? {} : { [problem.field]: problem.text }),
      ...check({ tradePassword: checkPassword(tradePassword) }),
    }),
    async ({ volume, price, tradePassword }) => {
      const params = {
        accountId: active.accountId,
        volume: volume.trim(),
        price: price.trim(),
        splittable,
        tradePassword,
      };
      if (await current.enqueue(params)) form.set('tradePassword')('');
    },
  );

  const disabledReason = !online
    ? t('trading.offline')
    : terms !== null && !isOpen(terms)
      ? t('server.otc_closed')
      : null;

  return (
    <CardForm id="otc-list-title" title={t('trading.list_title')} onSubmit={onSubmit}>
      <SideChoice place="list" value={side} onChange={setSide} />
      <AmountField label={t('trading.volume')} {...form.bind('volume')} />
      <AmountField
        label={t('trading.price')}
        {...form.bind('price')}
        addon={
          terms !== null && isOpen(terms) ? (
            <Button size="small" onClick={() => form.set('price')(shownAmount(terms.guidePrice))}>
              {t('trading.use_guide')}
            </Button>
          ) : undefined
        }
      />
      {terms !== null && isOpen(terms) && (
        <p className="muted otc-hint">{t('trading.band_line', shownBand(terms))}</p>
      )}
      <label className="otc-check">
        <input
          type="checkbox"
          checked={splittable}
          onChange={(event) => setSplittable(event.target.checked)}
        />
        <span>{t('trading.splittable')}</span>
      </label>
      <ListingFigures view={view} side={side} makerFeeRate={terms?.makerFeeRate ?? null} />
      {problem !== null && view.kind !== 'empty' && (
        <p className="otc-problem" role="status">
          {problem.text}
        </p>
      )}
      <TradePasswordField label={t('trading.trade_password')} {...form.bind('tradePassword')} />
      <SubmitButton busy={current.sending} disabled={terms === null} reason={disabledReason}>
        {t(`trading.submit_${side}`)}
      </SubmitButton>
      <CommandLines flow={current} className="otc-notice" />
    </CardForm>
  );
}

function ListingFigures({
  view,
  side,
  makerFeeRate,
}: {
  view: ListingView;
  side: OtcSide;
  makerFeeRate: string | null;
}) {
  const { t } = useTranslation();
  if (view.kind !== 'ok') return <p className="muted otc-figures-empty">{t('trading.figures_empty')}</p>;
  const fee = t('trading.maker_fee', { rate: makerFeeRate === null ? '' : ratePercent(makerFeeRate) });
  return (
    <dl className="figure-list figure-panel otc-figures" aria-label={t('trading.figures_title')}>
      <Figure label={t('trading.total_usdt')} value={`${view.usdt} USDT`} />
      <Figure label={fee} value={`${view.makerFee} USDT`} />
      <Figure label={t('trading.held_now')} value={`${view.held} ${view.heldAsset}`} strong />
      <Figure
        label={t(side === 'buy' ? 'trading.receive_whole_buy' : 'trading.receive_whole_sell')}
        value={`${view.receive} ${view.receiveAsset}`}
      />
    </dl>
  );
}

/** Why the take cannot go as typed, in the user's language; null when it can. */
function useTakeProblem() {
  const { t } = useTranslation();
  return (view: TakeView): string | null => {
    switch (view.kind) {
      case 'empty':
        return t('server.field_required', { field: t('trading.volume') });
      case 'invalid':
        return t('server.amount_invalid');
      case 'too_much':
        return t('trading.too_much', { remaining: shownAmount(view.remaining) });
      case 'whole_only':
        return t('server.otc_not_splittable', { volume: shownAmount(view.volume) });
      case 'below_minimum':
        return t('server.otc_volume_minimum', { minimum: shownAmount(view.minimum) });
      case 'worthless':
        return t('server.otc_volume_too_small');
      case 'ok':
        return view.short ? t('trading.short', { asset: view.payAsset }) : null;
    }
  };
}

/** Taking one order of the book: it opens below the order and closes when done or dismissed. */
export function TakeForm({
  active,
  order,
  terms,
  onClose,
  onSettled,
}: OtcFormProps & { order: OtcBookRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const check = useChecks();
  const problemOf = useTakeProblem();
  const form = useForm({ volume: shownAmount(order.remaining), tradePassword: '' });
  const titleId = useId();
  const hintId = useId();
  const view = takeView(order, form.values.volume, terms);
  const problem = problemOf(view);
  const selling = order.side === 'buy';
  const formRef = useRef<HTMLFormElement>(null);
  // Opened from a row further down the book: brought into view.
  useEffect(() => {
    formRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const take = useOtcCommand(
    'otc-take',
    active,
    form.sink,
    useCallback(
      (command: Command, outcome: PricedOutcome) => {
        if (outcome.kind === 'done' && command.kind === 'otc-take') {
          const { volume, received } = command.params;
          toast(
            t(command.params.side === 'buy' ? 'trading.took_sell' : 'trading.took_buy', { volume, received }),
          );
          onClose();
        }
        onSettled();
      },
      [onClose, onSettled, t],
    ),
  );

  const onSubmit = form.submit(
    ({ tradePassword }) => ({
      ...(problem === null ? {} : { volume: problem }),
      ...check({ tradePassword: checkPassword(tradePassword) }),
    }),
    async ({ tradePassword }) => {
      if (view.kind !== 'ok') return;
      const sent = await take.enqueue({
        accountId: active.accountId,
        orderId: order.id,
        side: order.side,
        volume: view.volume,
        price: order.price,
        received: view.receive,
        tradePassword,
      });
      if (sent) form.set('tradePassword')('');
    },
  );

  return (
    <form ref={formRef} className="otc-take form" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
      <h3 id={titleId} className="otc-take__title">
        {t(selling ? 'trading.take_sell_title' : 'trading.take_buy_title', { id: order.id })}
      </h3>
      <p className="muted otc-hint">
        {order.splittable
          ? t('trading.take_parts', { remaining: shownAmount(order.remaining) })
          : t('trading.take_whole', { remaining: shownAmount(order.remaining) })}
      </p>
      <AmountField label={t('trading.volume')} {...form.bind('volume')} readOnly={!order.splittable} />
      {view.kind === 'ok' ? (
        <dl className="figure-list figure-panel otc-figures" aria-label={t('trading.figures_title')}>
          <Figure label={t('trading.you_pay')} value={`${view.pay} ${view.payAsset}`} />
          <Figure
            label={t('trading.taker_fee', { rate: ratePercent(order.takerFeeRate) })}
            value={`${view.takerFee} USDT`}
          />
          <Figure label={t('trading.you_receive')} value={`${view.receive} ${view.receiveAsset}`} strong />
        </dl>
      ) : null}
      {problem !== null && form.values.volume.trim() !== '' && (
        <p className="otc-problem" role="status">
          {problem}
        </p>
      )}
      <TradePasswordField label={t('trading.trade_password')} {...form.bind('tradePassword')} />
      <div className="otc-take__actions">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          type="submit"
          color="primary"
          loading={take.sending}
          disabled={!online}
          aria-describedby={online ? undefined : hintId}
        >
          {t(selling ? 'trading.confirm_sell' : 'trading.confirm_buy')}
        </Button>
      </div>
      {!online && (
        <p id={hintId} className="muted otc-hint">
          {t('trading.offline')}
        </p>
      )}
      <CommandLines flow={take} className="otc-notice" />
    </form>
  );
}
