/**
 * The OTC market's outbox commands: listing a buy or a sell order and taking an order
 * carry the price the user saw and the trade password, so they are sent only while online,
 * expire a minute after the user acted and keep the password only until they settle; a take
 * refused because the order changed (409) holds nothing back and cannot be retried. A cancel
 * carries neither: it waits for the network for up to an hour and goes in order with the
 * order's other cancels. On IndexedDB and on the in-memory twin. Also the public database's
 * upgrade to version 13, which pulls the book again with each order's taker fee rate.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { beforeEach, describe, expect, test } from 'vitest';
import { MONEY_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import { openPublicDb, PUBLIC_DB_NAME, PUBLIC_DB_STORES, SYNC_DB_VERSION } from '../../client-db/schema.js';
import * as checks from './command-checks.js';
import { deleteAllDatabases, COMMAND_STORAGES, commandOf, commandWorld } from './helpers.js';

const BUY = '/api/v1/otc/buy';
const SELL = '/api/v1/otc/sell';
const TAKE = '/api/v1/otc/take';
const CANCEL = '/api/v1/otc/cancel';

const listing = (kind: 'otc-buy' | 'otc-sell', overrides: Record<string, unknown> = {}) =>
  commandOf(kind, { volume: '10.50', price: '0.500000', splittable: 'true', tradePassword: 'trade-secret1' })(
    overrides,
  );

const take = commandOf('otc-take', {
  orderId: '41',
  side: 'buy',
  volume: '3',
  price: '0.5',
  received: '1.497',
  tradePassword: 'trade-secret1',
});

const cancel = (orderId = '41') => ({ kind: 'otc-cancel' as const, params: { accountId: 'm7', orderId } });

describe.each(COMMAND_STORAGES)('the OTC commands in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);
  const { network, loggedIn, stored } = world;

  test('offline a listing or a take is refused at enqueue (it carries a price the user saw): nothing stored, nothing sent', async () => {
    await checks.expectRefusedOffline(world, [listing('otc-buy'), listing('otc-sell'), take()]);
  });

  test('a volume with 3 decimals, a price of letters or a splittable of "maybe" is refused at enqueue naming the field', async () => {
    const engine = await loggedIn();
    for (const [field, value] of [
      ['volume', '1.001'],
      ['price', 'abc'],
      ['splittable', 'maybe'],
    ] as const) {
      await checks.expectInvalid(engine, listing('otc-buy', { [field]: value }), field);
    }
    expect(await engine.enqueue(take({ volume: '0' }))).toMatchObject({
      reason: 'invalid_input',
      field: 'volume',
    });
  });

  test.each([
    ['otc-buy', BUY],
    ['otc-sell', SELL],
  ] as const)(
    'online %s is sent to its route with its key, volume and price normalised and splittable a boolean; confirmed, its trade password blanked, its account pulled',
    async (kind, uri) => {
      await checks.expectSentOnline(world, listing(kind), {
        uri,
        resource: (id) => `otc:new:${id}`,
        sent: {
          accountId: 'm7',
          volume: '10.5',
          price: '0.5',
          splittable: true,
          tradePassword: 'trade-secret1',
        },
        confirmed: { volume: '10.5', price: '0.5', splittable: true, tradePassword: '' },
      });
    },
  );

  test('a take sends the order, the volume and the price seen, never the side or the amount shown; refused as changed (409) it cannot be retried and holds nothing back', async () => {
    await checks.expectRejectedForGood(
      world,
      take(),
      {
        uri: TAKE,
        when: ['price', '0.5'],
        answer: { code: 409, message: 'This order has changed (now completed). Nothing was traded' },
        blanked: { side: 'buy', received: '1.497', tradePassword: '' },
      },
      take({ price: '0.51' }),
    );
    expect(world.server.seenOn(TAKE)[0]?.params).toEqual({
      accountId: 'm7',
      orderId: '41',
      volume: '3',
      price: '0.5',
      tradePassword: 'trade-secret1',
    });
  });

  test('a listing not sent within a minute of the user acting expires, never sent, its trade password blanked', async () => {
    await checks.expectExpiresAfterAMinute(world, listing('otc-sell'), SELL, { tradePassword: '' });
  });

  test('a cancel waits offline and is sent (the order id only) once the link is back, within the hour of a money command', async () => {
    const engine = await loggedIn();
    network.online = false;
    const id = await checks.enqueued(engine, cancel());
    expect(await stored(id)).toMatchObject({
      state: 'queued',
      resource: 'otc:order:41',
      expiresAtMs: world.clock.now() + MONEY_COMMAND_EXPIRY_MS,
    });
    expect((await engine.drain()).status).toBe('offline');

    network.online = true;
    const drained = await engine.drain();
    expect(drained.confirmed).toEqual([id]);
    expect(world.server.seenOn(CANCEL)).toEqual([
      { uri: CANCEL, key: id, token: 'tok-7', params: { orderId: '41' } },
    ]);
    expect(drained.pull).toMatchObject({ status: 'done', accountId: 'm7' });
  });
});

describe('the public database upgraded past version 13', () => {
  beforeEach(deleteAllDatabases);

  test('an otc_book saved by version 12 (without takerFeeRate) is emptied and its cursor forgotten, so the book is pulled whole again; the other collections stay', async () => {
    expect(SYNC_DB_VERSION).toBeGreaterThanOrEqual(13);
    const old = new Dexie(PUBLIC_DB_NAME);
    old.version(12).stores(PUBLIC_DB_STORES);
    await old
      .table('otc_book')
      .put({ id: '5', side: 'buy', price: '0.5', createdAt: '2026-01-05T02:00:00.000Z' });
    await old.table('news').put({ id: '1', createdAt: '2026-01-05T02:00:00.000Z' });
    await old.table('cursors').bulkPut([
      { collection: 'otc_book', cursor: '9', syncedAt: null },
      { collection: 'news', cursor: '3', syncedAt: null },
    ]);
    old.close();

    const db = openPublicDb();
    expect(await db.otc_book.count()).toBe(0);
    expect(await db.cursors.get('otc_book')).toBeUndefined();
    expect(await db.cursors.get('news')).toMatchObject({ cursor: '3' });
    expect(await db.news.count()).toBe(1);
    db.close();
  });

  test('a book saved by version 13 (with takerFeeRate) is kept by the later versions: the emptying was for version 12 only', async () => {
    const old = new Dexie(PUBLIC_DB_NAME);
    old.version(13).stores(PUBLIC_DB_STORES);
    await old
      .table('otc_book')
      .put({ id: '5', side: 'buy', price: '0.5', createdAt: '2026-01-05T02:00:00.000Z' });
    await old.table('cursors').put({ collection: 'otc_book', cursor: '9', syncedAt: null });
    old.close();

    const db = openPublicDb();
    expect(await db.otc_book.count()).toBe(1);
    expect(await db.cursors.get('otc_book')).toMatchObject({ cursor: '9' });
    db.close();
  });
});
