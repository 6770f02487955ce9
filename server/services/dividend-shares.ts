/**
 * How a dividend is shared (docs/protocol.md section 21). Pure and exact: integer minor
 * units and an exact rate, no float anywhere.
 * - `total` mode: account i gets floor(total × b_i / B), B = Σ b (each eligible account's valid
 *   hosting balance at the day's end); the residue total − Σ shares is in [0, number of accounts)
 *   and goes to the platform's rounding book, so shares + residue = total exactly.
 * - `rate` mode: account i gets floor(b_i × rate); the total is Σ shares and the residue is 0 (what
 *   the floors leave out was never published).
 */
import type { Rate } from '../../contract/hosting-interest.js';

export interface Shares {
  /** One per balance, in the same order; 0 where the share floors to nothing. */
  shares: bigint[];
  /** Σ shares. */
  distributed: bigint;
  /** What was published and not shared: total − distributed (0 in rate mode). */
  residue: bigint;
  /** The published total: `total` itself, or Σ shares in rate mode. */
  total: bigint;
}

/** Shares `total` pro rata by `balances` (each above 0). Throws RangeError for a total below 0 or no balance. */
export function shareTotal(total: bigint, balances: readonly bigint[]): Shares {
  if (total < 0n) throw new RangeError('a dividend total is at least 0');
  if (balances.length === 0 || balances.some((balance) => balance <= 0n))
    throw new RangeError('shares need balances above 0');
  const sum = balances.reduce((acc, balance) => acc + balance, 0n);
  const shares = balances.map((balance) => (total * balance) / sum);
  const distributed = shares.reduce((acc, share) => acc + share, 0n);
  return { shares, distributed, residue: total - distributed, total };
}

/** Pays `rate` of each balance, floored. Throws RangeError for a balance below 0. */
export function shareByRate(rate: Rate, balances: readonly bigint[]): Shares {
  if (balances.some((balance) => balance < 0n)) throw new RangeError('balances are at least 0');
  const shares = balances.map((balance) => (balance * rate.numerator) / rate.denominator);
  const distributed = shares.reduce((acc, share) => acc + share, 0n);
  return { shares, distributed, residue: 0n, total: distributed };
}
