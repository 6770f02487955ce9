/** Money is integer minor units inside and decimal strings on the wire (ARCHITECTURE.md, CONTRACT.md "Formats"). */
import { describe, expect, test } from 'vitest';
import {
  formatMoney,
  MAX_MINOR,
  minor,
  MoneyFormatError,
  parseMoney,
  parseUserAmount,
} from '../../contract/money.js';

describe('money', () => {
  test.each([
    ['10', 10_000_000n],
    ['10.5', 10_500_000n],
    ['0.000001', 1n],
    ['0', 0n],
    ['-3.25', -3_250_000n],
    ['123456789.123456', 123_456_789_123_456n],
  ])('the wire decimal %s is %s minor units, exactly', (text, value) => {
    expect(parseMoney(text)).toBe(value);
  });

  test.each([
    [10_000_000n, '10'],
    [10_500_000n, '10.5'],
    [1n, '0.000001'],
    [0n, '0'],
    [-1_230_000n, '-1.23'],
  ])('%s minor units are written in plain notation with trailing zeros trimmed: %s', (value, text) => {
    expect(formatMoney(minor(value))).toBe(text);
  });

  test.each(['1e3', '0.0000001', '01', '.5', '5.', '', ' 1', '1,5', 'NaN', 'Infinity', '0x10', '--1'])(
    '%j is not a wire amount',
    (text) => {
      expect(() => parseMoney(text)).toThrow(MoneyFormatError);
    },
  );

  test('user-entered amounts allow at most 2 decimals (spec section 5)', () => {
    expect(parseUserAmount('12.34')).toBe(12_340_000n);
    expect(() => parseUserAmount('12.345')).toThrow(MoneyFormatError);
    expect(() => parseUserAmount('-1')).toThrow(MoneyFormatError);
  });

  test('amounts beyond the safe range are refused, never wrapped or rounded', () => {
    expect(() => minor(MAX_MINOR + 1n)).toThrow(MoneyFormatError);
    expect(() => parseMoney('1000000000000000.000001')).toThrow(MoneyFormatError);
    expect(formatMoney(parseMoney('999999999999999.999999'))).toBe('999999999999999.999999');
  });

  test('a round trip through the wire never changes an amount (no float anywhere)', () => {
    for (const value of [1n, 7n, 100_000n, 999_999n, 1_000_001n, 123_456_789_012n, 2n ** 53n + 1n]) {
      expect(parseMoney(formatMoney(minor(value)))).toBe(value);
    }
    expect(formatMoney((parseMoney('0.1') + parseMoney('0.2')) as ReturnType<typeof minor>)).toBe('0.3'); // sum of brands is a bigint
  });
});
