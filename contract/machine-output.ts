/**
 * Mining machines' arithmetic (docs/protocol.md section 22), shared by the server's
 * daily output job, which pays with it, and the client, which previews with it: both get the same
 * figures to the minor unit. Hash power (T) and the daily output per T (USDT) are exact decimals
 * read into integer fractions; amounts are integer minor units; nothing goes through a float.
 *
 * The rule: a holding of `quantity` machines of `hashPower` T earns, on each local day of its
 * term, floor(quantity × hashPower × dailyOutput) in minor units, so a whole term of `days` days
 * pays exactly days × that.
 */
import { MONEY_DECIMALS, formatMoney, minor, type Minor } from './money.js';

/** An exact decimal, numerator / denominator (`12.5` = 125 / 10). */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/** The most hash power one machine may have, in T. */
export const MAX_HASH_POWER = 1_000_000;
/** The most one T may earn in a day, in USDT. */
export const MAX_DAILY_OUTPUT = 1_000;
/** The most machines one buy or rent takes. */
export const MAX_QUANTITY = 100;
/** The most tickets one machine may cost. */
export const MAX_TICKET_PRICE = 10_000;
/** The longest term a machine may have (ten years). */
export const MAX_MACHINE_DAYS = 3650;

/** Hash power: above 0, at most 6 fraction digits, at most MAX_HASH_POWER ("12.5"). */
const HASH_POWER_PATTERN = /^(0|[1-9]\d{0,6})(\.\d{1,6})?$/;
/** Daily output per T: above 0, at most 10 fraction digits, at most MAX_DAILY_OUTPUT ("0.35"). */
const DAILY_OUTPUT_PATTERN = /^(0|[1-9]\d{0,3})(\.\d{1,10})?$/;

function fractionOf(text: string): Fraction {
  const [whole = '0', digits = ''] = text.split('.');
  const denominator = 10n ** BigInt(digits.length);
  return { numerator: BigInt(whole) * denominator + BigInt(digits || '0'), denominator };
}

function within(text: string, pattern: RegExp, max: number): boolean {
  if (!pattern.test(text)) return false;
  const { numerator, denominator } = fractionOf(text);
  return numerator > 0n && numerator <= BigInt(max) * denominator;
}

/** True for a machine's hash power in T: a plain decimal above 0 and at most 1,000,000, 6 decimals at most. */
export const isHashPower = (text: string): boolean => within(text, HASH_POWER_PATTERN, MAX_HASH_POWER);

/** True for a daily output per T in USDT: a plain decimal above 0 and at most 1000, 10 decimals at most. */
export const isDailyOutput = (text: string): boolean => within(text, DAILY_OUTPUT_PATTERN, MAX_DAILY_OUTPUT);

/** A plain decimal of at most 40 characters: digits, an optional point and digits. */
const PLAIN_DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * Reads a plain decimal ("12.5", "0.35") exactly; throws RangeError for anything else (a sign,
 * an exponent, a comma, over 40 characters). Pure.
 */
export function parseFraction(text: string): Fraction {
  if (text.length > 40 || !PLAIN_DECIMAL.test(text))
    throw new RangeError(`not a plain decimal: ${text.slice(0, 40)}`);
  return fractionOf(text);
}

/** A decimal in its shortest form ("12.50" -> "12.5", "3.0" -> "3"). Pure; throws as parseFraction. */
export function normalizeDecimal(text: string): string {
  const { numerator, denominator } = parseFraction(text);
  return decimalOf(numerator, denominator);
}

/** numerator / denominator (a power of ten) as a plain decimal, trailing zeros trimmed. */
function decimalOf(numerator: bigint, denominator: bigint): string {
  const scale = denominator.toString().length - 1;
  const whole = numerator / denominator;
  const digits = (numerator % denominator).toString().padStart(scale, '0').replace(/0+$/, '');
  return digits ? `${whole}.${digits}` : String(whole);
}

function assertQuantity(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
    throw new RangeError(`a quantity is a whole number from 1 to ${MAX_QUANTITY}`);
}

/** The hash power of `quantity` machines of `hashPower` T each, exactly ("12.5" × 3 = "37.5"). Pure. */
export function totalHashPower(hashPower: string, quantity: number): string {
  assertQuantity(quantity);
  const power = parseFraction(hashPower);
  return decimalOf(power.numerator * BigInt(quantity), power.denominator);
}

/** The sum of several exact decimals of T (machines' total hash power), exactly. Pure. */
export function sumHashPower(values: readonly string[]): string {
  let numerator = 0n;
  let denominator = 1n;
  for (const value of values) {
    const next = parseFraction(value);
    const common = next.denominator > denominator ? next.denominator : denominator;
    numerator = numerator * (common / denominator) + next.numerator * (common / next.denominator);
    denominator = common;
  }
  return decimalOf(numerator, denominator);
}

/**
 * One local day's output of `quantity` machines of `hashPower` T at `dailyOutput` USDT per T:
 * floor(quantity × hashPower × dailyOutput) in minor units (at most 10^11 USDT, far inside
 * Minor's range). Pure; throws RangeError for values the operators' schemas refuse.
 */
export function dayOutput(hashPower: string, quantity: number, dailyOutput: string): Minor {
  assertQuantity(quantity);
  if (!isHashPower(hashPower) || !isDailyOutput(dailyOutput))
    throw new RangeError('a machine has hash power and a daily output above 0');
  const power = parseFraction(hashPower);
  const output = parseFraction(dailyOutput);
  const scale = 10n ** BigInt(MONEY_DECIMALS);
  return minor(
    (BigInt(quantity) * power.numerator * output.numerator * scale) /
      (power.denominator * output.denominator),
  );
}

/**
 * What a holding earns over a whole term of `days` local days, as the job pays it: each day
 * `dayOutput`, so the total is days × that (the closed form the tests hold the job to). Pure.
 */
export function termOutput(
  hashPower: string,
  quantity: number,
  dailyOutput: string,
  days: number,
): { daily: Minor; total: Minor } {
  if (!Number.isInteger(days) || days < 0 || days > MAX_MACHINE_DAYS)
    throw new RangeError('days is a whole number from 0 to 3650');
  const daily = dayOutput(hashPower, quantity, dailyOutput);
  return { daily, total: minor(daily * BigInt(days)) };
}

/** What `quantity` machines at `price` each cost, or renting them for `days` days at `price` a day. Pure. */
export function costOf(price: Minor, quantity: number, days = 1): Minor {
  assertQuantity(quantity);
  if (!Number.isInteger(days) || days < 1 || days > MAX_MACHINE_DAYS)
    throw new RangeError('days is a whole number from 1 to 3650');
  return minor(price * BigInt(quantity) * BigInt(days));
}

/** A wire decimal string of one day's output (for previews and records). Pure. */
export const dayOutputText = (hashPower: string, quantity: number, dailyOutput: string): string =>
  formatMoney(dayOutput(hashPower, quantity, dailyOutput));
