/**
 * Withdrawals in the worker: `withdraw-index` reads the terms of a withdrawal now and keeps
 * nothing (offline it is a transport failure, never an old answer); a refusal comes back with
 * its code for the page's body-code rules; the withdrawal itself goes through `outbox-enqueue`,
 * which refuses it while offline.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import type { WithdrawIndexData } from '../../contract/api/withdraw.js';
import { expectUserRead, liveReadTests, ok, workerUser } from './fake-api.js';

function indexData(overrides: Partial<WithdrawIndexData> = {}): WithdrawIndexData {
  return {
    accountId: '7',
    asset: 'USDT',
    available: '100',
    fee: '1',
    minimum: '10',
    dailyLimit: '50000',
    dailyRemaining: '50000',
    realNameApproved: false,
    unverifiedDailyLimit: '1000',
    maximum: '99',
    reviewAbove: '10000',
    window: {
      opens: '09:00',
      closes: '21:00',
      timeZone: 'Asia/Shanghai',
      open: true,
      nextOpen: null,
      closesAt: '2026-01-05T13:00:00.000Z',
    },
    lockedUntil: null,
    tradePasswordSet: true,
    authenticatorBound: true,
    method: null,
    serverTime: '2026-01-05T02:00:00.000Z',
    ...overrides,
  };
}

const { setup, expectRefusedOffline, expectInvalid } = workerUser();

describe('withdraw-index', () => {
  test('reads /api/v1/withdraw/index for the account and the chosen method', async () => {
    const method = { id: '3', usable: false, usableAt: '2026-01-06T02:00:00.000Z' };
    const { handlers, seen } = await setup(() => ok(indexData({ method })));
    const result = await handlers['withdraw-index']({ accountId: '7', methodId: '3' });
    expectUserRead(seen[0], '/api/v1/withdraw/index', { accountId: '7', methodId: '3' });
    expect(result).toEqual({ kind: 'ok', message: 'OK', data: indexData({ method }) });
  });

  test('without a method chosen, none is asked about', async () => {
    const { handlers, seen } = await setup(() => ok(indexData()));
    await handlers['withdraw-index']({ accountId: '7' });
    expect(seen[0]?.params).toEqual({ accountId: '7' });
  });

  liveReadTests(
    'answer',
    (handlers, accountId) => handlers['withdraw-index']({ accountId }),
    { good: indexData(), odd: { ...indexData(), fee: 1 } },
    {
      why: 'so the page can go to the authenticator page on 4900',
      accountId: '7',
      code: 4900,
      message: 'Bind an authenticator first',
    },
  );
});

describe('the withdrawal through the outbox', () => {
  const params = {
    accountId: '7',
    amount: '25.50',
    methodId: '3',
    googleCode: '123456',
    tradePassword: 'trade-secret1',
  };

  test('offline, outbox-enqueue refuses it and nothing is sent', async () => {
    await expectRefusedOffline({ kind: 'withdraw-create', params });
  });

  test('an amount with 3 decimals or a code of 5 digits is refused at enqueue naming the field', async () => {
    await expectInvalid(
      [{ kind: 'withdraw-create', params: { ...params, amount: '1.234' } }, 'amount'],
      [{ kind: 'withdraw-create', params: { ...params, googleCode: '12345' } }, 'googleCode'],
    );
  });
});
