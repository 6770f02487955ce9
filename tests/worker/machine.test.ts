/**
 * Buying and renting mining machines in the worker: the page hands a buy or a rent to
 * `outbox-enqueue`, which refuses it while offline (it carries the trade password) and refuses a
 * quantity or days out of range naming the field; online, `outbox-drain` sends it through the
 * envelope with its Idempotency-Key and the account, machine and figures it names, and then
 * pulls so the new holding and the tickets used reach the pages.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { ok, refusal, workerUser } from './fake-api.js';

const EMPTY_PULL = { changes: {}, cursors: {}, hasMore: false };

const { setup, expectRefusedOffline, expectInvalid } = workerUser();

const buy = {
  kind: 'machine-buy' as const,
  params: {
    accountId: '7',
    machineId: '1',
    quantity: 2,
    payWith: 'usdt' as const,
    tradePassword: 'trade-secret1',
  },
};
const rent = {
  kind: 'machine-rent' as const,
  params: { accountId: '7', machineId: '2', days: 10, quantity: 1, tradePassword: 'trade-secret1' },
};

describe('buying and renting machines through the outbox', () => {
  test('offline, outbox-enqueue refuses a buy and a rent and nothing is sent', async () => {
    await expectRefusedOffline(buy, rent);
  });

  test('a quantity of 101 or days of 0 are refused at enqueue naming the field', async () => {
    await expectInvalid(
      [{ ...buy, params: { ...buy.params, quantity: 101 } }, 'quantity'],
      [{ ...rent, params: { ...rent.params, days: 0 } }, 'days'],
    );
  });

  test('online, a buy goes through the envelope with its key and figures, then the account is pulled', async () => {
    const { handlers, seen } = await setup((call) =>
      call.uri === '/api/v1/sync/pull' ? ok(EMPTY_PULL) : ok({ machine: {}, tickets: [] }),
    );
    const queued = await handlers['outbox-enqueue'](buy);
    if (queued.kind !== 'ok') throw new Error('refused at enqueue');
    await handlers['outbox-drain']();
    const sent = seen.filter((call) => call.uri === '/api/v1/machine/buy');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      params: {
        accountId: '7',
        machineId: '1',
        quantity: '2',
        payWith: 'usdt',
        tradePassword: 'trade-secret1',
      },
    });
    expect(sent[0]?.headers['idempotency-key']).toBe(queued.id);
    const bought = seen.findIndex((call) => call.uri === '/api/v1/machine/buy');
    expect(seen.slice(bought + 1).some((call) => call.uri === '/api/v1/sync/pull')).toBe(true);
  });

  test('a refusal (409, not for rent) settles the rent as rejected with the server message, never sent again', async () => {
    const { handlers, seen } = await setup((call) =>
      call.uri === '/api/v1/sync/pull' ? ok(EMPTY_PULL) : refusal(409, 'This machine is not for rent'),
    );
    const queued = await handlers['outbox-enqueue'](rent);
    if (queued.kind !== 'ok') throw new Error('refused at enqueue');
    await handlers['outbox-drain']();
    await handlers['outbox-drain']();
    expect(seen.filter((call) => call.uri === '/api/v1/machine/rent')).toHaveLength(1);
    expect(await handlers['outbox-retry']({ id: queued.id })).toMatchObject({
      kind: 'refused',
      reason: 'not_retryable',
    });
  });
});
