/**
 * Money: integer minor units inside (a branded bigint), decimal strings on the wire.
 * USDT and RAB both carry 6 decimals. This module is the only place that converts.
 */
import { AMOUNT_PATTERN } from './validation.js';

declare const minorBrand: unique symbol;
/** An amount in minor units (1 USDT = 1_000_000). Never mixes with `number`. */
export type Minor = bigint & { readonly [minorBrand]: true };

export const MONEY_DECIMALS = 6;
const SCALE = 10n ** BigInt(MONEY_DECIMALS);
/** Largest amount the wire accepts: 10^15 whole units, far above any real balance and inside bigint(64). */
export const MAX_MINOR = 10n ** 15n * SCALE;
const WIRE_PATTERN = /^-?(0|[1-9]\d*)(\.\d{1,6})?$/;

export class MoneyFormatError extends Error {}

/** Brands a bigint as minor units; throws MoneyFormatError outside +/- MAX_MINOR. */
export function minor(value: bigint): Minor {
  if (value > MAX_MINOR || value < -MAX_MINOR) throw new MoneyFormatError('amount out of range');
  return value as Minor; // the brand is the point of this function
}

/**
 * Parses a wire decimal string (at most 6 fraction digits, plain notation) to minor units.
 * Exact: never goes through a float. Throws MoneyFormatError on anything else.
 */
export function parseMoney(text: string): Minor {
  if (!WIRE_PATTERN.test(text)) throw new MoneyFormatError(`not a decimal amount: ${text.slice(0, 40)}`);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const value = BigInt(whole) * SCALE + BigInt(fraction.padEnd(MONEY_DECIMALS, '0'));
  return minor(negative ? -value : value);
}

/** Parses an amount a user typed (at most 2 decimals, spec section 5); throws MoneyFormatError otherwise. */
export function parseUserAmount(text: string): Minor {
  if (!AMOUNT_PATTERN.test(text)) throw new MoneyFormatError('at most 2 decimals');
  return parseMoney(text);
}

/** Formats minor units as the wire's decimal string: plain notation, trailing zeros trimmed ("10", "10.5"). */
export function formatMoney(value: Minor): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / SCALE;
  const fraction = (magnitude % SCALE).toString().padStart(MONEY_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The wire's decimal string of a count of minor units read as a plain bigint (a database column). */
export function moneyText(value: bigint): string {
  return formatMoney(minor(value));
}

/**
 * The value in USDT of `amount` of an asset priced at `priceUsdt` (both minor units), rounded
 * down to the minor unit: a customer is never shown more than the exact product.
 */
export function valueAt(amount: Minor, priceUsdt: Minor): Minor {
  return minor((amount * priceUsdt) / SCALE);
}

/**
 * A token amount in the token's own units (`decimals` per whole unit, 18 for BEP20 USDT) as
 * minor units, truncated, and the truncated remainder in token units (the dust). Exact.
 */
export function fromTokenUnits(value: bigint, decimals: number): { amount: Minor; dust: bigint } {
  if (value < 0n) throw new MoneyFormatError('a token amount cannot be negative');
  if (decimals <= MONEY_DECIMALS) {
    return { amount: minor(value * 10n ** BigInt(MONEY_DECIMALS - decimals)), dust: 0n };
  }
  const unit = 10n ** BigInt(decimals - MONEY_DECIMALS);
  return { amount: minor(value / unit), dust: value % unit };
}

/**
 * Minor units as a token amount in the token's own units (the inverse of fromTokenUnits). Exact
 * for a token of at least 6 decimals; throws for fewer (the amount could not be sent whole).
 */
export function toTokenUnits(amount: Minor, decimals: number): bigint {
  if (amount < 0n) throw new MoneyFormatError('a token amount cannot be negative');
  if (decimals < MONEY_DECIMALS) throw new MoneyFormatError('a token of fewer than 6 decimals');
  return amount * 10n ** BigInt(decimals - MONEY_DECIMALS);
}
