/**
 * How every money page writes amounts and rates (src/ui/amounts.ts): exact, from the digits, never
 * through a float. The fee and hosting rates, the team's rates, an OTC order's completion and the
 * reserves' ratio are all written by these.
 */
import { describe, expect, test } from 'vitest';
import { percentOf, percentText, ratePercent, shownAmount } from '../../src/ui/amounts.js';

describe('a decimal as a percent', () => {
  test.each([
    ['1.0234', '102.34'],
    ['1', '100'],
    ['0.5', '50'],
    ['0.025', '2.5'],
    ['0.0001', '0.01'],
    ['0.9999', '99.99'],
    ['0.123456789', '12.3456789'],
    ['12.3456', '1234.56'],
    ['0', '0'],
  ])('%s is %s: the decimal point moved two places', (decimal, percent) => {
    expect(percentOf(decimal)).toBe(percent);
  });

  test('what is not a non-negative decimal has no percent', () => {
    for (const text of ['', '-0.5', '1e-3', '0.5%', '.5', '1.', 'n/a']) expect(percentOf(text)).toBeNull();
  });

  test("with its sign, as an OTC order's completion reads; other text as it came", () => {
    expect(percentText('0.3333')).toBe('33.33%');
    expect(percentText('0.25')).toBe('25%');
    expect(percentText('1')).toBe('100%');
    expect(percentText('0')).toBe('0%');
    expect(percentText('n/a')).toBe('n/a');
  });

  test('a fee rate (below 1) as an exact percentage; what is not one as it came', () => {
    expect(ratePercent('0.002')).toBe('0.2%');
    expect(ratePercent('0.0015')).toBe('0.15%');
    expect(ratePercent('0.000001')).toBe('0.0001%');
    expect(ratePercent('1.5')).toBe('1.5');
  });
});

describe('an amount as shown', () => {
  test('exact, without trailing zeros; what is not an amount as it came', () => {
    expect(shownAmount('19.960000')).toBe('19.96');
    expect(shownAmount('100')).toBe('100');
    expect(shownAmount('abc')).toBe('abc');
  });
});
