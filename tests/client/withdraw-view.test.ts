/**
 * Pure view logic of the withdrawal pages: the amount's checks and the fee, total and maximum in
 * minor units, the window in the user's and the business time zone, whether a method may be used
 * yet, and how a withdrawal record is named and labelled.
 */
import { describe, expect, test } from 'vitest';
import type { WithdrawalRecord, WithdrawalWindow } from '../../contract/api/withdraw.js';
import { WITHDRAWAL_STAGES, WITHDRAWAL_STATUSES } from '../../contract/api/withdraw.js';
import {
  activeLock,
  breakdownOf,
  checkWithdrawAmount,
  destinationOf,
  maximumText,
  methodUsability,
  reasonOf,
  stageKey,
  statusKey,
  statusTone,
  twoZoneTime,
  typedAmount,
  windowView,
  withdrawableMaximum,
  type Terms,
} from '../../src/features/withdraw/withdraw-view.js';
import en from '../../locales/en.json';

function terms(overrides: Partial<Terms> = {}): Terms {
  return {
    available: '100',
    fee: '1',
    minimum: '10',
    dailyLimit: '50000',
    dailyRemaining: '50000',
    maximum: '99',
    ...overrides,
  };
}

function record(overrides: Partial<WithdrawalRecord> = {}): WithdrawalRecord {
  return {
    id: '1',
    accountId: '7',
    kind: 'chain',
    network: 'BEP20',
    address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
    bankName: null,
    cardNumber: null,
    amount: '25',
    fee: '1',
    total: '26',
    status: 'pending',
    stage: 'awaiting_review',
    reason: null,
    txHash: null,
    reference: null,
    createdAt: '2026-01-05T02:00:00.000Z',
    completedAt: null,
    updatedAt: '2026-01-05T02:00:00.000Z',
    ...overrides,
  };
}

describe('the fee, what arrives and what leaves the account', () => {
  test('the amount arrives whole; the fee is added on top, exactly (no float: 0.1 + 0.2 is 0.3)', () => {
    expect(breakdownOf('25.5', '1')).toEqual({ receive: '25.5', fee: '1', total: '26.5' });
    expect(breakdownOf('0.1', '0.2')).toEqual({ receive: '0.1', fee: '0.2', total: '0.3' });
    expect(breakdownOf(' 10.50 ', '0.000001')).toEqual({
      receive: '10.5',
      fee: '0.000001',
      total: '10.500001',
    });
  });

  test('an amount that is not one yet (empty, 3 decimals, negative, zero) has no breakdown', () => {
    for (const text of ['', '1.234', '-5', '0', '0.00', 'abc', '1e3'])
      expect(breakdownOf(text, '1'), text).toBeNull();
    expect(typedAmount('12.34')).toBe(12_340_000n);
  });
});

describe('the largest amount the user can withdraw now ("Max")', () => {
  test('the server’s maximum, rounded down to the cent (typed amounts have 2 decimals)', () => {
    expect(maximumText(terms({ available: '1000', maximum: '9.129999' }))).toBe('9.12');
  });

  test('never more than the available cash less the fee, nor today’s remaining limit', () => {
    expect(maximumText(terms({ available: '10.123456', fee: '1', maximum: '999' }))).toBe('9.12');
    expect(maximumText(terms({ dailyRemaining: '42.5', maximum: '99' }))).toBe('42.5');
  });

  test('0 when the fee is more than what is there (never negative)', () => {
    expect(withdrawableMaximum(terms({ available: '0.5', fee: '1', maximum: '0' }))).toBe(0n);
    expect(maximumText(terms({ available: '0.5', fee: '1', maximum: '0' }))).toBe('0');
  });
});

describe('the amount’s checks before sending', () => {
  test('required, a number, above 0, at most 2 decimals', () => {
    expect(checkWithdrawAmount('  ', terms())).toEqual({ key: 'required' });
    expect(checkWithdrawAmount('ten', terms())).toEqual({ key: 'not_number' });
    expect(checkWithdrawAmount('-5', terms())).toEqual({ key: 'not_positive' });
    expect(checkWithdrawAmount('0', terms())).toEqual({ key: 'not_positive' });
    expect(checkWithdrawAmount('12.345', terms())).toEqual({ key: 'decimals' });
    expect(checkWithdrawAmount('012', terms())).toEqual({ key: 'not_number' });
  });

  test('below the minimum is refused naming the minimum', () => {
    expect(checkWithdrawAmount('9.99', terms())).toEqual({ key: 'below_minimum', amount: '10' });
    expect(checkWithdrawAmount('10', terms())).toBeNull();
  });

  test('the amount plus the fee must fit the available cash: 99 + 1 of 100 goes, 99.01 does not', () => {
    expect(checkWithdrawAmount('99', terms())).toBeNull();
    expect(checkWithdrawAmount('99.01', terms())).toEqual({ key: 'above_available', amount: '99', fee: '1' });
  });

  test('above today’s remaining limit is refused naming what remains', () => {
    expect(checkWithdrawAmount('30', terms({ dailyRemaining: '20', maximum: '20' }))).toEqual({
      key: 'above_daily',
      amount: '20',
    });
  });

  test('without the terms (not loaded), only the form is checked: the server checks the rest', () => {
    expect(checkWithdrawAmount('1000000', null)).toBeNull();
    expect(checkWithdrawAmount('1.234', null)).toEqual({ key: 'decimals' });
  });
});

describe('the withdrawal window in the user’s time and the business time', () => {
  const closed: WithdrawalWindow = {
    opens: '09:00',
    closes: '21:00',
    timeZone: 'Asia/Shanghai',
    open: false,
    nextOpen: '2026-01-05T01:00:00.000Z',
    closesAt: null,
  };

  test('closed: the next opening in the user’s zone, and in the business zone beside it', () => {
    const view = windowView(closed, 'en', 'Europe/Berlin');
    expect(view).toMatchObject({
      open: false,
      hours: { opens: '09:00', closes: '21:00', timeZone: 'Asia/Shanghai' },
    });
    if (view.open || view.next === null) throw new Error('expected a next opening');
    expect(view.next.local).toMatch(/Mon.*02:00.*GMT\+1/);
    expect(view.next.business).toMatch(/Mon.*09:00.*GMT\+8/);
  });

  test('a user in the business zone sees the time once', () => {
    expect(twoZoneTime('2026-01-05T01:00:00.000Z', 'en', 'Asia/Shanghai', 'Asia/Shanghai')).toEqual({
      local: expect.stringMatching(/09:00/),
      business: null,
    });
  });

  test('open: until when, in both zones; the times follow the page’s language', () => {
    const view = windowView(
      { ...closed, open: true, nextOpen: null, closesAt: '2026-01-05T13:00:00.000Z' },
      'zh-Hans',
      'America/New_York',
    );
    if (!view.open || view.until === null) throw new Error('expected a closing time');
    expect(view.until.local).toMatch(/08:00/);
    expect(view.until.local).toMatch(/周一/);
    expect(view.until.business).toMatch(/21:00/);
  });
});

describe('the security lock', () => {
  const now = Date.parse('2026-01-05T02:00:00Z');
  test('shown while it holds, gone once it has passed or when there is none', () => {
    expect(activeLock('2026-01-06T02:00:00.000Z', now)).toBe('2026-01-06T02:00:00.000Z');
    expect(activeLock('2026-01-05T01:59:59.000Z', now)).toBeNull();
    expect(activeLock(null, now)).toBeNull();
  });
});

describe('whether a method may be used', () => {
  const now = Date.parse('2026-01-05T02:00:00Z');
  const method = { id: '3', usableAt: '2026-01-05T08:00:00.000Z' };

  test('a method still in its cooldown is not usable, with the time it becomes usable', () => {
    expect(methodUsability(method, now, undefined)).toEqual({ usable: false, usableAt: method.usableAt });
    expect(methodUsability(method, Date.parse(method.usableAt), undefined).usable).toBe(true);
  });

  test('the server’s word wins for the method the index was asked about (the device clock may be off)', () => {
    const asked = { id: '3', usable: true, usableAt: '2026-01-05T01:00:00.000Z' };
    expect(methodUsability(method, now, asked)).toEqual({ usable: true, usableAt: asked.usableAt });
    expect(methodUsability({ ...method, id: '4' }, now, asked).usable).toBe(false);
  });
});

describe('a withdrawal record as the list shows it', () => {
  test('a USDT withdrawal goes to its network and shortened address', () => {
    expect(destinationOf(record())).toBe('BEP20 · 0x2c75…5c23');
  });

  test('a bank withdrawal goes to the bank and the card’s last four digits', () => {
    expect(
      destinationOf(
        record({ kind: 'bank', network: null, address: null, bankName: 'ICBC', cardNumber: '•••• 1234' }),
      ),
    ).toBe('ICBC · •••• 1234');
  });

  test('every status and stage has a label in the catalogue, and a tone that is not colour alone', () => {
    const withdraw: Record<string, string> = en.withdraw;
    for (const status of WITHDRAWAL_STATUSES) {
      expect(withdraw[statusKey(status).replace('withdraw.', '')], status).toBeTruthy();
      expect(['pending', 'done', 'refused']).toContain(statusTone(status));
    }
    for (const stage of WITHDRAWAL_STAGES)
      expect(withdraw[stageKey(stage).replace('withdraw.', '')], stage).toBeTruthy();
    expect(statusTone('success')).toBe('done');
    expect(statusTone('failed')).toBe('refused');
  });

  test('the reason shows for a rejected or failed withdrawal only', () => {
    expect(reasonOf(record({ stage: 'rejected', reason: 'Address on a sanctions list' }))).toBe(
      'Address on a sanctions list',
    );
    expect(reasonOf(record({ stage: 'failed', reason: '  ' }))).toBeNull();
    expect(reasonOf(record({ stage: 'paid', reason: 'ignored' }))).toBeNull();
  });
});
