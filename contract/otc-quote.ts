/**
 * The OTC market's arithmetic (docs/protocol.md section 24), shared by the server,
 * which settles with it, and the client, which shows totals with it. Integer minor units only.
 *
 * The USDT of a quantity is floored: `usdtOf(q, P) = floor(q x P / 10^6)`. An order keeps the
 * USDT of what has been filled so far; each fill moves the difference `usdtOf(filled + v) -
 * usdtOf(filled)`, so the fills of an order add up to `usdtOf(volume)` exactly, whatever the
 * parts. The maker's fee is likewise `floor(usdtFilled x makerRate)` so far (each fill pays the
 * difference), the taker's `floor(usdt of the fill x takerRate)`. A buy order's escrow,
 * `usdtOf(volume) + floor(usdtOf(volume) x makerRate)`, is therefore exactly what its fills post
 * when it is filled whole; a cancel releases the rest.
 */
import type { FeeRate } from './exchange-quote.js';
import { MONEY_DECIMALS, minor, type Minor } from './money.js';

const SCALE = 10n ** BigInt(MONEY_DECIMALS);

export const OTC_SIDES = ['buy', 'sell'] as const;
export type OtcSide = (typeof OTC_SIDES)[number];

export const OTC_STATUSES = ['pending_match', 'match_ended', 'cancelled', 'completed'] as const;
export type OtcStatus = (typeof OTC_STATUSES)[number];

/** The most an order's escrow or one leg may move, in minor units (10^12 whole units). */
export const OTC_LEG_MAX = 10n ** 18n;

/** The USDT (minor units) of `quantity` RAB minor units at `price` USDT minor units per whole RAB, floored. */
export const usdtOf = (quantity: bigint, price: bigint): Minor => minor((quantity * price) / SCALE);

/** `floor(amount x rate)`. */
export const feeOf = (amount: bigint, rate: FeeRate): Minor =>
  minor((amount * rate.numerator) / rate.denominator);

/** What listing an order holds: for a buy, USDT for the whole volume plus the maker's fee on it; for a sell, the RAB. */
export function escrowOf(side: OtcSide, volume: bigint, price: bigint, makerRate: FeeRate): Minor {
  if (side === 'sell') return minor(volume);
  const usdt = usdtOf(volume, price);
  return minor(usdt + feeOf(usdt, makerRate));
}

/** What one fill of `volume` moves, given what the order has filled so far. */
export interface OtcFillFigures {
  volume: Minor;
  /** USDT from buyer to seller. */
  usdt: Minor;
  makerFee: Minor;
  takerFee: Minor;
  /** The order's totals after the fill. */
  filledAfter: Minor;
  usdtFilledAfter: Minor;
  makerFeeFilledAfter: Minor;
}

/** The figures of filling `volume` more of an order (pure; the caller checks `volume` fits what remains). */
export function fillOf(
  order: { price: bigint; filled: bigint; usdtFilled: bigint; makerFeeFilled: bigint },
  volume: bigint,
  makerRate: FeeRate,
  takerRate: FeeRate,
): OtcFillFigures {
  const filledAfter = order.filled + volume;
  const usdtFilledAfter = usdtOf(filledAfter, order.price);
  const makerFeeFilledAfter = feeOf(usdtFilledAfter, makerRate);
  const usdt = usdtFilledAfter - order.usdtFilled;
  return {
    volume: minor(volume),
    usdt: minor(usdt),
    makerFee: minor(makerFeeFilledAfter - order.makerFeeFilled),
    takerFee: feeOf(usdt, takerRate),
    filledAfter: minor(filledAfter),
    usdtFilledAfter,
    makerFeeFilledAfter,
  };
}

/**
 * True when `price` lies within `guide x (1 +/- band)`, edges included, exactly (no rounding):
 * `guide x (1 - band) <= price <= guide x (1 + band)`.
 */
export function withinBand(price: bigint, guide: bigint, band: FeeRate): boolean {
  const scaled = price * band.denominator;
  return (
    scaled >= guide * (band.denominator - band.numerator) &&
    scaled <= guide * (band.denominator + band.numerator)
  );
}

/** The lowest and highest prices in the band (minor units), rounded inward so both are allowed. */
export function bandOf(guide: bigint, band: FeeRate): { low: Minor; high: Minor } {
  const lowScaled = guide * (band.denominator - band.numerator);
  const low = (lowScaled + band.denominator - 1n) / band.denominator;
  const high = (guide * (band.denominator + band.numerator)) / band.denominator;
  return { low: minor(low), high: minor(high) };
}

/** filled / volume as a decimal fraction floored to 4 digits ("0.3333", "1"). */
export function completionRate(filled: bigint, volume: bigint): string {
  if (volume <= 0n) return '0';
  const tenThousandths = (filled * 10_000n) / volume;
  const whole = tenThousandths / 10_000n;
  const fraction = (tenThousandths % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
