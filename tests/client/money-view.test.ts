/** Pure view logic of the money screens: the total in USDT, wallet record lines, the Accounts page's checks. */
import { describe, expect, test } from 'vitest';
import { RECORD_KINDS } from '../../contract/api/account.js';
import { SUB_ACCOUNTS_MAX } from '../../contract/constants.js';
import { formatMoney, parseMoney } from '../../contract/money.js';
import {
  availableAfterPending,
  checkSubAccount,
  checkTransferAmount,
  orderAccounts,
} from '../../src/features/account/account-forms.js';
import { accountTotal } from '../../src/features/assets/totals.js';
import { signedAmount } from '../../src/ui/amounts.js';
import { isRecordKind, kindKey, RECORD_KIND_LIST } from '../../src/features/records/records-view.js';

const balance = { cash: '100.5', hosting: '600', held: '2', rab: '10', rabHeld: '4' };

describe('the total in USDT', () => {
  test('is cash + hosting + held + all RAB (available and held) at the RAB price', () => {
    const total = accountTotal(balance, '0.5');
    expect(formatMoney(total.rabValue)).toBe('7');
    expect(formatMoney(total.total)).toBe('709.5');
  });

  test('values RAB rounded down to the minor unit, never more than the exact product', () => {
    const total = accountTotal({ ...balance, rab: '0.000001', rabHeld: '0' }, '0.333333');
    expect(formatMoney(total.rabValue)).toBe('0');
    expect(formatMoney(total.total)).toBe('702.5');
  });

  test('leaves RAB out while no price has been synced, and says so (rabPrice null)', () => {
    const total = accountTotal(balance, null);
    expect(total.rabPrice).toBeNull();
    expect(formatMoney(total.total)).toBe('702.5');
  });

  test('is exact with amounts a float would round', () => {
    const total = accountTotal({ cash: '0.1', hosting: '0.2', held: '0', rab: '0', rabHeld: '0' }, '1');
    expect(formatMoney(total.total)).toBe('0.3');
    expect(total.total).toBe(parseMoney('0.3'));
  });
});

describe('wallet record lines', () => {
  test('name every kind of the contract, in its order', () => {
    expect(RECORD_KIND_LIST).toEqual([...RECORD_KINDS]);
    expect(kindKey('account_transfer')).toBe('records.kind_account_transfer');
    expect(isRecordKind('fee')).toBe(true);
    expect(isRecordKind('all')).toBe(false);
    expect(isRecordKind('toString')).toBe(false);
  });

  test('always show the sign, so colour is not the only signal of the direction', () => {
    expect(signedAmount('10.5')).toEqual({ text: '+10.5', direction: 'in' });
    expect(signedAmount('-3')).toEqual({ text: '-3', direction: 'out' });
    expect(signedAmount('0')).toEqual({ text: '0', direction: 'none' });
    expect(signedAmount('-300.000000')).toEqual({ text: '-300', direction: 'out' });
    expect(signedAmount('0.000000')).toEqual({ text: '0', direction: 'none' });
  });
});

describe('the Accounts page', () => {
  test('lists the main account first, then sub-accounts in the order they were created', () => {
    const accounts = [
      { id: 'c', kind: 'sub' as const, createdAt: '2026-03-01T00:00:00.000Z' },
      { id: 'a', kind: 'main' as const, createdAt: '2026-05-01T00:00:00.000Z' },
      { id: 'b', kind: 'sub' as const, createdAt: '2026-02-01T00:00:00.000Z' },
    ];
    expect(orderAccounts(accounts).map((account) => account.id)).toEqual(['a', 'b', 'c']);
  });

  test('refuses an empty or too long sub-account name, and an eleventh sub-account', () => {
    expect(checkSubAccount('  ', 0)).toEqual({ key: 'server.field_required', field: 'field.name' });
    expect(checkSubAccount('x'.repeat(21), 0)?.key).toBe('server.field_too_long');
    expect(checkSubAccount('x'.repeat(20), 0)).toBeNull();
    expect(checkSubAccount('家庭🏠', 0)).toBeNull();
    expect(checkSubAccount('Savings', SUB_ACCOUNTS_MAX)?.key).toBe('server.sub_account_limit');
    expect(checkSubAccount('Savings', SUB_ACCOUNTS_MAX - 1)).toBeNull();
  });

  test('says what is wrong with a transfer amount before anything is sent', () => {
    const available = parseMoney('50');
    const key = (text: string) => checkTransferAmount(text, available, 'USDT')?.key ?? null;
    expect(key('')).toBe('server.field_required');
    expect(key('abc')).toBe('accounts.amount_not_number');
    expect(key('1e3')).toBe('accounts.amount_not_number');
    expect(key('10,5')).toBe('accounts.amount_not_number');
    expect(key('-5')).toBe('accounts.amount_not_positive');
    expect(key('0')).toBe('accounts.amount_not_positive');
    expect(key('0.00')).toBe('accounts.amount_not_positive');
    expect(key('1.005')).toBe('accounts.amount_decimals');
    expect(key('007')).toBe('server.amount_invalid');
    expect(key('50.01')).toBe('accounts.amount_above_available');
    expect(checkTransferAmount('50.01', available, 'USDT')?.values).toEqual({ amount: '50', asset: 'USDT' });
    expect(key('50')).toBeNull();
    expect(key(' 12.5 ')).toBeNull();
  });

  test('leaves the balance check to the server while the source balance has not been synced', () => {
    expect(checkTransferAmount('1000000', null, 'RAB')).toBeNull();
  });

  test('counts transfers still waiting in the outbox as spent: from this account and asset only, never below 0', () => {
    const pending = [
      { fromAccountId: 'a', asset: 'USDT', amount: '30' },
      { fromAccountId: 'a', asset: 'RAB', amount: '5' },
      { fromAccountId: 'b', asset: 'USDT', amount: '7' },
    ];
    expect(availableAfterPending('100', 'a', 'USDT', pending)).toBe(parseMoney('70'));
    expect(availableAfterPending('100', 'a', 'RAB', pending)).toBe(parseMoney('95'));
    expect(availableAfterPending('20', 'a', 'USDT', pending)).toBe(parseMoney('0'));
    expect(availableAfterPending(null, 'a', 'USDT', pending)).toBeNull();
  });
});
