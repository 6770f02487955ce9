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

  test.each([
    ['0.002', '0.2%'],
    ['0.003', '0.3%'],
    ['0.0035', '0.35%'],
    ['0.0015', '0.15%'],
    ['0.01', '1%'],
    ['0.125', '12.5%'],
    ['0', '0%'],
    ['0.000001', '0.0001%'],
    ['0.000000000001', '0.0000000001%'],
  ])('the rate %s (a fee or a daily rate, below 1) is %s', (rate, percent) => {
    expect(ratePercent(rate)).toBe(percent);
  });

  test('what is not a rate below 1 is shown as it came', () => {
    expect(ratePercent('1.5')).toBe('1.5');
    expect(ratePercent('2%')).toBe('2%');
  });
});

describe('an amount as shown', () => {
  test('exact, trailing zeros dropped; a malformed one as it came', () => {
    expect(shownAmount('19.960000')).toBe('19.96');
    expect(shownAmount('1.500000')).toBe('1.5');
    expect(shownAmount('0.999999')).toBe('0.999999');
    expect(shownAmount('12345678901.000001')).toBe('12345678901.000001');
    expect(shownAmount('100')).toBe('100');
    expect(shownAmount('1e3')).toBe('1e3');
    expect(shownAmount('n/a')).toBe('n/a');
  });
});
