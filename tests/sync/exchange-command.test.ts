/**
 * The exchange as an outbox command (`exchange-submit`): it carries the price version
 * the user saw and the trade password, so it is sent only while online and expires a minute
 * after the user acted (never filled at a price the user did not see); its trade password stays
 * on the device only until it settles; a stale price's 409 rejects it with the server's message
 * and holds nothing back. On IndexedDB and on the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { ONLINE_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import { COMMAND_STORAGES, commandWorld } from './helpers.js';

const SUBMIT = '/api/v1/exchange/submit';

function exchange(overrides: Record<string, string> = {}) {
  return {
    kind: 'exchange-submit' as const,
    params: {
      accountId: 'm7',
      direction: 'rab_to_usdt' as const,
      amount: '12.50',
      priceVersion: '4',
      tradePassword: 'trade-secret1',
      ...overrides,
    },
  };
}

describe.each(COMMAND_STORAGES)('an exchange in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);
  const { network, loggedIn, stored } = world;

  test('offline it is refused at enqueue: nothing is stored, nothing is sent', async () => {
    const engine = await loggedIn();
    network.online = false;
    expect(await engine.enqueue(exchange())).toEqual({ kind: 'refused', reason: 'offline' });
    expect(await engine.pendingCount()).toBe(0);
    network.online = true;
    await engine.drain();
    expect(world.server.seen).toHaveLength(0);
  });

  test('a direction other than the two, or an amount with 3 decimals, is refused at enqueue naming the field', async () => {
    const engine = await loggedIn();
    expect(await engine.enqueue(exchange({ direction: 'sideways' }))).toMatchObject({
      kind: 'refused',
      reason: 'invalid_input',
      field: 'direction',
    });
    expect(await engine.enqueue(exchange({ amount: '1.001' }))).toMatchObject({
      kind: 'refused',
      reason: 'invalid_input',
      field: 'amount',
    });
  });

  test('online it is sent with its key, the price version and the amount normalised, confirmed, its trade password then blanked, its account pulled', async () => {
    const engine = await loggedIn();
    const queued = await engine.enqueue(exchange());
    if (queued.kind !== 'ok') throw new Error('refused');
    expect(await stored(queued.id)).toMatchObject({
      state: 'queued',
      resource: `exchange:new:${queued.id}`,
      expiresAtMs: world.clock.now() + ONLINE_COMMAND_EXPIRY_MS,
    });

    const drained = await engine.drain();

    expect(drained.confirmed).toEqual([queued.id]);
    expect(world.server.seenOn(SUBMIT)).toEqual([
      {
        uri: SUBMIT,
        key: queued.id,
        token: 'tok-7',
        params: {
          accountId: 'm7',
          direction: 'rab_to_usdt',
          amount: '12.5',
          priceVersion: '4',
          tradePassword: 'trade-secret1',
        },
      },
    ]);
    expect(await stored(queued.id)).toMatchObject({
      state: 'confirmed',
      params: { accountId: 'm7', amount: '12.5', priceVersion: '4', tradePassword: '' },
    });
    expect(drained.pull).toMatchObject({ status: 'done', accountId: 'm7' });
  });

  test('a stale price (409) rejects it with the world.server message; it cannot be retried, and the exchange confirmed again at the new version goes', async () => {
    const engine = await loggedIn();
    world.server.refuse = (call) =>
      call.uri === SUBMIT && call.params['priceVersion'] === '4'
        ? { code: 409, message: 'The price has changed to 0.6 USDT per RAB' }
        : null;
    const stale = await engine.enqueue(exchange());
    if (stale.kind !== 'ok') throw new Error('refused at enqueue');
    expect((await engine.drain()).rejected).toEqual([stale.id]);
    expect(await stored(stale.id)).toMatchObject({
      state: 'rejected',
      answer: { code: 409, message: 'The price has changed to 0.6 USDT per RAB' },
      params: { tradePassword: '' },
    });
    expect(await engine.retry(stale.id)).toMatchObject({ kind: 'refused', reason: 'not_retryable' });

    const again = await engine.enqueue(exchange({ priceVersion: '5' }));
    expect((await engine.drain()).confirmed).toEqual([again.kind === 'ok' ? again.id : '']);
  });

  test('not sent within a minute of the user acting it expires, never sent, its trade password blanked', async () => {
    const engine = await loggedIn();
    const queued = await engine.enqueue(exchange());
    if (queued.kind !== 'ok') throw new Error('refused');
    network.online = false;
    expect((await engine.drain()).status).toBe('offline');
    await world.clock.advance(ONLINE_COMMAND_EXPIRY_MS, 1_000);
    network.online = true;
    const drained = await engine.drain();
    expect(drained.expired).toEqual([queued.id]);
    expect(world.server.seenOn(SUBMIT)).toHaveLength(0);
    expect(await stored(queued.id)).toMatchObject({ state: 'expired', params: { tradePassword: '' } });
  });
});
