/**
 * Mining machines' arithmetic without a database (contract/machine-output.ts): a day's
 * output is floor(quantity × hashPower × dailyOutput) to the minor unit, computed exactly from
 * decimal strings (checked against an independent integer oracle over random figures), a whole
 * term is days × that (the closed form), hash power sums exactly, and what the operators'
 * schemas refuse is refused here too.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  costOf,
  dayOutput,
  isDailyOutput,
  isHashPower,
  normalizeDecimal,
  sumHashPower,
  termOutput,
  totalHashPower,
} from '../../contract/machine-output.js';
import { parseMoney } from '../../contract/money.js';

/** `units / 10^scale` written as a plain decimal, with `pad` extra trailing zeros (exactness must not depend on them). */
function decimal(units: bigint, scale: number, pad = 0): string {
  const digits = units.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale) + '0'.repeat(pad);
  return fraction ? `${whole}.${fraction}` : whole;
}

const hashPowerUnits = fc.bigInt({ min: 1n, max: 1_000_000n * 1_000_000n }); // millionths of a T
const outputUnits = fc.bigInt({ min: 1n, max: 1_000n * 10_000_000_000n }); // 10^-10 USDT

describe('a day’s output', () => {
  test('is floor(quantity × hashPower × dailyOutput) in minor units, exactly, for random figures (property)', () => {
    fc.assert(
      fc.property(hashPowerUnits, outputUnits, fc.integer({ min: 1, max: 100 }), (hp, out, quantity) => {
        // Oracle: hp / 10^6 T × out / 10^10 USDT × 10^6 minor units = hp × out / 10^10.
        const expected = (BigInt(quantity) * hp * out) / 10_000_000_000n;
        expect(dayOutput(decimal(hp, 6), quantity, decimal(out, 10))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  test('the worked figures: 10 T at 0.36 is 3.6 USDT a day; 120.5 T at 0.0755 is 9.09775; a sub-minor remainder is dropped', () => {
    expect(dayOutput('10', 1, '0.36')).toBe(parseMoney('3.6'));
    expect(dayOutput('10', 2, '0.36')).toBe(parseMoney('7.2'));
    expect(dayOutput('120.5', 1, '0.0755')).toBe(parseMoney('9.09775'));
    expect(dayOutput('3.3', 7, '0.0333333')).toBe(769_999n); // 0.76999923 USDT
    expect(dayOutput('0.000001', 1, '0.0000000001')).toBe(0n);
  });

  test('a whole term of `days` days pays exactly days × one day’s output (the closed form)', () => {
    fc.assert(
      fc.property(
        hashPowerUnits,
        outputUnits,
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 3650 }),
        (hp, out, quantity, days) => {
          const { daily, total } = termOutput(decimal(hp, 6), quantity, decimal(out, 10), days);
          let summed = 0n;
          for (let day = 0; day < Math.min(days, 40); day += 1) summed += daily;
          expect(summed).toBe(daily * BigInt(Math.min(days, 40)));
          expect(total).toBe(daily * BigInt(days));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('trailing zeros change nothing: "12.50" T is "12.5" T', () => {
    fc.assert(
      fc.property(hashPowerUnits, fc.integer({ min: 1, max: 3 }), (hp, pad) => {
        const normal = normalizeDecimal(decimal(hp, 6, pad));
        expect(normal).toBe(normalizeDecimal(decimal(hp, 6)));
        expect(normal).not.toMatch(/\.\d*0$/);
        expect(dayOutput(normal, 3, '0.5')).toBe(dayOutput(decimal(hp, 6), 3, '0.5'));
      }),
    );
    expect(normalizeDecimal('12.50')).toBe('12.5');
    expect(normalizeDecimal('3.000')).toBe('3');
  });
});

describe('hash power', () => {
  test('a holding’s hash power is quantity × hashPower exactly, and sums of holdings are exact', () => {
    expect(totalHashPower('12.5', 3)).toBe('37.5');
    expect(totalHashPower('0.1', 3)).toBe('0.3');
    expect(sumHashPower(['0.1', '0.2'])).toBe('0.3');
    expect(sumHashPower([])).toBe('0');
    expect(sumHashPower(['120.5', '20', '0.000001'])).toBe('140.500001');
  });

  test('what the operators’ schemas refuse is refused: 0, negatives, exponents, too many decimals, too large', () => {
    for (const bad of ['0', '-1', '1e3', '1.0000001', '1000001', '', ' 1', '1,5', '.5'])
      expect(isHashPower(bad), bad).toBe(false);
    for (const good of ['1', '0.000001', '1000000', '12.5']) expect(isHashPower(good), good).toBe(true);
    for (const bad of ['0', '1001', '0.00000000001', '-0.1']) expect(isDailyOutput(bad), bad).toBe(false);
    for (const good of ['0.0000000001', '1000', '0.36']) expect(isDailyOutput(good), good).toBe(true);
    expect(() => dayOutput('10', 0, '0.36')).toThrow(RangeError);
    expect(() => dayOutput('10', 101, '0.36')).toThrow(RangeError);
  });
});

describe('costs', () => {
  test('a buy costs price × quantity; a rent price × days × quantity', () => {
    expect(costOf(parseMoney('100'), 2)).toBe(parseMoney('200'));
    expect(costOf(parseMoney('3.5'), 2, 4)).toBe(parseMoney('28'));
    expect(() => costOf(parseMoney('1'), 1, 0)).toThrow(RangeError);
  });
});
