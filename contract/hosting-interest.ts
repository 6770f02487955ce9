/**
 * Hosting interest's arithmetic (docs/protocol.md section 20), shared by the server's
 * daily job, which pays with it, and the client, which previews earnings with it: both get the
 * same figures to the minor unit. Rates are exact decimals read into integer fractions; amounts
 * are integer minor units; nothing goes through a float.
 *
 * The rule: an order earns for each local day it is hosted on (after its creation day)
 *   floor(Σ principal_i × minutes_i × rate / minutes of that day)
 * where principal_i was hosted for minutes_i of the day. A day with one principal throughout is
 * floor(principal × rate), whatever the day's length (23 or 25 hours on a DST change).
 */
import { MIN_VALID_HOSTING_USD } from './constants.js';
import { minor, parseMoney, type Minor } from './money.js';

/** An exact rate, numerator / denominator (`0.0035` = 35 / 10000). */
export interface Rate {
  numerator: bigint;
  denominator: bigint;
}

/** At most 12 fraction digits: far finer than any product's rate, and small enough for bigint sums. */
const RATE_PATTERN = /^0(\.\d{1,12})?$/;

/** True for a rate written as a decimal from 0 (inclusive) to 1 (exclusive), e.g. "0.0035". */
export const isRate = (text: string): boolean => RATE_PATTERN.test(text);

/** True for a daily rate: a rate above 0 (a product that pays nothing is refused). */
export const isDailyRate = (text: string): boolean => isRate(text) && /[1-9]/.test(text);

/** Parses a decimal rate ("0.0035") exactly; throws RangeError unless `isRate(text)`. */
export function parseRate(text: string): Rate {
  if (!isRate(text)) throw new RangeError(`not a rate from 0 to below 1: ${text.slice(0, 40)}`);
  const fraction = text.split('.')[1] ?? '';
  return { numerator: BigInt(fraction || '0'), denominator: 10n ** BigInt(fraction.length) };
}

/** A rate in its shortest decimal form ("0.00350" -> "0.0035", "0.0" -> "0"). Pure. */
export function normalizeRate(text: string): string {
  const trimmed = parseRate(text).numerator === 0n ? '0' : text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

/** floor(amount × rate) in minor units: one full day's interest, or a penalty. Pure. */
export function applyRate(amount: Minor, rate: Rate): Minor {
  if (amount < 0n) throw new RangeError('a rate applies to an amount of at least 0');
  return minor((amount * rate.numerator) / rate.denominator);
}

/** One stretch of a day during which the principal stayed the same. */
export interface PrincipalSpan {
  principal: Minor;
  minutes: number;
}

/** Σ principal × minutes over a day's spans (minor units × minutes; may pass 2^63, so a bigint). */
export function principalMinutesOf(spans: readonly PrincipalSpan[]): bigint {
  let total = 0n;
  for (const span of spans) {
    if (span.principal < 0n || !Number.isInteger(span.minutes) || span.minutes < 0)
      throw new RangeError('a span has a principal and minutes of at least 0');
    total += span.principal * BigInt(span.minutes);
  }
  return total;
}

/**
 * One local day's interest: floor(principalMinutes × rate / minutesOfDay), where
 * principalMinutes = Σ principal × minutes hosted that day. Pure; throws RangeError for a day of
 * no minutes.
 */
export function dayInterest(principalMinutes: bigint, minutesOfDay: number, rate: Rate): Minor {
  if (!Number.isInteger(minutesOfDay) || minutesOfDay <= 0) throw new RangeError('a day has minutes');
  if (principalMinutes < 0n) throw new RangeError('principal minutes are at least 0');
  return minor((principalMinutes * rate.numerator) / (rate.denominator * BigInt(minutesOfDay)));
}

/**
 * What an order of `amount` held for its whole term earns, as the job will pay it: each of the
 * `days` interest days pays floor(amount × rate), so the total is days × that. Pure.
 */
export function termInterest(amount: Minor, rate: Rate, days: number): { daily: Minor; total: Minor } {
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days is a whole number of at least 0');
  const daily = applyRate(amount, rate);
  return { daily, total: minor(daily * BigInt(days)) };
}

/** The hosting balance from which an account counts as valid hosting (spec sections 5 and 9). */
export const MIN_VALID_HOSTING: Minor = parseMoney(MIN_VALID_HOSTING_USD);

/**
 * Whether an account's hosting balance (minor units) counts as valid hosting: at least 500 USD
 * (500.00 does, 499.99 does not). Pure.
 */
export function isValidHosting(hostingMinor: bigint): boolean {
  return hostingMinor >= MIN_VALID_HOSTING;
}
