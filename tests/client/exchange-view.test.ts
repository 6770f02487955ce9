/**
 * The exchange page's view model (src/features/exchange/exchange-view.ts): the live quote is the
 * server's own figure to the minor unit, every reason an amount cannot be quoted is told apart,
 * the fee rate reads as an exact percentage, a newer pulled price is noticed, and a settled
 * command reads as done, a stale price, a refusal or an expiry.
 */
import { describe, expect, test } from 'vitest';
import {
  commandOutcome,
  isDirection,
  newerVersion,
  quoteView,
  type ExchangeTerms,
} from '../../src/features/exchange/exchange-view.js';

function terms(overrides: Partial<ExchangeTerms> = {}): ExchangeTerms {
  return {
    price: '0.333333',
    priceVersion: '7',
    open: true,
    feeRate: '0.002',
    minimum: '1',
    maximum: '100000',
    ...overrides,
  };
}

describe('the live quote', () => {
  test('rab_to_usdt: 1.5 RAB at 0.333333 receives 0.498999 USDT, fee 0.000999, rounding kept 0.000001 (as the server settles)', () => {
    expect(quoteView('rab_to_usdt', '1.5', terms(), '10')).toEqual({
      kind: 'ok',
      pay: '1.5',
      payAsset: 'RAB',
      receive: '0.498999',
      receiveAsset: 'USDT',
      fee: '0.000999',
      rounding: '0.000001',
      short: false,
    });
  });

  test('usdt_to_rab: 1.04 USDT at 1.234567 receives 0.840715 RAB, fee 0.00208', () => {
    expect(quoteView('usdt_to_rab', '1.04', terms({ price: '1.234567' }), '100')).toMatchObject({
      kind: 'ok',
      pay: '1.04',
      payAsset: 'USDT',
      receive: '0.840715',
      receiveAsset: 'RAB',
      fee: '0.00208',
      rounding: '0.000001',
    });
  });

  test('no rounding kept shows none', () => {
    expect(quoteView('rab_to_usdt', '10', terms({ price: '2' }), null)).toMatchObject({
      receive: '19.96',
      fee: '0.04',
      rounding: null,
      short: false,
    });
  });

  test('more than the available balance is still quoted, flagged short (the server answers 470)', () => {
    expect(quoteView('usdt_to_rab', '50', terms(), '49.99')).toMatchObject({ kind: 'ok', short: true });
  });

  test('nothing typed, not an amount, 3 decimals, outside the bounds, too small and too large are told apart', () => {
    expect(quoteView('rab_to_usdt', '  ', terms(), null)).toEqual({ kind: 'empty' });
    for (const typed of ['abc', '1.001', '-1', '0', '1e3', '1,5'])
      expect(quoteView('rab_to_usdt', typed, terms(), null), typed).toEqual({ kind: 'invalid' });
    expect(quoteView('usdt_to_rab', '0.99', terms(), null)).toEqual({
      kind: 'out_of_bounds',
      minimum: '1',
      maximum: '100000',
      asset: 'USDT',
    });
    expect(quoteView('rab_to_usdt', '100000.01', terms(), null)).toMatchObject({
      kind: 'out_of_bounds',
      asset: 'RAB',
    });
    expect(quoteView('usdt_to_rab', '1', terms({ price: '1000000000' }), null)).toEqual({
      kind: 'too_small',
    });
    expect(quoteView('rab_to_usdt', '100000', terms({ price: '1000000000' }), null)).toEqual({
      kind: 'too_large',
    });
  });

  test('no terms, a closed exchange (price 0 or no version) or a malformed rate quotes nothing', () => {
    expect(quoteView('rab_to_usdt', '10', null, null)).toEqual({ kind: 'closed' });
    expect(quoteView('rab_to_usdt', '10', terms({ open: false, price: '0' }), null)).toEqual({
      kind: 'closed',
    });
    expect(quoteView('rab_to_usdt', '10', terms({ priceVersion: null }), null)).toEqual({ kind: 'closed' });
    expect(quoteView('rab_to_usdt', '10', terms({ feeRate: '2%' }), null)).toEqual({ kind: 'closed' });
  });
});

describe('what the page writes', () => {
  test('directions read back from a radio', () => {
    expect(isDirection('rab_to_usdt')).toBe(true);
    expect(isDirection('usdt_to_rab')).toBe(true);
    expect(isDirection('sideways')).toBe(false);
  });

  test('the newer of two price versions, by number (10 is newer than 9)', () => {
    expect(newerVersion('9', '10')).toBe('10');
    expect(newerVersion('10', '9')).toBe('10');
    expect(newerVersion(null, '3')).toBe('3');
    expect(newerVersion('3', undefined)).toBe('3');
    expect(newerVersion(null, null)).toBeNull();
  });
});

describe('a settled exchange command', () => {
  test('confirmed is done; 409 is a stale price; other refusals keep their code and message', () => {
    expect(commandOutcome({ state: 'confirmed', answer: { code: 200, message: 'Exchanged' } })).toEqual({
      kind: 'done',
    });
    expect(
      commandOutcome({ state: 'rejected', answer: { code: 409, message: 'The price has changed' } }),
    ).toEqual({ kind: 'stale', message: 'The price has changed' });
    expect(commandOutcome({ state: 'rejected', answer: { code: 470, message: 'Insufficient' } })).toEqual({
      kind: 'refused',
      code: 470,
      message: 'Insufficient',
    });
    expect(commandOutcome({ state: 'expired', answer: null })).toEqual({ kind: 'expired' });
    expect(commandOutcome({ state: 'cancelled', answer: null })).toEqual({ kind: 'cancelled' });
    expect(commandOutcome({ state: 'sending', answer: null })).toBeNull();
  });
});
