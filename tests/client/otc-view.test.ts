/**
 * The Trading tab's figures: what a listing holds and brings, and what a take pays and
 * receives, computed by the server's own integer rules, so the screen shows what the ledger will
 * move (docs/protocol.md section 24's worked example: maker 0.1 %, taker 0.2 %); the checks the
 * server makes, told before sending; the book's order; completion as a percentage.
 */
import { describe, expect, test } from 'vitest';
import {
  isCancellable,
  listingView,
  sortBook,
  takeView,
  type OtcTerms,
  type TakeableOrder,
} from '../../src/features/otc/otc-view.js';

const terms: OtcTerms = {
  guidePrice: '0.333333',
  minPrice: '0.3',
  maxPrice: '0.366666',
  makerFeeRate: '0.001',
  takerFeeRate: '0.002',
  minimum: '1',
  usdt: '20',
  rab: '100',
};

describe('listing an order', () => {
  test('a buy of 10 RAB at 0.333333 holds 3.33333 USDT plus the maker fee 0.003333 = 3.336663 and brings 10 RAB', () => {
    expect(listingView('buy', '10', '0.333333', terms)).toEqual({
      kind: 'ok',
      volume: '10',
      price: '0.333333',
      usdt: '3.33333',
      makerFee: '0.003333',
      held: '3.336663',
      heldAsset: 'USDT',
      receive: '10',
      receiveAsset: 'RAB',
      short: false,
    });
  });

  test('a sell of 10 RAB holds the 10 RAB and brings the USDT less the maker fee when filled whole', () => {
    expect(listingView('sell', '10', '0.333333', terms)).toMatchObject({
      held: '10',
      heldAsset: 'RAB',
      receive: '3.329997',
      receiveAsset: 'USDT',
    });
  });

  test('the band edges are allowed; a minor unit outside either is refused naming both edges', () => {
    expect(listingView('buy', '10', '0.3', terms).kind).toBe('ok');
    expect(listingView('buy', '10', '0.366666', terms).kind).toBe('ok');
    for (const price of ['0.299999', '0.366667'])
      expect(listingView('buy', '10', price, terms)).toEqual({
        kind: 'out_of_band',
        minPrice: '0.3',
        maxPrice: '0.366666',
      });
  });

  test('below the minimum, 3 decimals of volume, 7 of price, zero or letters are refused naming the field', () => {
    expect(listingView('sell', '0.99', '0.333333', terms)).toEqual({ kind: 'below_minimum', minimum: '1' });
    expect(listingView('sell', '1.001', '0.333333', terms)).toEqual({ kind: 'invalid', field: 'volume' });
    expect(listingView('sell', '0', '0.333333', terms)).toEqual({ kind: 'invalid', field: 'volume' });
    expect(listingView('sell', '2', '0.3333333', terms)).toEqual({ kind: 'invalid', field: 'price' });
    expect(listingView('sell', '2', 'abc', terms)).toEqual({ kind: 'invalid', field: 'price' });
    expect(listingView('sell', '', '0.3', terms)).toEqual({ kind: 'empty' });
  });

  test('more than the available money is flagged short (the server answers 470); no guide price is closed', () => {
    expect(listingView('buy', '100', '0.333333', terms)).toMatchObject({ kind: 'ok', short: true });
    expect(listingView('sell', '100', '0.333333', terms)).toMatchObject({ kind: 'ok', short: false });
    expect(listingView('sell', '100.01', '0.333333', terms)).toMatchObject({ kind: 'ok', short: true });
    expect(listingView('buy', '10', '0.3', { ...terms, guidePrice: '0' })).toEqual({ kind: 'closed' });
    expect(listingView('buy', '10', '0.3', null)).toEqual({ kind: 'closed' });
  });

  test('an escrow beyond 10^12 units is too large', () => {
    expect(listingView('buy', '9999999999999', '0.3', { ...terms, usdt: '99999999999999' }).kind).toBe(
      'too_large',
    );
  });
});

describe('taking an order', () => {
  const buyOrder: TakeableOrder = {
    side: 'buy',
    price: '0.333333',
    filled: '0',
    remaining: '10',
    splittable: true,
    takerFeeRate: '0.002',
  };

  test('selling 3.33 RAB into a buy order receives 1.109998 less the taker fee 0.002219 = 1.107779 USDT (the worked example)', () => {
    expect(takeView(buyOrder, '3.33', terms)).toEqual({
      kind: 'ok',
      volume: '3.33',
      usdt: '1.109998',
      takerFee: '0.002219',
      pay: '3.33',
      payAsset: 'RAB',
      receive: '1.107779',
      receiveAsset: 'USDT',
      short: false,
    });
  });

  test('the second part moves the difference of the floored totals: 1.109999, then the last 3.34 RAB 1.113333', () => {
    expect(takeView({ ...buyOrder, filled: '3.33', remaining: '6.67' }, '3.33', terms)).toMatchObject({
      usdt: '1.109999',
      takerFee: '0.002219',
    });
    expect(takeView({ ...buyOrder, filled: '6.66', remaining: '3.34' }, '3.34', terms)).toMatchObject({
      usdt: '1.113333',
      takerFee: '0.002226',
    });
  });

  test("buying from a sell order pays the USDT plus the taker fee and receives the RAB; the order's own rate counts", () => {
    expect(takeView({ ...buyOrder, side: 'sell', takerFeeRate: '0.005' }, '3.33', terms)).toMatchObject({
      pay: '1.115547',
      payAsset: 'USDT',
      takerFee: '0.005549',
      receive: '3.33',
      receiveAsset: 'RAB',
    });
  });

  test('more than is left, a part of a whole-only order, a part below the minimum and a worthless part are refused', () => {
    expect(takeView(buyOrder, '10.01', terms)).toEqual({ kind: 'too_much', remaining: '10' });
    expect(takeView({ ...buyOrder, splittable: false }, '5', terms)).toEqual({
      kind: 'whole_only',
      volume: '10',
    });
    expect(takeView({ ...buyOrder, splittable: false }, '10', terms).kind).toBe('ok');
    expect(takeView(buyOrder, '0.5', terms)).toEqual({ kind: 'below_minimum', minimum: '1' });
    // The rest may be below the minimum: it is taken whole.
    expect(takeView({ ...buyOrder, filled: '9.5', remaining: '0.5' }, '0.5', terms).kind).toBe('ok');
    expect(
      takeView({ ...buyOrder, price: '0.000001', filled: '0', remaining: '10' }, '0.01', {
        ...terms,
        minimum: '0.01',
      }),
    ).toEqual({ kind: 'worthless' });
  });

  test('a taker short of the asset paid is flagged', () => {
    expect(takeView(buyOrder, '10', { ...terms, rab: '9' })).toMatchObject({ kind: 'ok', short: true });
  });
});

describe('the book and the orders', () => {
  const orders = [
    { id: '1', price: '0.5', createdAt: '2026-01-01T00:00:00.000Z' },
    { id: '2', price: '0.52', createdAt: '2026-01-02T00:00:00.000Z' },
    { id: '3', price: '0.5', createdAt: '2026-01-03T00:00:00.000Z' },
  ];

  test('best price first: buys highest, sells lowest, ties oldest first; newest first otherwise', () => {
    expect(sortBook(orders, 'buy', 'price').map((order) => order.id)).toEqual(['2', '1', '3']);
    expect(sortBook(orders, 'sell', 'price').map((order) => order.id)).toEqual(['1', '3', '2']);
    expect(sortBook(orders, 'sell', 'newest').map((order) => order.id)).toEqual(['3', '2', '1']);
  });

  test('only an open order can be cancelled', () => {
    expect(isCancellable({ status: 'pending_match' })).toBe(true);
    for (const status of ['match_ended', 'cancelled', 'completed'] as const)
      expect(isCancellable({ status })).toBe(false);
  });
});
