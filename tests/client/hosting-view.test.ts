/**
 * Pure view logic of the Hosting tab: rates as exact percentages, the earnings preview of a new
 * order (the daily job's own rule: days × floor(amount × dailyRate), checked against independent
 * decimal arithmetic), the figures of an increase, decrease and redeem with the early-exit
 * penalty (the worked example of docs/protocol.md section 20), an order's progress to maturity,
 * the valid-hosting standing at 499.99 and 500, and how statuses, kinds and types are named.
 */
import { describe, expect, test } from 'vitest';
import type { HostingOrderRecord } from '../../contract/api/hosting.js';
import { HOSTING_CHANGE_KINDS } from '../../contract/api/hosting.js';
import { INCOME_STATUSES, INCOME_TYPES } from '../../contract/api/income.js';
import {
  changeKindKey,
  changePreview,
  commandOutcome,
  earningsPreview,
  INCOME_TYPE_LIST,
  incomeStatusKey,
  incomeTypeKey,
  isIncomeType,
  nameIn,
  orderStatusKey,
  payoutKey,
  progressOf,
  sortOrders,
  typedAmount,
  validHostingOf,
  type ProductTerms,
} from '../../src/features/hosting/hosting-view.js';
import en from '../../locales/en.json';
import { SEEDED_7_DAY_HOSTING } from '../helpers/seeded-catalogue.js';

const SEVEN_DAYS: ProductTerms = {
  days: 7,
  dailyRate: '0.003',
  minimum: '100',
  maximum: '100000',
  payout: 'daily',
};

function order(overrides: Partial<HostingOrderRecord> = {}): HostingOrderRecord {
  return {
    id: '12',
    accountId: '7',
    productId: '1',
    names: { en: '7-day hosting', 'zh-Hans': '7天托管' },
    amount: '1500',
    initialAmount: '1000',
    ...SEEDED_7_DAY_HOSTING,
    status: 'in_progress',
    closeReason: null,
    // Created Mon 2026-03-02 10:00 in Asia/Shanghai; interest from Tue 00:00; matures the next Tue 00:00.
    startAt: '2026-03-02T02:00:00.000Z',
    interestFrom: '2026-03-02T16:00:00.000Z',
    endAt: '2026-03-09T16:00:00.000Z',
    accruedInterest: '0',
    paidInterest: '0',
    penalty: '0',
    dailyInterest: '4.5',
    closedAt: null,
    createdAt: '2026-03-02T02:00:00.000Z',
    updatedAt: '2026-03-02T02:00:00.000Z',
    ...overrides,
  };
}

const WEDNESDAY = Date.parse('2026-03-04T00:00:00.000Z');

/** floor(amount × rate) by decimal strings, independent of contract/hosting-interest.ts. */
function expectedDaily(amount: string, rate: string): bigint {
  const [whole = '0', cents = ''] = amount.split('.');
  const minor = BigInt(whole) * 1_000_000n + BigInt(cents.padEnd(6, '0'));
  const digits = rate.slice(2);
  return (minor * BigInt(digits)) / 10n ** BigInt(digits.length);
}

function asDecimal(minor: bigint): string {
  const whole = minor / 1_000_000n;
  const fraction = (minor % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

describe('the amount typed', () => {
  test.each([
    ['', 'required'],
    ['abc', 'not_number'],
    ['1e3', 'not_number'],
    ['-5', 'not_positive'],
    ['0', 'not_positive'],
    ['0.00', 'not_positive'],
    ['10.001', 'decimals'],
  ])('%j is refused as %s', (text, key) => {
    expect(typedAmount(text)).toEqual({ problem: expect.objectContaining({ key }) });
  });

  test('at most 2 decimals, read exactly', () => {
    expect(typedAmount(' 100.05 ')).toEqual({ amount: 100_050_000n });
  });
});

describe('the earnings preview of a new order', () => {
  test('1000 USDT for 7 days at 0.3 % a day: 3 a day, 21 over the term, 1021 back at maturity', () => {
    expect(earningsPreview(SEVEN_DAYS, '1000', '5000')).toEqual({
      kind: 'ok',
      amount: '1000',
      daily: '3',
      total: '21',
      atMaturity: '1021',
      days: 7,
      short: false,
    });
  });

  test('each day is floored to the minor unit before the days are added up, as the job pays it', () => {
    // 100.01 × 0.0035 = 0.350035 a day, exactly; 30 days = 10.50105.
    const preview = earningsPreview({ ...SEVEN_DAYS, days: 30, dailyRate: '0.0035' }, '100.01', null);
    expect(preview).toMatchObject({ daily: '0.350035', total: '10.50105', atMaturity: '110.51105' });
    // 100.03 × 0.0000003 = 0.000030009: floored to 0.00003 a day, 0.0009 over 30 days (not 0.00090027).
    expect(
      earningsPreview({ ...SEVEN_DAYS, days: 30, dailyRate: '0.0000003' }, '100.03', null),
    ).toMatchObject({ daily: '0.00003', total: '0.0009' });
  });

  test('over random amounts, rates and terms it equals days × floor(amount × rate) by independent arithmetic', () => {
    let seed = 12345;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    for (let round = 0; round < 500; round++) {
      const amount = `${100 + next(99_900)}.${String(next(100)).padStart(2, '0')}`;
      const rate = `0.${String(1 + next(99_999)).padStart(7, '0')}`;
      const days = 1 + next(3650);
      const preview = earningsPreview(
        { ...SEVEN_DAYS, days, dailyRate: rate, maximum: '100000' },
        amount,
        null,
      );
      const daily = expectedDaily(amount, rate);
      expect(preview, `${amount} at ${rate} for ${days}`).toMatchObject({
        kind: 'ok',
        daily: asDecimal(daily),
        total: asDecimal(daily * BigInt(days)),
      });
    }
  });

  test('outside the product’s bounds the preview names them, and more than the cash known is flagged', () => {
    expect(earningsPreview(SEVEN_DAYS, '99.99', null)).toEqual({
      kind: 'invalid',
      problem: { key: 'below_minimum', minimum: '100', maximum: '100000' },
    });
    expect(earningsPreview(SEVEN_DAYS, '100000.01', null)).toMatchObject({
      kind: 'invalid',
      problem: { key: 'above_maximum' },
    });
    expect(earningsPreview(SEVEN_DAYS, '', null)).toEqual({ kind: 'empty' });
    expect(earningsPreview(SEVEN_DAYS, '200', '150.5')).toMatchObject({ kind: 'ok', short: true });
  });
});

describe('the figures of a change (the worked example of protocol section 20)', () => {
  test('an increase of 500 on 1000: principal 1500, one day’s interest 3 -> 4.5', () => {
    expect(changePreview(order({ amount: '1000' }), 'add', '500', WEDNESDAY)).toEqual({
      kind: 'add',
      amount: '500',
      principalAfter: '1500',
      dailyBefore: '3',
      dailyAfter: '4.5',
    });
  });

  test('an increase beyond the product’s maximum is refused with the room left', () => {
    expect(changePreview(order({ amount: '99950' }), 'add', '100', WEDNESDAY)).toEqual({
      kind: 'refused',
      refusal: { key: 'server.hosting_add_above_maximum', room: '50', maximum: '100000' },
    });
  });

  test('a decrease of 300 on 1500 at 1 %: penalty 3, 297 to cash, 1200 remain earning 3.6 a day', () => {
    expect(changePreview(order(), 'sub', '300', WEDNESDAY)).toEqual({
      kind: 'sub',
      amount: '300',
      penalty: '3',
      penaltyRate: '1%',
      toCash: '297',
      principalAfter: '1200',
      dailyAfter: '3.6',
    });
  });

  test('the penalty is floored to the minor unit', () => {
    // 0.33 × 0.03 = 0.0099 exactly; 0.35 × 0.000003 = 0.00000105 -> 0.000001.
    expect(changePreview(order({ penaltyRate: '0.03' }), 'sub', '0.33', WEDNESDAY)).toMatchObject({
      penalty: '0.0099',
      toCash: '0.3201',
    });
    expect(changePreview(order({ penaltyRate: '0.000003' }), 'sub', '0.35', WEDNESDAY)).toMatchObject({
      penalty: '0.000001',
    });
  });

  test('a decrease leaving less than the minimum redeems the whole order, the penalty on all of it', () => {
    expect(changePreview(order({ amount: '150' }), 'sub', '60', WEDNESDAY)).toEqual({
      kind: 'redeem',
      principal: '150',
      penalty: '1.5',
      penaltyRate: '1%',
      toCash: '148.5',
      atMaturity: false,
      becauseMinimum: '100',
    });
  });

  test('a redeem of 1200 before maturity: penalty 12, 1188 to cash; at maturity no penalty', () => {
    expect(changePreview(order({ amount: '1200' }), 'redeem', '', WEDNESDAY)).toMatchObject({
      kind: 'redeem',
      principal: '1200',
      penalty: '12',
      toCash: '1188',
      atMaturity: false,
    });
    const matured = Date.parse('2026-03-09T16:00:00.000Z');
    expect(changePreview(order({ amount: '1200' }), 'redeem', '', matured)).toMatchObject({
      penalty: '0',
      toCash: '1200',
      atMaturity: true,
    });
  });

  test('without early exit a decrease or a redeem before maturity is refused; at maturity the redeem is the maturity itself', () => {
    const locked = order({ earlyExit: false, penaltyRate: '0' });
    expect(changePreview(locked, 'sub', '10', WEDNESDAY)).toEqual({
      kind: 'refused',
      refusal: { key: 'server.hosting_early_exit_not_allowed' },
    });
    expect(changePreview(locked, 'redeem', '', WEDNESDAY)).toEqual({
      kind: 'refused',
      refusal: { key: 'server.hosting_early_exit_not_allowed' },
    });
    expect(changePreview(locked, 'redeem', '', Date.parse(locked.endAt))).toMatchObject({
      kind: 'redeem',
      penalty: '0',
    });
  });

  test('an order that ended takes no change; after its maturity an increase or decrease is refused', () => {
    expect(changePreview(order({ status: 'expired' }), 'redeem', '', WEDNESDAY)).toEqual({
      kind: 'refused',
      refusal: { key: 'server.hosting_order_ended' },
    });
    const after = Date.parse('2026-03-10T00:00:00.000Z');
    expect(changePreview(order(), 'add', '10', after)).toEqual({
      kind: 'refused',
      refusal: { key: 'server.hosting_order_matured' },
    });
  });

  test('more than the principal is refused naming it; a bad amount names its problem', () => {
    expect(changePreview(order(), 'sub', '1500.01', WEDNESDAY)).toEqual({
      kind: 'refused',
      refusal: { key: 'server.hosting_sub_too_much', principal: '1500' },
    });
    expect(changePreview(order(), 'add', '1.234', WEDNESDAY)).toEqual({
      kind: 'invalid',
      problem: { key: 'decimals' },
    });
    expect(changePreview(order(), 'add', ' ', WEDNESDAY)).toEqual({ kind: 'empty' });
  });
});

describe('progress to maturity', () => {
  test('on the creation day: day 0 of 7; two days into its interest: day 2', () => {
    expect(progressOf(order(), Date.parse('2026-03-02T03:00:00.000Z'))).toMatchObject({
      daysDone: 0,
      days: 7,
    });
    const progress = progressOf(order(), Date.parse('2026-03-04T17:00:00.000Z'));
    expect(progress.daysDone).toBe(2);
    expect(progress.percent).toBeGreaterThan(28);
    expect(progress.percent).toBeLessThan(40);
  });

  test('a matured order is complete; a redeemed one stops where it was redeemed; never beyond 0..100', () => {
    expect(progressOf(order({ status: 'expired', closeReason: 'matured' }), 0)).toEqual({
      percent: 100,
      daysDone: 7,
      days: 7,
    });
    expect(
      progressOf(
        order({ status: 'expired', closeReason: 'redeemed', closedAt: '2026-03-04T04:00:00.000Z' }),
        Date.parse('2026-04-01T00:00:00.000Z'),
      ).daysDone,
    ).toBe(1);
    expect(progressOf(order(), Date.parse('2027-01-01T00:00:00.000Z')).percent).toBe(100);
    expect(progressOf(order(), Date.parse('2020-01-01T00:00:00.000Z'))).toMatchObject({
      percent: 0,
      daysDone: 0,
    });
  });
});

describe('valid hosting (spec sections 5 and 9)', () => {
  test('499.99 does not count and lacks 0.01; 500.00 counts', () => {
    expect(validHostingOf('499.99', '500')).toEqual({ valid: false, threshold: '500', missing: '0.01' });
    expect(validHostingOf('500', '500')).toEqual({ valid: true, threshold: '500', missing: null });
    expect(validHostingOf(null, '500')).toBeNull();
  });
});

describe('lists and names', () => {
  test('orders in progress first, newest first; then ended ones, the latest ended first', () => {
    const sorted = sortOrders([
      order({ id: '1', status: 'expired', closedAt: '2026-03-05T00:00:00.000Z' }),
      order({ id: '2', createdAt: '2026-03-01T00:00:00.000Z' }),
      order({ id: '3', status: 'expired', closedAt: '2026-03-07T00:00:00.000Z' }),
      order({ id: '4', createdAt: '2026-03-03T00:00:00.000Z' }),
    ]);
    expect(sorted.map((item) => item.id)).toEqual(['4', '2', '3', '1']);
  });

  test('a name in the language asked, else Simplified Chinese, else English', () => {
    expect(nameIn({ en: '7-day hosting', 'zh-Hans': '7天托管' }, 'en')).toBe('7-day hosting');
    expect(nameIn({ en: '7-day hosting', 'zh-Hans': '7天托管' }, 'th')).toBe('7天托管');
    expect(nameIn({ en: '7-day hosting' }, 'ja')).toBe('7-day hosting');
  });

  test('the six income types are the contract’s, and every status, kind and type has words in the catalogue', () => {
    expect(INCOME_TYPE_LIST).toEqual([...INCOME_TYPES]);
    expect(isIncomeType('static')).toBe(true);
    expect(isIncomeType('interest')).toBe(false);
    const words = (key: string) => {
      const [namespace = '', name = ''] = key.split('.');
      return (en as Record<string, Record<string, unknown>>)[namespace]?.[name];
    };
    for (const type of INCOME_TYPES) expect(words(incomeTypeKey(type)), type).toBeTruthy();
    for (const status of INCOME_STATUSES) expect(words(incomeStatusKey(status)), status).toBeTruthy();
    for (const kind of HOSTING_CHANGE_KINDS) expect(words(changeKindKey(kind)), kind).toBeTruthy();
    for (const payout of ['daily', 'at_maturity'] as const) expect(words(payoutKey(payout))).toBeTruthy();
    for (const ended of [
      order(),
      order({ status: 'expired', closeReason: 'matured' }),
      order({ status: 'expired', closeReason: 'redeemed' }),
    ])
      expect(words(orderStatusKey(ended))).toBeTruthy();
  });

  test('a settled command reads as done, refused with its code, expired or cancelled; a pending one as nothing yet', () => {
    expect(commandOutcome({ state: 'confirmed', answer: { code: 200, message: 'OK' } })).toEqual({
      kind: 'done',
    });
    expect(commandOutcome({ state: 'rejected', answer: { code: 470, message: 'Insufficient' } })).toEqual({
      kind: 'refused',
      code: 470,
      message: 'Insufficient',
    });
    expect(commandOutcome({ state: 'expired', answer: null })).toEqual({ kind: 'expired' });
    expect(commandOutcome({ state: 'queued', answer: null })).toBeNull();
  });
});
