/**
 * The Trading tab (pages/index/index1): the OTC market, where customers list buy and
 * sell orders for RAB priced in USDT and take each other's orders, and the way to the RAB/USDT
 * exchange. It shows the guide price with the band an order's price must keep to, the fee rates
 * and the account's available money (asked of the server, shown only while current); the book's
 * two sides and the account's own orders with their status, completion and cancel (synced, so
 * they read offline with their age); and the forms to list and to take, which state every figure
 * before confirming.
 */
import { Button } from 'antd-mobile';
import { RetryNotice } from '../../ui/RetryNotice.js';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OtcBookRecord, OtcOrder } from '../../../contract/api/otc.js';
import { ROUTES } from '../../app/paths.js';
import { usePullOnOpen } from '../../app/use-pull-on-open.js';
import { send } from '../../app/worker-client.js';
import type { ActiveAccount } from '../../../client-db/use-sync-db.js';
import { percentText, ratePercent, shownAmount } from '../../ui/amounts.js';
import { AsOf } from '../../ui/AsOf.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { DateTime } from '../../ui/DateTime.js';
import { Figure } from '../../ui/Figure.js';
import { LinkList } from '../../ui/LinkList.js';
import { useLink } from '../../ui/OfflineBanner.js';
import { toast } from '../../ui/toast.js';
import { perAccountPage } from '../account/PerAccount.js';
import { useAccountSyncedAt, useBalance } from '../account/account-data.js';
import { useRefusalMessage } from '../outbox/messages.js';
import { ListForm, SideChoice, TakeForm, type OtcFormProps } from './OtcForms.js';
import {
  isCancellable,
  isOpen,
  OTC_SIDES,
  shownBand,
  sortBook,
  type BookSort,
  type OtcSide,
  type OtcTerms,
} from './otc-view.js';
import {
  useMyOtcOrderIds,
  useMyOtcOrders,
  useOtcBook,
  useOtcInfo,
  usePendingOtcCommands,
} from './use-otc.js';
import './otc.css';
import { Select } from '../../ui/Select.js';
import { AccentCard, CardSection } from '../../ui/Card.js';
import { PagedRows, RECORDS_PAGE, usePaging } from '../../ui/RecordsSection.js';

const BOOK_COLLECTIONS = ['otc_book'] as const;
const ORDER_COLLECTIONS = ['otc_orders', 'balances'] as const;
const EXCHANGE_ENTRY = [['exchange.title', ROUTES.exchange]] as const;
/** The book offers its sell side first (as it opens on it). */
const BOOK_SIDES = OTC_SIDES.slice().reverse();

export default perAccountPage(Trading);

function Trading({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const online = useLink() === 'online';
  const info = useOtcInfo(active.accountId, online);
  const balance = useBalance(active) ?? null;
  usePullOnOpen();
  // The server's available money now, else the synced balance (the book and orders show offline).
  const terms: OtcTerms | null = info.data;
  const available =
    info.data !== null
      ? { usdt: info.data.usdt, rab: info.data.rab }
      : balance !== null
        ? { usdt: balance.cash, rab: balance.rab }
        : null;
  const reload = info.reload;

  return (
    <div className="page-padding stack otc">
      <nav aria-label={t('trading.exchange_nav')}>
        <LinkList entries={EXCHANGE_ENTRY} />
      </nav>
      <Market active={active} terms={terms} available={available} fromServer={info.data !== null} />
      <RetryNotice
        read={info}
        className="card otc-notice-card"
        message={t('trading.unavailable')}
        retry={t('trading.retry')}
      />
      <Book active={active} terms={terms} onSettled={reload} />
      <ListForm active={active} terms={terms} onSettled={reload} />
      <MyOrders active={active} onSettled={reload} />
    </div>
  );
}

/** The guide price, the band, the fees, the minimum and the account's available money. */
function Market({
  active,
  terms,
  available,
  fromServer,
}: {
  active: ActiveAccount;
  terms: OtcTerms | null;
  available: { usdt: string; rab: string } | null;
  fromServer: boolean;
}) {
  const { t } = useTranslation();
  const syncedAt = useAccountSyncedAt(active, ['balances']);
  return (
    <AccentCard id="otc-market" title={t('trading.guide_title')}>
      <p className="card__figure">
        {terms === null ? '…' : isOpen(terms) ? shownAmount(terms.guidePrice) : '—'}{' '}
        <span className="card__unit">{t('trading.per_rab')}</span>
      </p>
      {terms !== null && !isOpen(terms) && <p className="card__note">{t('server.otc_closed')}</p>}
      {terms !== null && isOpen(terms) && (
        <dl className="figure-list otc-terms">
          <Figure label={t('trading.band')} value={t('trading.band_value', shownBand(terms))} />
          <Figure
            label={t('trading.fees')}
            value={t('trading.fees_value', {
              maker: ratePercent(terms.makerFeeRate),
              taker: ratePercent(terms.takerFeeRate),
            })}
          />
          <Figure label={t('trading.minimum')} value={`${shownAmount(terms.minimum)} RAB`} />
        </dl>
      )}
      <p className="card__note otc-available">
        {available === null
          ? '…'
          : t('trading.available', { usdt: shownAmount(available.usdt), rab: shownAmount(available.rab) })}
      </p>
      {!fromServer && available !== null && <AsOf syncedAt={syncedAt} />}
    </AccentCard>
  );
}

/** The open book, one side at a time, with the take form opened below the order chosen. */
function Book({ active, terms, onSettled }: OtcFormProps) {
  const { t } = useTranslation();
  const [side, setSide] = useState<OtcSide>('sell');
  const [sort, setSort] = useState<BookSort>('price');
  const paging = usePaging(RECORDS_PAGE, 'trading.more');
  // The order as it was when its take form opened: the form keeps the price and volume the user
  // saw even when a pull changes the book meanwhile (the server then refuses the take, 409).
  const [taking, setTaking] = useState<OtcBookRecord | null>(null);
  const book = useOtcBook(side);
  const mine = useMyOtcOrderIds(active);
  const syncedAt = useAccountSyncedAt(active, [], BOOK_COLLECTIONS);
  const orders = book === undefined ? undefined : sortBook(book, side, sort);
  const close = useCallback(() => setTaking(null), []);
  const gone = taking !== null && orders !== undefined && !orders.some((order) => order.id === taking.id);

  return (
    <CardSection id="otc-book" className="card stack otc-book" title={t('trading.book_title')}>
      <SideChoice
        place="book"
        sides={BOOK_SIDES}
        value={side}
        onChange={(value) => {
          setSide(value);
          setTaking(null);
          paging.reset();
        }}
      />
      <Select
        className="otc-book__sort"
        label={t('trading.sort')}
        value={sort}
        options={[
          { value: 'price', label: t('trading.sort_price') },
          { value: 'newest', label: t('trading.sort_newest') },
        ]}
        onChange={setSort}
      />
      <AsOf syncedAt={syncedAt} />
      {/* One place for the form, so a pull that changes the book never remounts it (nor loses its notice). */}
      {taking !== null && (
        <div className="otc-taking">
          {gone && (
            <p className="muted otc-order__mine" role="status">
              {t('trading.gone', { id: taking.id })}
            </p>
          )}
          <TakeForm
            key={taking.id}
            active={active}
            order={taking}
            terms={terms}
            onClose={close}
            onSettled={onSettled}
          />
        </div>
      )}
      {orders !== undefined && orders.length === 0 && (
        <p className="muted">{t(side === 'buy' ? 'trading.book_empty_buy' : 'trading.book_empty_sell')}</p>
      )}
      <PagedRows
        rows={orders}
        paging={paging}
        className="row-list otc-list"
        label={t(`trading.book_${side}`)}
      >
        {(order) => (
          <li className="otc-order">
            <BookLine order={order} />
            {mine?.has(order.id) ? (
              <p className="muted otc-order__mine">{t('trading.your_order')}</p>
            ) : (
              <Button
                size="small"
                color="primary"
                fill="outline"
                aria-pressed={taking?.id === order.id}
                onClick={() => setTaking(order)}
                aria-label={t(order.side === 'buy' ? 'trading.sell_to_named' : 'trading.buy_from_named', {
                  id: order.id,
                  price: shownAmount(order.price),
                })}
              >
                {t(order.side === 'buy' ? 'trading.sell_to' : 'trading.buy_from')}
              </Button>
            )}
          </li>
        )}
      </PagedRows>
    </CardSection>
  );
}

/** One order of the book: its price, what is left of its volume, its completion and whether it splits. */
function BookLine({ order }: { order: OtcBookRecord }) {
  const { t } = useTranslation();
  return (
    <div className="otc-order__line">
      <p className="otc-order__price">
        {t('trading.price_line', { price: shownAmount(order.price) })}
        <span className="muted otc-order__id"> #{order.id}</span>
      </p>
      <p className="otc-order__volume">
        {t('trading.remaining_line', {
          remaining: shownAmount(order.remaining),
          volume: shownAmount(order.volume),
        })}
      </p>
      <p className="muted otc-order__meta">
        {t('trading.completion', { rate: percentText(order.completionRate) })} ·{' '}
        {t(order.splittable ? 'trading.splits' : 'trading.whole_only')} ·{' '}
        <DateTime at={order.createdAt} style="short" />
      </p>
    </div>
  );
}

/** The account's buy and sell orders, with their status, completion and a cancel while open. */
function MyOrders({ active, onSettled }: { active: ActiveAccount; onSettled: () => void }) {
  const { t } = useTranslation();
  const [side, setSide] = useState<OtcSide>('buy');
  const orders = useMyOtcOrders(active, side);
  const pending = usePendingOtcCommands(active);
  const syncedAt = useAccountSyncedAt(active, ORDER_COLLECTIONS);
  const cancelling = new Set(
    (pending ?? []).flatMap((command) => (command.kind === 'otc-cancel' ? [command.params.orderId] : [])),
  );
  return (
    <CardSection id="otc-mine" className="card stack" title={t('trading.mine_title')}>
      <SideChoice place="mine" value={side} onChange={setSide} />
      <AsOf syncedAt={syncedAt} />
      {orders !== undefined && orders.length === 0 && (
        <p className="muted">{t(side === 'buy' ? 'trading.mine_empty_buy' : 'trading.mine_empty_sell')}</p>
      )}
      {orders !== undefined && orders.length > 0 && (
        <ul className="row-list otc-list" aria-label={t(`trading.mine_${side}`)}>
          {orders.map((order) => (
            <MyOrder
              key={order.id}
              active={active}
              order={order}
              cancelling={cancelling.has(order.id)}
              onSettled={onSettled}
            />
          ))}
        </ul>
      )}
    </CardSection>
  );
}

function MyOrder({
  active,
  order,
  cancelling,
  onSettled,
}: {
  active: ActiveAccount;
  order: OtcOrder;
  cancelling: boolean;
  onSettled: () => void;
}) {
  const { t } = useTranslation();
  const refusal = useRefusalMessage();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const asset = order.side === 'buy' ? 'USDT' : 'RAB';

  const cancel = async () => {
    setBusy(true);
    try {
      const result = await send('outbox-enqueue', {
        kind: 'otc-cancel',
        params: { accountId: active.accountId, orderId: order.id },
      });
      if (result.kind === 'refused') {
        toast(refusal(result));
        return;
      }
      setConfirming(false);
      toast(t('trading.cancel_queued', { id: order.id }));
      onSettled();
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="otc-order">
      <div className="otc-order__line">
        <p className="otc-order__price">
          {t(`trading.mine_line_${order.side}`, {
            volume: shownAmount(order.volume),
            price: shownAmount(order.price),
          })}
          <span className="muted otc-order__id"> #{order.id}</span>
        </p>
        <p className={`otc-status otc-status--${order.status}`}>{t(`trading.status_${order.status}`)}</p>
        <p className="muted otc-order__meta">
          {t('trading.filled_line', {
            filled: shownAmount(order.filled),
            volume: shownAmount(order.volume),
            rate: percentText(order.completionRate),
          })}
        </p>
        <p className="muted otc-order__meta">
          {t('trading.held_line', {
            held: shownAmount(order.held),
            escrow: shownAmount(order.escrow),
            asset,
          })}
          {' · '}
          <DateTime at={order.createdAt} style="short" />
        </p>
      </div>
      {isCancellable(order) &&
        (cancelling ? (
          <p className="muted otc-order__mine" role="status">
            {t('trading.cancelling')}
          </p>
        ) : (
          <Button
            size="small"
            onClick={() => setConfirming(true)}
            aria-label={t('trading.cancel_named', { id: order.id })}
          >
            {t('trading.cancel')}
          </Button>
        ))}
      {confirming && (
        <ConfirmDialog
          title={t('trading.cancel_title', { id: order.id })}
          subtitle={t('trading.cancel_subtitle')}
          confirmLabel={t('trading.cancel_confirm')}
          busy={busy}
          onConfirm={() => void cancel()}
          onClose={() => setConfirming(false)}
        >
          <dl className="figure-list">
            <Figure label={t('trading.filled')} value={`${shownAmount(order.filled)} RAB`} />
            <Figure label={t('trading.released')} value={`${shownAmount(order.held)} ${asset}`} strong />
          </dl>
        </ConfirmDialog>
      )}
    </li>
  );
}
