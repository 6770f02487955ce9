/**
 * The exchange (pages/withdraw/withdraw3): RAB to USDT or back at the operators' price,
 * with a live quote computed by the server's own integer rule (what you pay, what you receive
 * after the fee, the fee and any rounding kept), the price version it stands on, the trade
 * password, and the account's exchange records. The exchange is an outbox command sent only
 * while online and expired after a minute: it names the price version shown, and when the price
 * changed meanwhile the server refuses it (409) and the page shows the new price and asks to
 * confirm again. Offline the records and the last pulled price still show, with their age.
 */
import { AmountField, SubmitButton, TradePasswordField } from '../../ui/form-fields.js';
import { Button } from 'antd-mobile';
import { RetryNotice } from '../../ui/RetryNotice.js';
import { Figure } from '../../ui/Figure.js';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BalanceRecord, PriceRecord } from '../../../contract/api/account.js';
import type { ExchangeIndexData, ExchangeRecord } from '../../../contract/api/exchange.js';
import { REQUEST_DEBOUNCE_MS } from '../../../contract/constants.js';
import { checkPassword } from '../../../contract/validation.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { perAccountPage } from '../account/PerAccount.js';
import { CommandLines } from '../outbox/CommandLines.js';
import { useCommandFlow, useFlowTexts } from '../outbox/use-command-flow.js';
import { AsOf } from '../../ui/AsOf.js';
import { DateTime, formatTime } from '../../ui/DateTime.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import { useAccountSyncedAt, useBalance, useRecordsList } from '../account/account-data.js';
import { useChecks } from '../../ui/field-messages.js';
import { useForm } from '../../ui/use-form.js';
import {
  ASSETS_OF,
  commandOutcome,
  EXCHANGE_DIRECTIONS,
  quoteView,
  ratePercent,
  shownAmount,
  type ExchangeDirection,
  type QuoteView,
} from './exchange-view.js';
import { useExchanges, useExchangeTerms, usePullOnOpen, useSyncedPrice } from './use-exchange.js';
import { Choice } from '../../ui/Choice.js';
import './exchange.css';
import { RecordsSection, type RecordsList } from '../../ui/RecordsSection.js';
import { AccentCard, CardForm, CardSection } from '../../ui/Card.js';

const BALANCE_COLLECTIONS = ['balances'] as const;
const RECORDS: RecordsList = {
  title: 'exchange.records_title',
  empty: 'exchange.records_empty',
  more: 'exchange.more',
  collections: ['exchanges'],
};
const PRICE_COLLECTIONS = ['prices'] as const;

export default perAccountPage(Exchange);

function Exchange({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const synced = useSyncedPrice();
  const termsRead = useExchangeTerms(active.accountId, online, synced?.priceVersion ?? null);
  const { data: terms, state, reload } = termsRead;
  const balance = useBalance(active);
  const [direction, setDirection] = useState<ExchangeDirection>('rab_to_usdt');
  usePullOnOpen();

  return (
    <div className="page-padding stack">
      <Balances active={active} terms={terms} balance={balance ?? null} />
      <PriceCard active={active} terms={terms} synced={synced ?? null} />
      <RetryNotice
        read={termsRead}
        className="card exchange-notice"
        message={t('exchange.unavailable')}
        retry={t('exchange.retry')}
      />
      <Choice
        className="card choices"
        legend={t('exchange.direction')}
        name="exchange-direction"
        options={EXCHANGE_DIRECTIONS.map((value) => ({ value, label: t(`exchange.${value}`) }))}
        value={direction}
        onChange={setDirection}
      />
      <ExchangeForm
        active={active}
        direction={direction}
        terms={terms}
        balance={balance ?? null}
        online={online}
        loading={state === 'loading' && terms === null}
        onSettled={reload}
      />
      <Records active={active} />
    </div>
  );
}

/** The available figure of each asset: the server's (as of now), else the synced balance. */
function availableOf(
  asset: 'RAB' | 'USDT',
  terms: ExchangeIndexData | null,
  balance: BalanceRecord | null,
): string | null {
  if (terms !== null) return asset === 'RAB' ? terms.rab : terms.usdt;
  if (balance === null) return null;
  return asset === 'RAB' ? balance.rab : balance.cash;
}

function Balances({
  active,
  terms,
  balance,
}: {
  active: ActiveAccount;
  terms: ExchangeIndexData | null;
  balance: BalanceRecord | null;
}) {
  const { t } = useTranslation();
  const syncedAt = useAccountSyncedAt(active, BALANCE_COLLECTIONS);
  const figure = (asset: 'RAB' | 'USDT') => {
    const amount = availableOf(asset, terms, balance);
    return amount === null ? '…' : shownAmount(amount);
  };
  return (
    <AccentCard id="exchange-balances" title={t('exchange.balances_title')}>
      <p className="card__figure exchange-balance">
        {figure('RAB')} <span className="card__unit">RAB</span>
      </p>
      <p className="exchange-balance exchange-balance--second">
        {figure('USDT')} <span className="card__unit">USDT</span>
      </p>
      {/* The synced figures say how fresh they are; the server's are as of now. */}
      {terms === null && balance !== null && (
        <div className="exchange-as-of">
          <AsOf syncedAt={syncedAt} />
        </div>
      )}
    </AccentCard>
  );
}

/** The price and its version: the server's now, else the last pulled one with its age. */
function PriceCard({
  active,
  terms,
  synced,
}: {
  active: ActiveAccount;
  terms: ExchangeIndexData | null;
  synced: PriceRecord | null;
}) {
  const { t, i18n } = useTranslation();
  const syncedAt = useAccountSyncedAt(active, [], PRICE_COLLECTIONS);
  const price = terms !== null ? terms.price : (synced?.usdt ?? null);
  const version = terms !== null ? terms.priceVersion : (synced?.priceVersion ?? null);
  const setAt = terms !== null ? terms.priceUpdatedAt : (synced?.updatedAt ?? null);
  const closed = terms !== null ? !terms.open : price === null || price === '0';
  return (
    <CardSection id="exchange-price" title={t('exchange.price_title')}>
      {closed ? (
        <p className="exchange-closed">{terms === null && synced === null ? '…' : t('exchange.closed')}</p>
      ) : (
        <>
          <p className="exchange-price">{t('exchange.price_line', { price: shownAmount(price ?? '0') })}</p>
          {version !== null && setAt !== null && (
            <p className="muted exchange-price__version">
              {t('exchange.price_version', { version, time: formatTime(setAt, i18n.language, 'short') })}
            </p>
          )}
        </>
      )}
      {terms === null && synced !== null && <AsOf syncedAt={syncedAt} />}
    </CardSection>
  );
}

/** Why the typed amount cannot be quoted, in the user's language; null when it can (or nothing is typed). */
function useQuoteProblem() {
  const { t } = useTranslation();
  return (quote: QuoteView): string | null => {
    switch (quote.kind) {
      case 'invalid':
        return t('server.amount_invalid');
      case 'out_of_bounds':
        return t('exchange.quote_out_of_bounds', {
          minimum: shownAmount(quote.minimum),
          maximum: shownAmount(quote.maximum),
          asset: quote.asset,
        });
      case 'too_small':
        return t('exchange.quote_too_small');
      case 'too_large':
        return t('server.exchange_amount_too_large');
      case 'closed':
        return t('exchange.closed');
      case 'empty':
        return t('server.field_required', { field: t('field.amount') });
      case 'ok':
        return null;
    }
  };
}

/** The price version an exchange was refused at (409) and the server's words, or null. */
type Stale = { version: string; message: string } | null;

function ExchangeForm({
  active,
  direction,
  terms,
  balance,
  online,
  loading,
  onSettled,
}: {
  active: ActiveAccount;
  direction: ExchangeDirection;
  terms: ExchangeIndexData | null;
  balance: BalanceRecord | null;
  online: boolean;
  loading: boolean;
  onSettled: () => void;
}) {
  const { t } = useTranslation();
  const check = useChecks();
  const quoteProblem = useQuoteProblem();
  const form = useForm({ amount: '', tradePassword: '' });
  /** The price the last exchange was refused at (409), until the user acts again. */
  const [stale, setStale] = useState<Stale>(null);
  /** The trade password of the exchange under way, kept only until it settles (to confirm again after a price change). */
  const password = useRef('');
  const staleReload = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(staleReload.current), []);
  const texts = useFlowTexts('exchange');
  const flow = useCommandFlow({
    kind: 'exchange-submit',
    active,
    outcomeOf: commandOutcome,
    sink: form.sink,
    texts,
    // Then the page lets the user go on, or confirm again at the new price.
    onSettled: (command, outcome) => {
      setStale(null);
      if (outcome.kind === 'stale') {
        // The password stays for one confirmation at the new price. The new price comes with a
        // pull and a fresh read of the terms once the worker's debounce window (which would
        // hand back the read made just before the refusal) has passed.
        setStale({ version: command.params.priceVersion, message: outcome.message });
        clearTimeout(staleReload.current);
        staleReload.current = setTimeout(onSettled, REQUEST_DEBOUNCE_MS + 100);
      } else password.current = '';
      if (outcome.kind === 'done') {
        toast(
          t('exchange.done', {
            amount: command.params.amount,
            asset: ASSETS_OF[command.params.direction].assetIn,
          }),
        );
        form.set('amount')('');
      }
      onSettled();
    },
  });
  const boundsId = useId();
  const { assetIn } = ASSETS_OF[direction];
  const quote = quoteView(direction, form.values.amount, terms, availableOf(assetIn, terms, balance));

  const enqueue = async (amount: string, tradePassword: string, priceVersion: string) => {
    setStale(null);
    const queued = await flow.enqueue({
      kind: 'exchange-submit',
      params: { accountId: active.accountId, direction, amount, priceVersion, tradePassword },
    });
    if (!queued) return;
    password.current = tradePassword;
    form.set('tradePassword')('');
  };

  const onSubmit = form.submit(
    ({ tradePassword }) => {
      const problem = quoteProblem(quote);
      return {
        ...(problem === null ? {} : { amount: problem }),
        ...check({ tradePassword: checkPassword(tradePassword) }),
      };
    },
    async ({ amount, tradePassword }) => {
      if (terms?.priceVersion == null) return;
      await enqueue(amount.trim(), tradePassword, terms.priceVersion);
    },
  );

  // After a price change: confirm the same amount again at the version now shown.
  const newPrice =
    stale !== null && terms !== null && terms.open && terms.priceVersion !== stale.version ? terms : null;
  const confirmAgain = () => {
    if (newPrice?.priceVersion == null || quote.kind !== 'ok') return;
    if (password.current === '') {
      form.sink.show('tradePassword', t('server.field_required', { field: t('field.tradePassword') }));
      return;
    }
    void enqueue(form.values.amount.trim(), password.current, newPrice.priceVersion);
  };

  const disabledReason = !online
    ? t('exchange.offline')
    : terms !== null && !terms.open
      ? t('exchange.closed')
      : null;

  return (
    <CardForm id="exchange-form" title={t('exchange.form_title')} onSubmit={onSubmit}>
      <AmountField label={t('exchange.amount', { asset: assetIn })} {...form.bind('amount')} />
      <p id={boundsId} className="muted exchange-bounds">
        {terms === null
          ? loading
            ? t('exchange.loading')
            : ''
          : t('exchange.bounds', {
              minimum: shownAmount(terms.minimum),
              maximum: shownAmount(terms.maximum),
              asset: assetIn,
            })}
      </p>
      <Quote quote={quote} feeRate={terms?.feeRate ?? null} />
      <TradePasswordField label={t('exchange.trade_password')} {...form.bind('tradePassword')} />
      <SubmitButton busy={flow.sending} disabled={terms === null} reason={disabledReason}>
        {t('exchange.submit')}
      </SubmitButton>
      <CommandLines
        flow={flow}
        status={
          flow.command == null
            ? ''
            : t('exchange.sending', {
                amount: flow.command.params.amount,
                asset: ASSETS_OF[flow.command.params.direction].assetIn,
              })
        }
      >
        {stale !== null && (
          <div className="exchange-stale" role="alert">
            {newPrice === null ? (
              <p>{stale.message}</p>
            ) : (
              <>
                <p>{t('exchange.price_changed', { price: shownAmount(newPrice.price) })}</p>
                <Button color="primary" onClick={confirmAgain} disabled={!online || quote.kind !== 'ok'}>
                  {t('exchange.confirm_again')}
                </Button>
              </>
            )}
          </div>
        )}
      </CommandLines>
    </CardForm>
  );
}

/** The live quote: what the amount typed gets at the price shown, to the minor unit. */
function Quote({ quote, feeRate }: { quote: QuoteView; feeRate: string | null }) {
  const { t } = useTranslation();
  const problem =
    quote.kind === 'empty' || quote.kind === 'closed'
      ? t('exchange.quote_empty')
      : quote.kind === 'invalid'
        ? t('server.amount_invalid')
        : quote.kind === 'out_of_bounds'
          ? t('exchange.quote_out_of_bounds', {
              minimum: shownAmount(quote.minimum),
              maximum: shownAmount(quote.maximum),
              asset: quote.asset,
            })
          : quote.kind === 'too_small'
            ? t('exchange.quote_too_small')
            : quote.kind === 'too_large'
              ? t('server.exchange_amount_too_large')
              : null;
  return (
    <section className="exchange-quote" aria-labelledby="exchange-quote" aria-live="polite">
      <h3 id="exchange-quote" className="exchange-quote__title">
        {t('exchange.quote_title')}
      </h3>
      {quote.kind !== 'ok' ? (
        <p className="muted">{problem}</p>
      ) : (
        <dl className="figure-list">
          <Figure label={t('exchange.quote_pay')} value={`${quote.pay} ${quote.payAsset}`} />
          <Figure
            label={t('exchange.quote_receive')}
            value={`${quote.receive} ${quote.receiveAsset}`}
            strong
          />
          <Figure
            label={t('exchange.quote_fee', { rate: feeRate === null ? '' : ratePercent(feeRate) })}
            value={`${quote.fee} USDT`}
          />
          {quote.rounding !== null && (
            <Figure label={t('exchange.quote_rounding')} value={`${quote.rounding} USDT`} />
          )}
        </dl>
      )}
      {quote.kind === 'ok' && quote.short && (
        <p className="exchange-short">{t('exchange.quote_short', { asset: quote.payAsset })}</p>
      )}
    </section>
  );
}

/** The exchange being sent, as a status. */
function Records({ active }: { active: ActiveAccount }) {
  const list = useRecordsList(active, RECORDS);
  const records = useExchanges(active, list.paging.shown + 1);
  return (
    <RecordsSection {...list} records={records}>
      {(record) => <RecordLine record={record} />}
    </RecordsSection>
  );
}

function RecordLine({ record }: { record: ExchangeRecord }) {
  const { t } = useTranslation();
  return (
    <li className="exchange-record">
      <p className="exchange-record__amounts">
        {t('exchange.record_amounts', {
          amountIn: shownAmount(record.amountIn),
          assetIn: record.assetIn,
          amountOut: shownAmount(record.amountOut),
          assetOut: record.assetOut,
        })}
      </p>
      <p className="muted exchange-record__detail">
        {t('exchange.record_detail', { price: shownAmount(record.price), fee: shownAmount(record.fee) })}
      </p>
      <DateTime className="muted exchange-record__time" at={record.createdAt} style="short" />
    </li>
  );
}
