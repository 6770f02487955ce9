/**
 * The exchange in the worker: `exchange-index` reads the price, its version, the fee rate and the
 * bounds now and keeps nothing (offline it is a transport failure, never an old price); an answer
 * of another shape is not trusted; the exchange itself goes through `outbox-enqueue`, which
 * refuses it while offline.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import type { ExchangeIndexData } from '../../contract/api/exchange.js';
import { expectUserRead, liveReadTests, ok, workerUser } from './fake-api.js';

function indexData(overrides: Partial<ExchangeIndexData> = {}): ExchangeIndexData {
  return {
    accountId: '7',
    rab: '100',
    rabHeld: '0',
    usdt: '250.5',
    price: '0.5',
    priceVersion: '3',
    priceUpdatedAt: '2026-01-05T01:00:00.000Z',
    open: true,
    feeRate: '0.002',
    minimum: '1',
    maximum: '100000',
    asOf: '2026-01-05T02:00:00.000Z',
    ...overrides,
  };
}

const { setup, expectRefusedOffline, expectInvalid } = workerUser();

describe('exchange-index', () => {
  test('reads /api/v1/exchange/index for the account', async () => {
    const { handlers, seen } = await setup(() => ok(indexData()));
    const result = await handlers['exchange-index']({ accountId: '7' });
    expectUserRead(seen[0], '/api/v1/exchange/index', { accountId: '7' });
    expect(result).toEqual({ kind: 'ok', message: 'OK', data: indexData() });
  });

  liveReadTests(
    'price',
    (handlers, accountId) => handlers['exchange-index']({ accountId }),
    { good: indexData(), odd: { ...indexData(), price: 0.5 } },
    {
      why: '403 for an account not the user’s',
      accountId: '8',
      code: 403,
      message: 'You are not allowed to do this',
    },
  );
});

describe('the exchange through the outbox', () => {
  const params = {
    accountId: '7',
    direction: 'usdt_to_rab' as const,
    amount: '10',
    priceVersion: '3',
    tradePassword: 'trade-secret1',
  };

  test('offline, outbox-enqueue refuses it and nothing is sent', async () => {
    await expectRefusedOffline({ kind: 'exchange-submit', params });
  });

  test('an amount with 3 decimals is refused at enqueue naming the field', async () => {
    await expectInvalid([{ kind: 'exchange-submit', params: { ...params, amount: '1.234' } }, 'amount']);
  });
});
