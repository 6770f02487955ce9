/**
 * Hosting as outbox commands (docs/protocol.md section 20): an order (`hosting-create`)
 * carries the trade password, so it is sent only while online, expires a minute after the user
 * acted and keeps the password only until it settles; an increase, decrease or redeem
 * (`hosting-add`, `hosting-sub`, `hosting-redeem`) carries none, waits in the outbox while
 * offline and expires an hour after the user acted; each names its order only on the wire, and
 * its account (kept on the device) is pulled once it is confirmed. One order's changes go in the
 * order they were made. On IndexedDB and on the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { MONEY_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import * as checks from './command-checks.js';
import { COMMAND_STORAGES, commandOf, commandWorld } from './helpers.js';

const CREATE = '/api/v1/hosting/create';
const ADD = '/api/v1/hosting/add';
const SUB = '/api/v1/hosting/sub';
const REDEEM = '/api/v1/hosting/redeem';

const order = commandOf('hosting-create', {
  productId: '1',
  amount: '1000.50',
  tradePassword: 'trade-secret1',
});

const add = (orderId = '12', amount = '50.00', accountId = 'm7') => ({
  kind: 'hosting-add' as const,
  params: { accountId, orderId, amount },
});
const sub = (orderId = '12', amount = '20.5', accountId = 'm7') => ({
  kind: 'hosting-sub' as const,
  params: { accountId, orderId, amount },
});
const redeem = (orderId = '12', accountId = 'm7') => ({
  kind: 'hosting-redeem' as const,
  params: { accountId, orderId },
});

describe.each(COMMAND_STORAGES)('hosting commands in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage, { subAccount: true });
  const { network, loggedIn, stored } = world;

  describe('an order (hosting-create)', () => {
    test('offline it is refused at enqueue: nothing is stored, nothing is sent', async () => {
      await checks.expectRefusedOffline(world, [order()]);
    });

    test('online it is sent with its key and the amount normalised, confirmed, its trade password then blanked, its account pulled', async () => {
      await checks.expectSentOnline(world, order(), {
        uri: CREATE,
        resource: (id) => `hosting:new:${id}`,
        sent: { accountId: 'm7', productId: '1', amount: '1000.5', tradePassword: 'trade-secret1' },
        confirmed: { accountId: 'm7', productId: '1', amount: '1000.5', tradePassword: '' },
      });
    });

    test('a refusal (300: no trade password) rejects it with the world.server message, its password blanked; it cannot be retried', async () => {
      await checks.expectRejectedForGood(world, order(), {
        uri: CREATE,
        answer: { code: 300, message: 'Set a trade password first' },
        blanked: { tradePassword: '' },
      });
    });

    test('not sent within a minute of the user acting it expires, never sent, its trade password blanked', async () => {
      await checks.expectExpiresAfterAMinute(world, order(), CREATE, { tradePassword: '' });
    });

    test('an amount with 3 decimals or a product id that is not one is refused at enqueue naming the field', async () => {
      const engine = await loggedIn();
      await checks.expectInvalid(engine, order({ amount: '1.001' }), 'amount');
      await checks.expectInvalid(engine, order({ productId: '1; drop' }), 'productId');
    });
  });

  describe('an increase, a decrease, a redeem', () => {
    test('offline they are queued with the hour of a money command, and sent once online naming the order only', async () => {
      const engine = await loggedIn();
      network.online = false;
      const ids: string[] = [];
      for (const command of [add(), sub(), redeem()]) {
        const id = await checks.enqueued(engine, command);
        ids.push(id);
        expect(await stored(id)).toMatchObject({
          state: 'queued',
          resource: 'hosting:order:12',
          expiresAtMs: world.clock.now() + MONEY_COMMAND_EXPIRY_MS,
        });
      }
      expect((await engine.drain()).status).toBe('offline');
      expect(world.server.seen).toHaveLength(0);

      network.online = true;
      const drained = await engine.drain();

      expect(drained.confirmed).toEqual(ids);
      expect(world.server.seenOn(ADD).map((call) => call.params)).toEqual([{ orderId: '12', amount: '50' }]);
      expect(world.server.seenOn(SUB).map((call) => call.params)).toEqual([
        { orderId: '12', amount: '20.5' },
      ]);
      expect(world.server.seenOn(REDEEM).map((call) => call.params)).toEqual([{ orderId: '12' }]);
      expect(
        world.server.seen.filter((call) => call.uri !== '/api/v1/sync/pull').map((call) => call.uri),
      ).toEqual([ADD, SUB, REDEEM]);
      expect(drained.pull).toMatchObject({ status: 'done', accountId: 'm7' });
    });

    test('59 minutes after the user acted it is still sent; an hour after, it expires, never sent, and may be retried', async () => {
      const engine = await loggedIn();
      network.online = false;
      const early = await engine.enqueue(add('12'));
      await world.clock.advance(MONEY_COMMAND_EXPIRY_MS - 60_000, 60_000);
      network.online = true;
      expect((await engine.drain()).confirmed).toEqual([early.kind === 'ok' ? early.id : '']);

      network.online = false;
      const late = await checks.enqueued(engine, add('13'));
      await world.clock.advance(MONEY_COMMAND_EXPIRY_MS, 60_000);
      network.online = true;
      expect((await engine.drain()).expired).toEqual([late]);
      expect(world.server.seenOn(ADD).map((call) => call.params['orderId'])).toEqual(['12']);
      expect(await engine.retry(late)).toMatchObject({ kind: 'ok' });
    });

    test('a refused change of an order (409: it ended) holds that order’s later changes back until dismissed; another order’s go', async () => {
      const engine = await loggedIn();
      world.server.refuse = (call) =>
        call.uri === ADD && call.params['orderId'] === '12'
          ? { code: 409, message: 'This hosting order has already ended' }
          : null;
      const refused = await engine.enqueue(add('12'));
      const held = await engine.enqueue(redeem('12'));
      const other = await engine.enqueue(sub('13'));
      if (refused.kind !== 'ok' || held.kind !== 'ok' || other.kind !== 'ok') throw new Error('refused');

      const drained = await engine.drain();

      expect(drained.rejected).toEqual([refused.id]);
      expect(drained.confirmed).toEqual([other.id]);
      expect(drained.heldBack).toEqual([held.id]);
      expect(await stored(refused.id)).toMatchObject({
        state: 'rejected',
        answer: { code: 409, message: 'This hosting order has already ended' },
      });

      expect(await engine.dismiss(refused.id)).toEqual({ kind: 'ok' });
      expect((await engine.drain()).confirmed).toEqual([held.id]);
    });

    test('confirmed after the user switched to another account, the order’s account is pulled too', async () => {
      const engine = await loggedIn();
      await engine.catchUp();
      network.online = false;
      expect((await engine.enqueue(add('12', '5', 'm7'))).kind).toBe('ok');
      await engine.selectAccount('s7');
      network.online = true;

      const drained = await engine.drain();

      expect(drained.pull).toMatchObject({ accountId: 's7' });
      expect(drained.accountPulls.map((summary) => summary.accountId)).toEqual(['m7']);
    });
  });
});
