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
import * as checks from './command-checks.js';
import { COMMAND_STORAGES, commandOf, commandWorld } from './helpers.js';

const BUY = '/api/v1/machine/buy';
const RENT = '/api/v1/machine/rent';

const buy = commandOf('machine-buy', {
  machineId: '2',
  quantity: '3',
  payWith: 'ticket',
  tradePassword: 'trade-secret1',
});
const rent = commandOf('machine-rent', { machineId: '1', days: '5', tradePassword: 'trade-secret1' });

describe.each(COMMAND_STORAGES)('machine commands in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);
  const { loggedIn, stored } = world;

  test('offline a buy or a rent is refused at enqueue: nothing is stored, nothing is sent', async () => {
    await checks.expectRefusedOffline(world, [buy(), rent()]);
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
      await checks.expectInvalid(engine, command, field);
    }
    expect(await engine.pendingCount()).toBe(0);
  });

  test('online a buy is sent with its key, its account, quantity and way to pay, confirmed, its trade password then blanked, its account pulled', async () => {
    await checks.expectSentOnline(world, buy(), {
      uri: BUY,
      resource: (id) => `machine:new:${id}`,
      queued: {
        accountId: 'm7',
        machineId: '2',
        quantity: 3,
        payWith: 'ticket',
        tradePassword: 'trade-secret1',
      },
      sent: {
        accountId: 'm7',
        machineId: '2',
        quantity: '3',
        payWith: 'ticket',
        tradePassword: 'trade-secret1',
      },
      confirmed: { tradePassword: '' },
    });
  });

  test('a rent goes with its days and a quantity of 1 when none was given', async () => {
    const engine = await loggedIn();
    const id = await checks.enqueued(engine, rent());
    await engine.drain();
    expect(world.server.seenOn(RENT)[0]?.params).toEqual({
      accountId: 'm7',
      machineId: '1',
      days: '5',
      quantity: '1',
      tradePassword: 'trade-secret1',
    });
    expect(await stored(id)).toMatchObject({
      state: 'confirmed',
      params: { days: 5, tradePassword: '' },
    });
  });

  test('a refusal (470, too few tickets) rejects it with the world.server message, its password blanked; it cannot be retried and the next buy goes', async () => {
    await checks.expectRejectedForGood(
      world,
      buy(),
      {
        uri: BUY,
        when: ['quantity', '3'],
        answer: { code: 470, message: 'Not enough tickets: this needs 15, and 6 are available' },
        blanked: { tradePassword: '' },
      },
      buy({ quantity: '1' }),
    );
  });

  test('not sent within a minute of the user acting it expires, never sent, its trade password blanked', async () => {
    await checks.expectExpiresAfterAMinute(world, buy(), BUY, { tradePassword: '' });
  });
});
