/**
 * One sender across tabs: two engines over the same IndexedDB (fake-indexeddb), one Web Locks
 * twin, one clock. A frozen or killed sender is taken over once its heartbeat is stale, and the
 * Idempotency-Key makes the takeover's resend a replay.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DexieSyncStorage } from '../../sync/dexie-storage.js';
import { commandRegistry } from '../../worker/commands.js';
import { LEASE_STALE_AFTER_MS, MemoryLocks, OUTBOX_LOCK_NAME, OutboxLease } from '../../sync/lease.js';
import { MemoryOutboxStore } from '../../sync/memory-storage.js';
import { deleteAllDatabases, FakeClock, FakeServer, login, tab, until } from './helpers.js';

const NAME_UPDATE = '/api/v1/user/name-update';
const AVATAR_UPDATE = '/api/v1/user/avatar-update';

let storages: DexieSyncStorage[] = [];
let server: FakeServer;
let clock: FakeClock;
let locks: MemoryLocks;

beforeEach(async () => {
  await deleteAllDatabases();
  storages = [];
  server = new FakeServer();
  clock = new FakeClock();
  locks = new MemoryLocks();
});

afterEach(() => storages.forEach((storage) => storage.close()));

/** A tab of the same browser: its own handles on the shared IndexedDB, the shared locks and clock. */
async function browserTab(tabLocks = locks) {
  const storage = new DexieSyncStorage(commandRegistry);
  storages.push(storage);
  const t = tab({ server, storage, clock, locks: tabLocks });
  await login(server, t.session, '7', 'tok-7');
  return { ...t, outbox: storage.userStores('7').outbox };
}

/** Two commands; the first one's send reaches the server, which acts, but its answer never comes. */
async function senderStuckMidSend() {
  const first = await browserTab();
  server.fault = (call) =>
    call.uri === NAME_UPDATE && server.seenOn(NAME_UPDATE).length === 1 ? 'hang' : null;
  const stuck = await first.engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
  const rest = await first.engine.enqueue({ kind: 'profile-avatar', params: { avatar: '/avatars/5.png' } });
  if (stuck.kind !== 'ok' || rest.kind !== 'ok') throw new Error('refused');
  void first.engine.drain(); // never settles: the tab dies or freezes mid-send
  await until(() => server.seenOn(NAME_UPDATE).length === 1);
  expect(await first.outbox.get(stuck.id)).toMatchObject({ state: 'sending' });
  return { first, stuck: stuck.id, rest: rest.id };
}

describe('one sender across tabs', () => {
  test("while one tab sends, another tab's drain sends nothing", async () => {
    const { first } = await senderStuckMidSend();
    const second = await browserTab();
    expect(locks.isHeld(OUTBOX_LOCK_NAME)).toBe(true);
    expect((await second.engine.drain()).status).toBe('not_sender');
    await clock.advance(2 * LEASE_STALE_AFTER_MS); // the first tab keeps beating
    expect((await second.engine.drain()).status).toBe('not_sender');
    expect(await second.engine.takeoverIfStale()).toBeNull();
    expect(server.seen).toHaveLength(1);
    first.timers.frozen = true;
  });

  test('a sender frozen mid-send is taken over once its heartbeat is 3 s old; the resend is replayed and the rest sent, once each', async () => {
    const { first, stuck, rest } = await senderStuckMidSend();
    const second = await browserTab();
    first.timers.frozen = true;

    await clock.advance(LEASE_STALE_AFTER_MS - 250);
    expect(await second.engine.takeoverIfStale()).toBeNull();
    expect(server.seen).toHaveLength(1);

    await clock.advance(500);
    const takeover = await second.engine.takeoverIfStale();
    expect(takeover).toMatchObject({ status: 'done', confirmed: [stuck, rest] });
    expect(server.seenOn(NAME_UPDATE).map((call) => call.key)).toEqual([stuck, stuck]);
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
    expect(server.effectsOn(AVATAR_UPDATE)).toHaveLength(1);
    expect(await second.outbox.get(stuck)).toMatchObject({ state: 'confirmed', attempts: 2 });
  });

  test("another tab's scheduler takes a killed sender's work over within seconds", async () => {
    const { first, stuck, rest } = await senderStuckMidSend();
    first.timers.frozen = true; // killed: no more heartbeats, its send never answers
    const second = await browserTab();
    second.engine.start();
    await until(() => server.seenOn('/api/v1/sync/pull').length > 0);
    expect(server.effectsOn(AVATAR_UPDATE)).toHaveLength(0);

    await clock.advance(5_000);
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
    expect(server.effectsOn(AVATAR_UPDATE)).toHaveLength(1);
    expect((await second.outbox.all()).map((record) => [record.id, record.state])).toEqual([
      [stuck, 'confirmed'],
      [rest, 'confirmed'],
    ]);
    await second.engine.stop();
  });

  test('a worker restarted after dying mid-send resends the command with its key once the old heartbeat is stale: one effect', async () => {
    const { first, stuck, rest } = await senderStuckMidSend();
    first.timers.frozen = true;
    // A new worker: the browser let the dead one's lock go.
    const restarted = await browserTab(new MemoryLocks());
    expect((await restarted.engine.drain()).status).toBe('not_sender');
    await clock.advance(LEASE_STALE_AFTER_MS + 250);
    expect((await restarted.engine.drain()).confirmed).toEqual([stuck, rest]);
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
    expect(new Set(server.seenOn(NAME_UPDATE).map((call) => call.key))).toEqual(new Set([stuck]));
  });

  test('a sender gives the lease up after its drain, so the next drain of any tab sends at once', async () => {
    const first = await browserTab();
    const second = await browserTab();
    await first.engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    expect((await first.engine.drain()).confirmed).toHaveLength(1);
    expect(locks.isHeld(OUTBOX_LOCK_NAME)).toBe(false);
    await second.engine.enqueue({ kind: 'profile-avatar', params: { avatar: '/avatars/6.png' } });
    expect((await second.engine.drain()).confirmed).toHaveLength(1);
    expect(await second.engine.takeoverIfStale()).toBeNull();
  });
});

describe('the lease', () => {
  const options = (owner: string, timers = clock.timers()) => ({ locks, clock, timers, owner });

  test('a tab that wakes to find its lease taken over stops being the sender and lets the lock go to the new sender', async () => {
    const store = new MemoryOutboxStore();
    const frozenTimers = clock.timers();
    const a = new OutboxLease(store, options('a', frozenTimers));
    const b = new OutboxLease(store, options('b'));
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);

    frozenTimers.frozen = true;
    await clock.advance(LEASE_STALE_AFTER_MS + 250);
    expect(await b.acquire()).toBe(true); // without the lock: the frozen tab still holds it
    expect(await a.stillMine()).toBe(false);

    frozenTimers.frozen = false;
    await a.beat();
    expect(a.held).toBe(false);
    await until(() => !locks.isHeld(OUTBOX_LOCK_NAME)); // Web Locks let go asynchronously
    await clock.advance(1_000);
    expect(locks.isHeld(OUTBOX_LOCK_NAME)).toBe(true); // b picked the lock up on its heartbeat
    expect(await b.stillMine()).toBe(true);
  });

  test('a released lease is free at once and is not mistaken for an abandoned one', async () => {
    const store = new MemoryOutboxStore();
    const a = new OutboxLease(store, options('a'));
    const b = new OutboxLease(store, options('b'));
    expect(await a.acquire()).toBe(true);
    await a.release();
    expect(await b.abandoned()).toBe(false);
    expect(await b.acquire()).toBe(true);
    expect(await a.abandoned()).toBe(false);
  });
});
