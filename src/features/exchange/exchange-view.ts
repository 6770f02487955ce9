/**
 * What the exchange page shows: the live quote of what the typed amount gets at the
 * price version shown, computed with the server's own integer rule (contract/exchange-quote.ts),
 * so the figure on screen is the figure the ledger will move; the fee rate as a percentage; which
 * price is the newer one; how a settled command reads. Pure; no zod, no IndexedDB.
 */
import type { Asset } from '../../../contract/api/account.js';
import type { ExchangeIndexData } from '../../../contract/api/exchange.js';
import {
  ASSETS_OF,
  EXCHANGE_DIRECTIONS,
  isFeeRate,
  parseFeeRate,
  quoteExchange,
  type ExchangeDirection,
} from '../../../contract/exchange-quote.js';
import {
  formatMoney,
  MoneyFormatError,
  parseMoney,
  parseUserAmount,
  type Minor,
} from '../../../contract/money.js';
import { ratePercent, shownAmount } from '../../ui/amounts.js';

export { ratePercent, shownAmount };

export { ASSETS_OF, EXCHANGE_DIRECTIONS, type ExchangeDirection };

/** True when `value` is one of the two directions (a radio value read back from the page). */
export function isDirection(value: string): value is ExchangeDirection {
  return EXCHANGE_DIRECTIONS.some((direction) => direction === value);
}

/** What a quote needs of /api/v1/exchange/index. */
export type ExchangeTerms = Pick<
  ExchangeIndexData,
  'price' | 'priceVersion' | 'open' | 'feeRate' | 'minimum' | 'maximum'
>;

/**
 * The quote for the amount typed:
 * - `closed`: no price (or no terms yet): nothing can be quoted;
 * - `empty`: nothing typed yet;
 * - `invalid`: not an amount above 0 with at most 2 decimals;
 * - `out_of_bounds`: outside the minimum and maximum (in the asset given);
 * - `too_small`: it would receive nothing at this price; `too_large`: a leg beyond 10^12 units;
 * - `ok`: the figures as display strings; `short` when it is more than the available balance
 *   known (the server then answers 470), `rounding` null when nothing is kept by rounding.
 */
export type QuoteView =
  | { kind: 'closed' }
  | { kind: 'empty' }
  | { kind: 'invalid' }
  | { kind: 'out_of_bounds'; minimum: string; maximum: string; asset: Asset }
  | { kind: 'too_small' }
  | { kind: 'too_large' }
  | {
      kind: 'ok';
      pay: string;
      payAsset: Asset;
      receive: string;
      receiveAsset: Asset;
      /** Always USDT. */
      fee: string;
      rounding: string | null;
      short: boolean;
    };

function parseOrNull(text: string, parse: (text: string) => Minor): Minor | null {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof MoneyFormatError || error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * The quote of `amountText` (as typed) in `direction` under `terms`, with `available` the
 * balance of the asset given (a wire decimal, null when unknown). Pure.
 */
export function quoteView(
  direction: ExchangeDirection,
  amountText: string,
  terms: ExchangeTerms | null,
  available: string | null,
): QuoteView {
  if (terms === null || !terms.open || terms.priceVersion === null || !isFeeRate(terms.feeRate))
    return { kind: 'closed' };
  const price = parseOrNull(terms.price, parseMoney);
  if (price === null || price <= 0n) return { kind: 'closed' };
  const typed = amountText.trim();
  if (typed === '') return { kind: 'empty' };
  const amount = parseOrNull(typed, parseUserAmount);
  if (amount === null || amount <= 0n) return { kind: 'invalid' };
  const { assetIn, assetOut } = ASSETS_OF[direction];
  const minimum = parseOrNull(terms.minimum, parseMoney);
  const maximum = parseOrNull(terms.maximum, parseMoney);
  if ((minimum !== null && amount < minimum) || (maximum !== null && amount > maximum))
    return { kind: 'out_of_bounds', minimum: terms.minimum, maximum: terms.maximum, asset: assetIn };
  const quote = quoteExchange(direction, amount, price, parseFeeRate(terms.feeRate));
  if (quote === null) return { kind: 'too_large' };
  if (quote.amountOut <= 0n) return { kind: 'too_small' };
  const balance = available === null ? null : parseOrNull(available, parseMoney);
  return {
    kind: 'ok',
    pay: formatMoney(quote.amountIn),
    payAsset: assetIn,
    receive: formatMoney(quote.amountOut),
    receiveAsset: assetOut,
    fee: formatMoney(quote.fee),
    rounding: quote.rounding > 0n ? formatMoney(quote.rounding) : null,
    short: balance !== null && amount > balance,
  };
}

/** The newer of two price versions (digit strings; null: none), so a pulled price change is noticed. Pure. */
export function newerVersion(a: string | null | undefined, b: string | null | undefined): string | null {
  if (a == null || !/^\d+$/.test(a)) return b != null && /^\d+$/.test(b) ? b : null;
  if (b == null || !/^\d+$/.test(b)) return a;
  return BigInt(b) > BigInt(a) ? b : a;
}

export { pricedOutcome as commandOutcome } from '../outbox/command-outcome.js';
