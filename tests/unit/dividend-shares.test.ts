/**
 * How an AI dividend is shared, property-style over random balances and totals: the
 * floored shares and the residue add up to the published total exactly, the residue is below one
 * minor unit per account, and nobody gets more than the exact pro rata figure (or less than it
 * minus one minor unit). By rate: each share is floor(balance × rate), with nothing left over.
 */
import { describe, expect, test } from 'vitest';
import { parseRate } from '../../contract/hosting-interest.js';
import { shareByRate, shareTotal } from '../../server/services/dividend-shares.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  /** A bigint from 0 to below 10^digits, with a random number of digits up to `digits`. */
  const big = (digits: number) => {
    const length = 1 + Math.floor(next() * digits);
    let text = '';
    for (let index = 0; index < length; index += 1) text += String(Math.floor(next() * 10));
    return BigInt(text);
  };
  return { next, big };
}

const MIN_VALID = 500_000_000n; // 500 USDT in minor units

describe('a dividend total shared pro rata by valid hosting balances', () => {
  test('shares + residue = the published total, exactly, over 2000 random cases', () => {
    const { next, big } = random(12);
    for (let round = 0; round < 2000; round += 1) {
      const count = 1 + Math.floor(next() * 40);
      const balances = Array.from({ length: count }, () => MIN_VALID + big(14));
      const total = big(16);
      const { shares, distributed, residue, total: published } = shareTotal(total, balances);
      const sum = balances.reduce((acc, balance) => acc + balance, 0n);
      expect(published).toBe(total);
      expect(shares.reduce((acc, share) => acc + share, 0n)).toBe(distributed);
      expect(distributed + residue).toBe(total);
      // The residue is what the floors left: under one minor unit per account.
      expect(residue >= 0n && residue < BigInt(count)).toBe(true);
      shares.forEach((share, index) => {
        const balance = balances[index] ?? 0n;
        // floor: share ≤ total × balance / sum < share + 1
        expect(share * sum <= total * balance).toBe(true);
        expect((share + 1n) * sum > total * balance).toBe(true);
      });
    }
  });

  test('equal balances share equally; the residue is what cannot be split to the minor unit', () => {
    const result = shareTotal(1_000_000n, [MIN_VALID, MIN_VALID, MIN_VALID]);
    expect(result.shares).toEqual([333_333n, 333_333n, 333_333n]);
    expect(result.residue).toBe(1n);
  });

  test('a larger balance gets the larger share, in proportion', () => {
    const result = shareTotal(300_000_000n, [500_000_000n, 1_000_000_000n]);
    expect(result.shares).toEqual([100_000_000n, 200_000_000n]);
    expect(result.residue).toBe(0n);
  });

  test('no balance, or a balance of 0, is refused rather than divided by', () => {
    expect(() => shareTotal(1n, [])).toThrow(RangeError);
    expect(() => shareTotal(1n, [0n])).toThrow(RangeError);
    expect(() => shareTotal(-1n, [MIN_VALID])).toThrow(RangeError);
  });
});

describe('a dividend at a rate of each valid hosting balance', () => {
  test('each share is floor(balance × rate); the total is their sum, nothing left over', () => {
    const { next, big } = random(34);
    for (let round = 0; round < 500; round += 1) {
      const digits = 1 + Math.floor(next() * 8);
      const rateText = `0.${String(big(digits)).padStart(digits, '0')}`;
      const rate = parseRate(rateText);
      const balances = Array.from({ length: 1 + Math.floor(next() * 20) }, () => MIN_VALID + big(12));
      const result = shareByRate(rate, balances);
      balances.forEach((balance, index) => {
        expect(result.shares[index]).toBe((balance * rate.numerator) / rate.denominator);
      });
      expect(result.residue).toBe(0n);
      expect(result.total).toBe(result.distributed);
    }
  });

  test('0.001 of 1234.567891 USDT is 1.234567 USDT (floored to the minor unit)', () => {
    expect(shareByRate(parseRate('0.001'), [1_234_567_891n]).shares).toEqual([1_234_567n]);
  });
});
