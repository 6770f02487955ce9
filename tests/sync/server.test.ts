/**
 * The sync engine through the worker's handlers against the real server (PGlite): its fetch goes
 * to Fastify's inject, answers can be lost after the server acted, and the effect is counted in
 * the server's own tables.
 */
import 'fake-indexeddb/auto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { feedback, uploads } from '../../server/db/schema.js';
import { openAccountDb, openUserDb } from '../../client-db/schema.js';
import { DexieSyncStorage } from '../../sync/dexie-storage.js';
import { commandRegistry } from '../../worker/commands.js';
import { MemoryLocks } from '../../sync/lease.js';
import { createHandlers } from '../../worker/handlers/index.js';
import { MemorySessionStore } from '../../worker/session.js';
import { operatorToken } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { deleteAllDatabases, FakeClock, pngBlob } from './helpers.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer('pglite');
});

afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  await deleteAllDatabases();
});

/**
 * A fetch into the server in-process, multipart bodies included. `loseAnswers(uri)` says whether
 * to drop the answer to a call of `uri` after the server ran it.
 */
function serverFetch(loseAnswer: (uri: string) => boolean = () => false) {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const target = input instanceof Request ? input.url : input.toString();
    const request = new Request(new URL(target, 'http://coffer.test'), init);
    const url = new URL(request.url);
    calls.push(url.pathname);
    const headers = Object.fromEntries(request.headers.entries());
    const payload = Buffer.from(await request.arrayBuffer());
    const response = await t.server.app.inject({
      method: request.method === 'GET' ? 'GET' : 'POST',
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress: '203.0.113.90',
      ...(request.method === 'GET' ? {} : { payload }),
    });
    if (loseAnswer(url.pathname)) throw new TypeError('fetch failed'); // the answer was lost on the way back
    return new Response(response.body, {
      status: response.statusCode,
      headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') },
    });
  };
  return { fetch, calls };
}

/** A worker (its whole handler map) over the given fetch, session and IndexedDB handles. */
function worker(fetch: typeof globalThis.fetch, session: MemorySessionStore, storage: DexieSyncStorage) {
  const clock = new FakeClock(t.clock.now().getTime());
  return createHandlers({
    transport: {
      mode: 'plain',
      gatewayPath: '/api/gw',
      fetch,
      nowSeconds: () => t.clock.now().getTime() / 1000,
    },
    session,
    queue: { sleep: async () => undefined },
    sync: {
      storage,
      locks: new MemoryLocks(),
      clock,
      timers: clock.timers(),
      online: () => true,
      onOnline: () => () => undefined,
      persist: async () => null,
    },
  });
}

async function feedbackRowsOf(userId: string): Promise<number> {
  const [row] = await t.server.database.db
    .select({ n: count() })
    .from(feedback)
    .where(eq(feedback.userId, Number(userId)));
  return row?.n ?? -1;
}

async function uploadRowsOf(userId: string): Promise<number> {
  const [row] = await t.server.database.db
    .select({ n: count() })
    .from(uploads)
    .where(and(eq(uploads.ownerUserId, Number(userId))));
  return row?.n ?? -1;
}

describe('the outbox against the real server', () => {
  test('the worker exposes the sync and outbox handlers', () => {
    const handlers = worker(
      serverFetch().fetch,
      new MemorySessionStore(),
      new DexieSyncStorage(commandRegistry),
    );
    for (const name of [
      'sync-pull',
      'sync-status',
      'sync-start',
      'outbox-enqueue',
      'outbox-cancel',
      'outbox-retry',
      'outbox-dismiss',
      'outbox-drain',
      'logout-pending-count',
      'logout-discard',
    ]) {
      expect(Object.keys(handlers)).toContain(name);
    }
  });

  test('a ticket with an offline image, whose answers were all lost, is resent after a restart and takes effect exactly once', async () => {
    const email = 'outbox.once@example.com';
    const { token, userId } = await t.register('plain', email);
    const session = new MemorySessionStore();
    await session.saveSession({ token, userId, email });

    // First worker: the upload goes through, every answer to the ticket is lost (5 attempts).
    const lossy = serverFetch((uri) => uri === '/api/v1/common/pushFeedback');
    const storage1 = new DexieSyncStorage(commandRegistry);
    const first = worker(lossy.fetch, session, storage1);
    const enqueued = await first['outbox-enqueue']({
      kind: 'feedback-submit',
      params: { title: 'Screen broken', content: 'See the picture', images: [pngBlob()] },
    });
    if (enqueued.kind !== 'ok') throw new Error(`refused: ${JSON.stringify(enqueued)}`);
    const lost = await first['outbox-drain']();
    expect(lost).toMatchObject({ status: 'offline', retryLater: [enqueued.id] });
    expect(lossy.calls.filter((uri) => uri === '/api/v1/common/pushFeedback')).toHaveLength(5);
    expect(await feedbackRowsOf(userId)).toBe(1); // the server did act, once
    storage1.close();

    // The worker restarts: new handles over the same IndexedDB, a network that answers.
    const healthy = serverFetch();
    const storage2 = new DexieSyncStorage(commandRegistry);
    const second = worker(healthy.fetch, session, storage2);
    expect(await second['logout-pending-count']()).toBe(1);
    const sent = await second['outbox-drain']();
    expect(sent).toMatchObject({ status: 'done', confirmed: [enqueued.id] });
    expect(healthy.calls).not.toContain('/api/v1/common/up-img'); // the image already had its URL
    expect(await feedbackRowsOf(userId)).toBe(1);
    expect(await uploadRowsOf(userId)).toBe(1);

    // The pull that followed brought the ticket in, with the uploaded image.
    expect(sent.pull).toMatchObject({ status: 'done', applied: { feedback: { upserts: 1 } } });
    const db = openUserDb(userId);
    const [ticket] = await db.feedback.toArray();
    expect(ticket).toMatchObject({ title: 'Screen broken', status: 'awaiting_reply' });
    expect(ticket?.images).toHaveLength(1);
    expect(ticket?.images[0]).toMatch(/^\/api\/v1\/common\/img\//);
    db.close();

    // Sending the same command again (same key) is a replay: still one ticket.
    expect((await second['outbox-drain']()).confirmed).toEqual([]);
    await t.call(
      'plain',
      '/api/v1/common/pushFeedback',
      { title: 'Screen broken', content: 'See the picture', images: ticket?.images ?? [] },
      { token, key: enqueued.id },
    );
    expect(await feedbackRowsOf(userId)).toBe(1);
    storage2.close();
  });

  test('a nickname change reaches the profile table through the pull; a refused avatar is rejected with the server message', async () => {
    const email = 'outbox.profile@example.com';
    const { token, userId } = await t.register('plain', email);
    const session = new MemorySessionStore();
    await session.saveSession({ token, userId, email });
    await session.setLocale('en');
    const storage = new DexieSyncStorage(commandRegistry);
    const handlers = worker(serverFetch().fetch, session, storage);

    const nickname = await handlers['outbox-enqueue']({
      kind: 'profile-nickname',
      params: { nickname: 'Morpheus' },
    });
    const avatar = await handlers['outbox-enqueue']({
      kind: 'profile-avatar',
      params: { avatar: '/not/an/avatar.png' },
    });
    if (nickname.kind !== 'ok' || avatar.kind !== 'ok') throw new Error('refused');
    const drained = await handlers['outbox-drain']();
    expect(drained).toMatchObject({ confirmed: [nickname.id], rejected: [avatar.id] });

    const db = openUserDb(userId);
    expect(await db.profile.get(userId)).toMatchObject({ nickname: 'Morpheus', email });
    const rejected = await db.outbox.get(avatar.id);
    expect(rejected).toMatchObject({ state: 'rejected', answer: { code: 400 } });
    expect(rejected?.answer?.message).toMatch(/avatar/i);

    const status = await handlers['sync-status']();
    expect(status).toMatchObject({ userId, pending: 0, paused: false });
    expect(status.syncedAt.profile).toEqual(expect.any(String));
    expect(status.syncedAt.news).toEqual(expect.any(String));

    db.close();
    expect(await handlers['logout-discard']()).toEqual({ userId, cancelled: 0 });
    storage.close();
  });

  test('accounts against the real server: a sub-account made offline-first, a transfer queued under the main account and sent after switching, both balances pulled into their own databases', async () => {
    const email = 'outbox.accounts@example.com';
    const { token, userId } = await t.register('plain', email);
    const finance = await operatorToken(t, 'finance.sync@coffer.test', 'finance');
    const session = new MemorySessionStore();
    await session.saveSession({ token, userId, email });
    const storage = new DexieSyncStorage(commandRegistry);
    const handlers = worker(serverFetch().fetch, session, storage);

    await handlers['sync-pull']();
    const mainId = await handlers['account-active']();
    if (mainId === null) throw new Error('no account synced');
    const funded = await t.call<{ status: string }>(
      'plain',
      '/api/admin/ledger/adjust',
      { accountId: mainId, asset: 'USDT', amount: '100', reason: 'test funding' },
      { token: finance, key: newKey(), lang: 'EN' },
    );
    expect(funded.data.status).toBe('applied');

    const created = await handlers['outbox-enqueue']({ kind: 'account-create', params: { name: 'Savings' } });
    if (created.kind !== 'ok') throw new Error(`refused: ${JSON.stringify(created)}`);
    expect(await handlers['outbox-drain']()).toMatchObject({ confirmed: [created.id] });
    const userDb = openUserDb(userId);
    const sub = (await userDb.accounts.toArray()).find((account) => account.kind === 'sub');
    if (sub === undefined) throw new Error('the new sub-account was not pulled');
    expect(sub).toMatchObject({ name: 'Savings', isDefault: false });

    const transfer = await handlers['outbox-enqueue']({
      kind: 'account-transfer',
      params: { fromAccountId: mainId, toAccountId: sub.id, asset: 'USDT', amount: '30.25' },
    });
    if (transfer.kind !== 'ok') throw new Error(`refused: ${JSON.stringify(transfer)}`);
    expect(await handlers['account-select']({ accountId: sub.id })).toMatchObject({ kind: 'ok' });
    const drained = await handlers['outbox-drain']();

    expect(drained).toMatchObject({ confirmed: [transfer.id], pull: { accountId: sub.id } });
    expect(drained.accountPulls.map((summary) => summary.accountId)).toEqual([mainId]);
    const mainDb = openAccountDb(userId, mainId);
    const subDb = openAccountDb(userId, sub.id);
    expect(await mainDb.balances.get(mainId)).toMatchObject({ cash: '69.75' });
    expect(await subDb.balances.get(sub.id)).toMatchObject({ cash: '30.25' });
    expect(await subDb.records.toArray()).toEqual([
      expect.objectContaining({ kind: 'account_transfer', amount: '30.25', asset: 'USDT' }),
    ]);
    const status = await handlers['sync-status']();
    expect(status).toMatchObject({ userId, accountId: sub.id });
    expect(status.syncedAt.balances).toEqual(expect.any(String));

    for (const db of [userDb, mainDb, subDb]) db.close();
    await handlers['logout-discard']();
    storage.close();
  });
});
