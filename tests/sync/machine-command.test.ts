/**
 * Buying and renting mining machines as outbox commands (`machine-buy`, `machine-rent`, issue
 * 13): each carries the trade password, so it is refused at enqueue while offline, sent only while
 * online, and expires a minute after the user acted; it names its account and quantity (and, for
 * a rent, its days) in its own params, its password stays on the device only until it settles,
 * and a refused one (470 when short) cannot be retried and holds nothing back. On IndexedDB and
 * on the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { ONLINE_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import { COMMAND_STORAGES, commandWorld } from './helpers.js';

const BUY = '/api/v1/machine/buy';
const RENT = '/api/v1/machine/rent';

function buy(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'machine-buy' as const,
    params: {
      accountId: 'm7',
      machineId: '2',
      quantity: '3',
      payWith: 'ticket' as const,
      tradePassword: 'trade-secret1',
      ...overrides,
    },
  };
}

function rent(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'machine-rent' as const,
    params: { accountId: 'm7', machineId: '1', days: '5', tradePassword: 'trade-secret1', ...overrides },
  };
}

describe.each(COMMAND_STORAGES)('machine commands in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);
  const { network, loggedIn, stored } = world;

  test('offline a buy or a rent is refused at enqueue: nothing is stored, nothing is sent', async () => {
    const engine = await loggedIn();
    network.online = false;
    expect(await engine.enqueue(buy())).toEqual({ kind: 'refused', reason: 'offline' });
    expect(await engine.enqueue(rent())).toEqual({ kind: 'refused', reason: 'offline' });
    expect(await engine.pendingCount()).toBe(0);
    network.online = true;
    await engine.drain();
    expect(world.server.seen).toHaveLength(0);
  });

  test('a quantity outside 1 to 100, a way to pay other than usdt or ticket, or days of 0 are refused at enqueue naming the field', async () => {
    const engine = await loggedIn();
    for (const [command, field] of [
      [buy({ quantity: '0' }), 'quantity'],
      [buy({ quantity: '101' }), 'quantity'],
      [buy({ payWith: 'card' }), 'payWith'],
      [rent({ days: '0' }), 'days'],
      [buy({ tradePassword: '' }), 'tradePassword'],
    ] as const) {
      expect(await engine.enqueue(command)).toMatchObject({
        kind: 'refused',
        reason: 'invalid_input',
        field,
      });
    }
    expect(await engine.pendingCount()).toBe(0);
  });

  test('online a buy is sent with its key, its account, quantity and way to pay, confirmed, its trade password then blanked, its account pulled', async () => {
    const engine = await loggedIn();
    const queued = await engine.enqueue(buy());
    if (queued.kind !== 'ok') throw new Error('refused');
    expect(await stored(queued.id)).toMatchObject({
      state: 'queued',
      resource: `machine:new:${queued.id}`,
      expiresAtMs: world.clock.now() + ONLINE_COMMAND_EXPIRY_MS,
      params: {
        accountId: 'm7',
        machineId: '2',
        quantity: 3,
        payWith: 'ticket',
        tradePassword: 'trade-secret1',
      },
    });

    const drained = await engine.drain();

    expect(drained.confirmed).toEqual([queued.id]);
    expect(world.server.seenOn(BUY)).toEqual([
      {
        uri: BUY,
        key: queued.id,
        token: 'tok-7',
        params: {
          accountId: 'm7',
          machineId: '2',
          quantity: '3',
          payWith: 'ticket',
          tradePassword: 'trade-secret1',
        },
      },
    ]);
    expect(await stored(queued.id)).toMatchObject({ state: 'confirmed', params: { tradePassword: '' } });
    expect(drained.pull).toMatchObject({ status: 'done', accountId: 'm7' });
  });

  test('a rent goes with its days and a quantity of 1 when none was given', async () => {
    const engine = await loggedIn();
    const queued = await engine.enqueue(rent());
    if (queued.kind !== 'ok') throw new Error('refused');
    await engine.drain();
    expect(world.server.seenOn(RENT)[0]?.params).toEqual({
      accountId: 'm7',
      machineId: '1',
      days: '5',
      quantity: '1',
      tradePassword: 'trade-secret1',
    });
    expect(await stored(queued.id)).toMatchObject({
      state: 'confirmed',
      params: { days: 5, tradePassword: '' },
    });
  });

  test('a refusal (470, too few tickets) rejects it with the world.server message, its password blanked; it cannot be retried and the next buy goes', async () => {
    const engine = await loggedIn();
    world.server.refuse = (call) =>
      call.uri === BUY && call.params['quantity'] === '3'
        ? { code: 470, message: 'Not enough tickets: this needs 15, and 6 are available' }
        : null;
    const refused = await engine.enqueue(buy());
    if (refused.kind !== 'ok') throw new Error('refused at enqueue');
    expect((await engine.drain()).rejected).toEqual([refused.id]);
    expect(await stored(refused.id)).toMatchObject({
      state: 'rejected',
      answer: { code: 470, message: 'Not enough tickets: this needs 15, and 6 are available' },
      params: { tradePassword: '' },
    });
    expect(await engine.retry(refused.id)).toMatchObject({ kind: 'refused', reason: 'not_retryable' });
    const next = await engine.enqueue(buy({ quantity: '1' }));
    expect((await engine.drain()).confirmed).toEqual([next.kind === 'ok' ? next.id : '']);
  });

  test('not sent within a minute of the user acting it expires, never sent, its trade password blanked', async () => {
    const engine = await loggedIn();
    const queued = await engine.enqueue(buy());
    if (queued.kind !== 'ok') throw new Error('refused');
    network.online = false;
    expect((await engine.drain()).status).toBe('offline');
    await world.clock.advance(ONLINE_COMMAND_EXPIRY_MS, 1_000);
    network.online = true;
    const drained = await engine.drain();
    expect(drained.expired).toEqual([queued.id]);
    expect(world.server.seenOn(BUY)).toHaveLength(0);
    expect(await stored(queued.id)).toMatchObject({ state: 'expired', params: { tradePassword: '' } });
  });
});
