/**
 * What the Trading tab shows of the OTC market: the figures of an order about to be
 * listed and of a take about to be made, computed with the server's own integer rules
 * (contract/otc-quote.ts), so the fee and the amount received on screen are the ones the ledger
 * will move; the book in the order a side reads best; how a settled command reads. Pure; no zod,
 * no IndexedDB.
 */
import type { Asset } from '../../../contract/api/account.js';
import type { OtcBookRecord, OtcInfoData, OtcOrder } from '../../../contract/api/otc.js';
import { isFeeRate, parseFeeRate } from '../../../contract/exchange-quote.js';
import { formatMoney, type Minor, minor, moneyText, parseUserAmount } from '../../../contract/money.js';
import { escrowOf, feeOf, fillOf, OTC_LEG_MAX, usdtOf, type OtcSide } from '../../../contract/otc-quote.js';
import { moneyOrNull, shownAmount } from '../../ui/amounts.js';

export { OTC_SIDES, type OtcSide } from '../../../contract/otc-quote.js';

/** What a listing's figures need of /api/v1/otc/info. */
export type OtcTerms = Pick<
  OtcInfoData,
  'guidePrice' | 'minPrice' | 'maxPrice' | 'makerFeeRate' | 'takerFeeRate' | 'minimum' | 'usdt' | 'rab'
>;

/** The price band's two ends as shown: the values of every text that states the band. */
export function shownBand(band: Pick<OtcTerms, 'minPrice' | 'maxPrice'>): {
  minPrice: string;
  maxPrice: string;
} {
  return { minPrice: shownAmount(band.minPrice), maxPrice: shownAmount(band.maxPrice) };
}

/** True when the market is open: a guide price is set. */
export function isOpen(terms: Pick<OtcTerms, 'guidePrice'> | null): boolean {
  const guide = moneyOrNull(terms?.guidePrice);
  return guide !== null && guide > 0n;
}

function userAmountOrNull(text: string): Minor | null {
  try {
    const amount = parseUserAmount(text.trim());
    return amount > 0n ? amount : null;
  } catch {
    return null;
  }
}

/**
 * An order about to be listed, as the server will check it (docs/protocol.md section 24):
 * - `closed`: no terms yet or no guide price; `empty`: volume or price not typed;
 * - `invalid`: the field is not a volume above 0 with at most 2 decimals, or not a price above 0
 *   with at most 6; `below_minimum`: less RAB than an order lists; `out_of_band`: the price
 *   outside the band (its edges allowed); `too_large`: the escrow beyond 10^12 units;
 * - `ok`: `held` is what listing holds now (a buy: the USDT of the volume plus the maker's fee; a
 *   sell: the RAB), `receive` what filling it whole brings (a buy: the RAB; a sell: the USDT less
 *   the maker's fee); `short` when the known available balance does not cover `held` (the server
 *   then answers 470).
 */
export type ListingView =
  | { kind: 'closed' }
  | { kind: 'empty' }
  | { kind: 'invalid'; field: 'volume' | 'price' }
  | { kind: 'below_minimum'; minimum: string }
  | { kind: 'out_of_band'; minPrice: string; maxPrice: string }
  | { kind: 'too_large' }
  | {
      kind: 'ok';
      volume: string;
      price: string;
      usdt: string;
      makerFee: string;
      held: string;
      heldAsset: Asset;
      receive: string;
      receiveAsset: Asset;
      short: boolean;
    };

export function listingView(
  side: OtcSide,
  volumeText: string,
  priceText: string,
  terms: OtcTerms | null,
): ListingView {
  if (terms === null || !isOpen(terms) || !isFeeRate(terms.makerFeeRate)) return { kind: 'closed' };
  if (volumeText.trim() === '' || priceText.trim() === '') return { kind: 'empty' };
  const volume = userAmountOrNull(volumeText);
  if (volume === null) return { kind: 'invalid', field: 'volume' };
  const price = moneyOrNull(priceText.trim());
  if (price === null || price <= 0n) return { kind: 'invalid', field: 'price' };
  const minimum = moneyOrNull(terms.minimum);
  if (minimum !== null && volume < minimum) return { kind: 'below_minimum', minimum: terms.minimum };
  const low = moneyOrNull(terms.minPrice);
  const high = moneyOrNull(terms.maxPrice);
  if (low !== null && high !== null && (price < low || price > high))
    return { kind: 'out_of_band', minPrice: terms.minPrice, maxPrice: terms.maxPrice };
  const rate = parseFeeRate(terms.makerFeeRate);
  const escrow = escrowOf(side, volume, price, rate);
  const usdt = usdtOf(volume, price);
  if (escrow > OTC_LEG_MAX || usdt > OTC_LEG_MAX) return { kind: 'too_large' };
  const makerFee = feeOf(usdt, rate);
  const available = moneyOrNull(side === 'buy' ? terms.usdt : terms.rab);
  return {
    kind: 'ok',
    volume: formatMoney(volume),
    price: formatMoney(price),
    usdt: formatMoney(usdt),
    makerFee: formatMoney(makerFee),
    held: formatMoney(escrow),
    heldAsset: side === 'buy' ? 'USDT' : 'RAB',
    receive: side === 'buy' ? formatMoney(volume) : moneyText(usdt - makerFee),
    receiveAsset: side === 'buy' ? 'RAB' : 'USDT',
    short: available !== null && escrow > available,
  };
}

/**
 * A take about to be made of an order in the book:
 * - `empty`: nothing typed; `invalid`: not a volume above 0 with at most 2 decimals;
 * - `too_much`: more than the order has left; `whole_only`: a part of an order taken whole or not
 *   at all; `below_minimum`: a part below the minimum that is not the whole rest; `worthless`: a
 *   part worth no USDT at this price;
 * - `ok`: from the taker's side, as the server answers it: selling into a buy order pays the RAB
 *   and receives the USDT less the taker's fee; buying from a sell order pays the USDT plus the
 *   fee and receives the RAB. `short` when the known available balance does not cover `pay`.
 */
export type TakeView =
  | { kind: 'empty' }
  | { kind: 'invalid' }
  | { kind: 'too_much'; remaining: string }
  | { kind: 'whole_only'; volume: string }
  | { kind: 'below_minimum'; minimum: string }
  | { kind: 'worthless' }
  | {
      kind: 'ok';
      volume: string;
      usdt: string;
      takerFee: string;
      pay: string;
      payAsset: Asset;
      receive: string;
      receiveAsset: Asset;
      short: boolean;
    };

export type TakeableOrder = Pick<
  OtcBookRecord,
  'side' | 'price' | 'filled' | 'remaining' | 'splittable' | 'takerFeeRate'
>;

export function takeView(
  order: TakeableOrder,
  volumeText: string,
  terms: Pick<OtcTerms, 'minimum' | 'usdt' | 'rab'> | null,
): TakeView {
  if (volumeText.trim() === '') return { kind: 'empty' };
  const volume = userAmountOrNull(volumeText);
  const price = moneyOrNull(order.price);
  const filled = moneyOrNull(order.filled);
  const remaining = moneyOrNull(order.remaining);
  if (
    volume === null ||
    price === null ||
    filled === null ||
    remaining === null ||
    !isFeeRate(order.takerFeeRate)
  )
    return { kind: 'invalid' };
  if (volume > remaining) return { kind: 'too_much', remaining: order.remaining };
  if (!order.splittable && volume !== remaining) return { kind: 'whole_only', volume: order.remaining };
  const minimum = moneyOrNull(terms?.minimum);
  if (minimum !== null && volume < minimum && volume !== remaining)
    return { kind: 'below_minimum', minimum: terms?.minimum ?? '' };
  // The maker's rate changes nothing on the taker's side: a zero rate stands in for it.
  const none = { numerator: 0n, denominator: 1n };
  const fill = fillOf(
    { price, filled, usdtFilled: usdtOf(filled, price), makerFeeFilled: minor(0n) },
    volume,
    none,
    parseFeeRate(order.takerFeeRate),
  );
  if (fill.usdt <= 0n) return { kind: 'worthless' };
  const selling = order.side === 'buy';
  const pay = selling ? volume : minor(fill.usdt + fill.takerFee);
  const available = moneyOrNull(selling ? terms?.rab : terms?.usdt);
  return {
    kind: 'ok',
    volume: formatMoney(volume),
    usdt: formatMoney(fill.usdt),
    takerFee: formatMoney(fill.takerFee),
    pay: formatMoney(pay),
    payAsset: selling ? 'RAB' : 'USDT',
    receive: selling ? moneyText(fill.usdt - fill.takerFee) : formatMoney(volume),
    receiveAsset: selling ? 'USDT' : 'RAB',
    short: available !== null && pay > available,
  };
}

/** How the book lists a side: `newest` first, or best `price` first (buys highest, sells lowest; ties oldest first). */
export type BookSort = 'newest' | 'price';

export function sortBook<T extends Pick<OtcBookRecord, 'id' | 'price' | 'createdAt'>>(
  orders: readonly T[],
  side: OtcSide,
  sort: BookSort,
): T[] {
  const byNewest = (a: T, b: T) => b.createdAt.localeCompare(a.createdAt) || Number(b.id) - Number(a.id);
  if (sort === 'newest') return [...orders].sort(byNewest);
  const priceOf = (order: T) => moneyOrNull(order.price) ?? 0n;
  return [...orders].sort((a, b) => {
    const difference = side === 'buy' ? priceOf(b) - priceOf(a) : priceOf(a) - priceOf(b);
    if (difference !== 0n) return difference > 0n ? 1 : -1;
    return a.createdAt.localeCompare(b.createdAt) || Number(a.id) - Number(b.id);
  });
}

/** True when the owner may still cancel the order. */
export function isCancellable(order: Pick<OtcOrder, 'status'>): boolean {
  return order.status === 'pending_match';
}
