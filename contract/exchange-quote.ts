/**
 * The RAB/USDT exchange's arithmetic (docs/protocol.md section 18), shared by the
 * server, which settles with it, and the client, which shows the live quote with it: both get
 * the same figures to the minor unit. Integer minor units only, never a float; every minor unit
 * that leaves one book reaches another, and rounding always goes toward the platform.
 */
import type { Asset } from './api/account.js';
import { MONEY_DECIMALS, minor, type Minor } from './money.js';

const SCALE = 10n ** BigInt(MONEY_DECIMALS);

export const EXCHANGE_DIRECTIONS = ['rab_to_usdt', 'usdt_to_rab'] as const;
export type ExchangeDirection = (typeof EXCHANGE_DIRECTIONS)[number];

/** What a direction gives and gets. */
export const ASSETS_OF: Record<ExchangeDirection, { assetIn: Asset; assetOut: Asset }> = {
  rab_to_usdt: { assetIn: 'RAB', assetOut: 'USDT' },
  usdt_to_rab: { assetIn: 'USDT', assetOut: 'RAB' },
};

/** An exact fee rate, numerator / denominator, from 0 (inclusive) to 1 (exclusive). */
export interface FeeRate {
  numerator: bigint;
  denominator: bigint;
}

const FEE_RATE_PATTERN = /^0(\.\d{1,18})?$/;

/** True for a fee rate written as a decimal from 0 to below 1 with at most 18 fraction digits ("0.002"). */
export const isFeeRate = (text: string): boolean => FEE_RATE_PATTERN.test(text);

/** Parses a decimal fee rate ("0.002") exactly; throws RangeError unless `isFeeRate(text)`. */
export function parseFeeRate(text: string): FeeRate {
  if (!isFeeRate(text)) throw new RangeError(`not a fee rate from 0 to below 1: ${text.slice(0, 40)}`);
  const fraction = text.split('.')[1] ?? '';
  return { numerator: BigInt(fraction || '0'), denominator: 10n ** BigInt(fraction.length) };
}

/**
 * One exchange's figures. `fee` and `rounding` are always USDT. `amountIn = ` what leaves the
 * customer, `amountOut` what reaches them (0: the amount is too small to buy a minor unit).
 * `usdtLeg` is the USDT crossing between the customer and the exchange inventory for the RAB:
 * for rab_to_usdt what the inventory pays out in all (`amountOut + fee + rounding`), for
 * usdt_to_rab what it receives (`amountIn - fee - rounding`).
 */
export interface ExchangeQuote {
  direction: ExchangeDirection;
  assetIn: Asset;
  amountIn: Minor;
  assetOut: Asset;
  amountOut: Minor;
  fee: Minor;
  rounding: Minor;
  usdtLeg: Minor;
}

const ceilDiv = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;

/**
 * The most one leg of an exchange may move, in minor units (10^12 whole units): far above any
 * real exchange, and inside the database's bigint whatever the price.
 */
export const EXCHANGE_LEG_MAX = 10n ** 18n;

/**
 * One direction's figures in minor units, before the bound: `outLeg` is the leg that leaves the
 * exchange's side (checked against EXCHANGE_LEG_MAX with the amount in), the rest as ExchangeQuote.
 */
interface ExchangeFigures {
  outLeg: bigint;
  amountOut: bigint;
  fee: bigint;
  rounding: bigint;
  usdtLeg: bigint;
}

/**
 * rab_to_usdt, A RAB: gross = A * P / 10^6 exactly (a fraction of a minor unit kept as a
 * rational); the customer gets floor(gross * (1 - r)), fee revenue floor(gross * r), the
 * inventory pays floor(gross), and the 0 or 1 minor unit left over goes to the rounding book.
 */
function rabToUsdt(
  amount: bigint,
  price: bigint,
  { numerator: rn, denominator: rd }: FeeRate,
): ExchangeFigures {
  // gross = amount * price / SCALE; every share below is floored from that exact rational.
  const grossTimesScale = amount * price;
  const usdtLeg = grossTimesScale / SCALE;
  const fee = (grossTimesScale * rn) / (SCALE * rd);
  const net = (grossTimesScale * (rd - rn)) / (SCALE * rd);
  return { outLeg: usdtLeg, amountOut: net, fee, rounding: usdtLeg - net - fee, usdtLeg };
}

/**
 * usdt_to_rab, U USDT: fee = floor(U * r); net = U - fee; the customer gets
 * floor(net * 10^6 / P) RAB, the inventory receives ceil(rabOut * P / 10^6) <= net USDT for
 * it, and the rest of net goes to the rounding book.
 */
function usdtToRab(
  amount: bigint,
  price: bigint,
  { numerator: rn, denominator: rd }: FeeRate,
): ExchangeFigures {
  const fee = (amount * rn) / rd;
  const net = amount - fee;
  const rabOut = (net * SCALE) / price;
  const used = ceilDiv(rabOut * price, SCALE);
  return { outLeg: rabOut, amountOut: rabOut, fee, rounding: net - used, usdtLeg: used };
}

/**
 * The figures of exchanging `amount` (minor units of the direction's asset in) at `price` (USDT
 * minor units per whole RAB) with fee rate `rate` (rabToUsdt and usdtToRab above), or null when
 * a leg would move more than EXCHANGE_LEG_MAX (too large to exchange). Pure; throws RangeError
 * for a price or amount not above 0.
 */
export function quoteExchange(
  direction: ExchangeDirection,
  amount: Minor,
  price: Minor,
  rate: FeeRate,
): ExchangeQuote | null {
  if (price <= 0n) throw new RangeError('no price: the exchange is closed');
  if (amount <= 0n) throw new RangeError('an exchange moves an amount above 0');
  const figures = (direction === 'rab_to_usdt' ? rabToUsdt : usdtToRab)(amount, price, rate);
  if (amount > EXCHANGE_LEG_MAX || figures.outLeg > EXCHANGE_LEG_MAX) return null;
  return {
    direction,
    ...ASSETS_OF[direction],
    amountIn: amount,
    amountOut: minor(figures.amountOut),
    fee: minor(figures.fee),
    rounding: minor(figures.rounding),
    usdtLeg: minor(figures.usdtLeg),
  };
}
