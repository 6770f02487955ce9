/**
 * The exchange's one integer rule (contract/exchange-quote.ts), shared by the server's
 * settlement and the client's live quote: exact figures, every minor unit accounted for, rounding
 * toward the platform; and its configuration (COFFER_EXCHANGE_*).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EXCHANGE_LEG_MAX, isFeeRate, parseFeeRate, quoteExchange } from '../../contract/exchange-quote.js';
import { minor, parseMoney } from '../../contract/money.js';
import { ConfigError, loadConfig } from '../../server/config.js';

const rate = parseFeeRate('0.002');
const money = (text: string) => parseMoney(text);

describe('the exchange quote', () => {
  test('fee rates are exact decimals from 0 to below 1', () => {
    expect(parseFeeRate('0.002')).toEqual({ numerator: 2n, denominator: 1000n });
    expect(parseFeeRate('0')).toEqual({ numerator: 0n, denominator: 1n });
    expect(parseFeeRate('0.000000000000000001')).toEqual({ numerator: 1n, denominator: 10n ** 18n });
    for (const bad of ['1', '0.5.1', '-0.1', '.2', '0.', '1e-3', ' 0.1', '0.0000000000000000001'])
      expect(isFeeRate(bad), bad).toBe(false);
    expect(() => parseFeeRate('1')).toThrow(RangeError);
  });

  test('rab_to_usdt with a residue: 1.5 RAB at 0.333333 gives 0.498999, fee 0.000999, rounding 0.000001', () => {
    expect(quoteExchange('rab_to_usdt', money('1.5'), money('0.333333'), rate)).toEqual({
      direction: 'rab_to_usdt',
      assetIn: 'RAB',
      amountIn: 1_500_000n,
      assetOut: 'USDT',
      amountOut: 498_999n,
      fee: 999n,
      rounding: 1n,
      usdtLeg: 499_999n,
    });
  });

  test('rab_to_usdt without a residue: 10 RAB at 2 gives 19.96 and a fee of 0.04', () => {
    expect(quoteExchange('rab_to_usdt', money('10'), money('2'), rate)).toMatchObject({
      amountOut: 19_960_000n,
      fee: 40_000n,
      rounding: 0n,
      usdtLeg: 20_000_000n,
    });
  });

  test('usdt_to_rab with a residue: 1.04 USDT at 1.234567 buys 0.840715 RAB for 1.037919, fee 0.00208, rounding 0.000001', () => {
    expect(quoteExchange('usdt_to_rab', money('1.04'), money('1.234567'), rate)).toEqual({
      direction: 'usdt_to_rab',
      assetIn: 'USDT',
      amountIn: 1_040_000n,
      assetOut: 'RAB',
      amountOut: 840_715n,
      fee: 2_080n,
      rounding: 1n,
      usdtLeg: 1_037_919n,
    });
  });

  test('an amount too small to buy a minor unit gives 0 out (the server refuses it)', () => {
    expect(quoteExchange('usdt_to_rab', money('1'), money('1000000000'), rate)?.amountOut).toBe(0n);
    expect(quoteExchange('rab_to_usdt', money('0.01'), money('0.000001'), rate)?.amountOut).toBe(0n);
  });

  test('a leg above EXCHANGE_LEG_MAX (10^12 units) gives no quote (the server refuses it as too large)', () => {
    expect(quoteExchange('rab_to_usdt', money('100000'), money('1000000000'), rate)).toBeNull();
    expect(quoteExchange('usdt_to_rab', money('1000000000'), money('0.000001'), rate)).toBeNull();
    expect(quoteExchange('rab_to_usdt', money('1000'), money('1000000000'), rate)?.usdtLeg).toBe(10n ** 18n);
    expect(EXCHANGE_LEG_MAX).toBe(10n ** 18n);
  });

  test('no price or no amount is a RangeError (the exchange is closed)', () => {
    expect(() => quoteExchange('rab_to_usdt', money('1'), minor(0n), rate)).toThrow(RangeError);
    expect(() => quoteExchange('usdt_to_rab', minor(0n), money('1'), rate)).toThrow(RangeError);
  });

  const amounts = fc.bigInt({ min: 1n, max: 10n ** 17n });
  const prices = fc.bigInt({ min: 1n, max: 10n ** 15n });
  const rates = fc
    .tuple(fc.integer({ min: 0, max: 18 }), fc.bigInt({ min: 0n, max: 10n ** 18n }))
    .map(([digits, numerator]) => {
      const denominator = 10n ** BigInt(digits);
      return { numerator: numerator % denominator, denominator };
    });

  test('rab_to_usdt: the inventory pays floor(gross) = out + fee + rounding, rounding is 0 or 1, nobody gets more than exact', () => {
    fc.assert(
      fc.property(amounts, prices, rates, (amount, price, feeRate) => {
        const quote = quoteExchange('rab_to_usdt', minor(amount), minor(price), feeRate);
        const grossTimesScale = amount * price; // gross x 10^6
        if (quote === null) {
          expect(grossTimesScale / 1_000_000n).toBeGreaterThan(EXCHANGE_LEG_MAX);
          return;
        }
        expect(quote.usdtLeg).toBe(grossTimesScale / 1_000_000n);
        expect(quote.amountOut + quote.fee + quote.rounding).toBe(quote.usdtLeg);
        expect(quote.rounding === 0n || quote.rounding === 1n).toBe(true);
        // The customer's share and the fee never exceed their exact values.
        const exactDenominator = 1_000_000n * feeRate.denominator;
        expect(quote.amountOut * exactDenominator).toBeLessThanOrEqual(
          grossTimesScale * (feeRate.denominator - feeRate.numerator),
        );
        expect(quote.fee * exactDenominator).toBeLessThanOrEqual(grossTimesScale * feeRate.numerator);
      }),
    );
  });

  test('usdt_to_rab: amount in = what the RAB costs + fee + rounding; the RAB costs at least its value; the residue is below one RAB minor unit', () => {
    fc.assert(
      fc.property(amounts, prices, rates, (amount, price, feeRate) => {
        const quote = quoteExchange('usdt_to_rab', minor(amount), minor(price), feeRate);
        if (quote === null) {
          expect(
            ((amount - (amount * feeRate.numerator) / feeRate.denominator) * 1_000_000n) / price,
          ).toBeGreaterThan(EXCHANGE_LEG_MAX);
          return;
        }
        expect(quote.usdtLeg + quote.fee + quote.rounding).toBe(amount);
        expect(quote.rounding).toBeGreaterThanOrEqual(0n);
        expect(quote.usdtLeg * 1_000_000n).toBeGreaterThanOrEqual(quote.amountOut * price);
        // One more RAB minor unit would cost more than what was left after the fee.
        expect((quote.amountOut + 1n) * price).toBeGreaterThan((amount - quote.fee) * 1_000_000n);
        expect(quote.fee * feeRate.denominator).toBeLessThanOrEqual(amount * feeRate.numerator);
      }),
    );
  });
});

describe('the exchange configuration', () => {
  test('defaults: fee rate 0.002, amounts from 1 to 100000', () => {
    expect(loadConfig({}).exchange).toEqual({ feeRate: '0.002', minimum: '1', maximum: '100000' });
  });

  test('COFFER_EXCHANGE_FEE_RATE, _MIN and _MAX are read as exact decimals', () => {
    expect(
      loadConfig({
        COFFER_EXCHANGE_FEE_RATE: '0.0015',
        COFFER_EXCHANGE_MIN: '0.50',
        COFFER_EXCHANGE_MAX: '500',
      }).exchange,
    ).toEqual({ feeRate: '0.0015', minimum: '0.5', maximum: '500' });
  });

  test('a fee rate of 1 or more, a bound with 3 decimals, a minimum of 0 or above the maximum is refused', () => {
    for (const env of [
      { COFFER_EXCHANGE_FEE_RATE: '1' },
      { COFFER_EXCHANGE_FEE_RATE: '0.2%' },
      { COFFER_EXCHANGE_MIN: '0.001' },
      { COFFER_EXCHANGE_MIN: '0' },
      { COFFER_EXCHANGE_MIN: '10', COFFER_EXCHANGE_MAX: '5' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
