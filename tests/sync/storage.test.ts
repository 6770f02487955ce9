/**
 * The client's databases as CONTRACT.md names them, declared from SYNC_COLLECTIONS; the
 * storage promises both twins keep; logout's local part.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SYNC_COLLECTIONS } from '../../contract/sync.js';
import type { OutboxRecord } from '../../worker/commands.js';
import {
  accountDbName,
  openUserDb,
  PUBLIC_DB_NAME,
  ACCOUNT_DB_STORES,
  PUBLIC_DB_STORES,
  USER_DB_STORES,
  userDbName,
} from '../../client-db/schema.js';
import { DexieSyncStorage } from '../../sync/dexie-storage.js';
import { commandRegistry } from '../../worker/commands.js';
import { discardUserData, pendingCountOf } from '../../sync/logout.js';
import { MemorySyncStorage } from '../../sync/memory-storage.js';
import { requestPersistentStorage } from '../../sync/persist.js';
import type { SyncStorage } from '../../sync/storage.js';
import { deleteAllDatabases, FakeServer, login, newsRecord, tab } from './helpers.js';

let dexie: DexieSyncStorage;

beforeEach(async () => {
  await deleteAllDatabases();
  dexie = new DexieSyncStorage(commandRegistry);
});

afterEach(() => dexie.close());

function command(id: string, overrides: Partial<OutboxRecord> = {}): OutboxRecord {
  const base = {
    id,
    resource: 'profile.nickname',
    state: 'queued' as const,
    seq: 0,
    createdAtMs: 1,
    expiresAtMs: 2,
    updatedAtMs: 1,
    attempts: 0,
    lastError: null,
    answer: null,
    retriedAs: null,
    dismissed: false,
  };
  return { ...base, kind: 'profile-nickname', params: { nickname: id }, ...overrides } as OutboxRecord; // a test fixture: overrides keep kind and params together
}

describe('the databases', () => {
  test('are named as CONTRACT.md says: coffer-public, coffer-u{user}, coffer-u{user}-a{account}', () => {
    expect(PUBLIC_DB_NAME).toBe('coffer-public');
    expect(userDbName('42')).toBe('coffer-u42');
    expect(accountDbName('42', '3')).toBe('coffer-u42-a3');
  });

  test('declare every collection of SYNC_COLLECTIONS in the database of its scope, with its index, plus cursors (and the outbox, the cached withdrawal methods, hosting products, team answers, proof of reserves and the chat state and images for the user, the cached deposit addresses for an account)', () => {
    const collectionsOf = (scope: 'public' | 'user' | 'account') =>
      Object.fromEntries(
        Object.entries(SYNC_COLLECTIONS)
          .filter(([, spec]) => spec.scope === scope)
          .map(([name, spec]) => [name, spec.index]),
      );
    expect(Object.keys(collectionsOf('public'))).toEqual(
      expect.arrayContaining(['news', 'notices', 'quotes', 'prices']),
    );
    expect(PUBLIC_DB_STORES).toEqual({ ...collectionsOf('public'), cursors: 'collection' });
    expect(USER_DB_STORES).toEqual({
      ...collectionsOf('user'),
      cursors: 'collection',
      outbox: 'id, seq, state, resource',
      meta: 'id',
      paymentMethods: 'id, createdAt',
      hostingConfig: 'id',
      teamCache: 'id',
      reservesProof: 'id',
      chatState: 'id',
      chatImages: 'url, fetchedAtMs',
    });
    expect(ACCOUNT_DB_STORES).toEqual({
      ...collectionsOf('account'),
      cursors: 'collection',
      depositAddresses: 'chain',
    });
  });

  test('a row another version wrote in another shape reads as absent', async () => {
    const db = openUserDb('7');
    await db.table('outbox').put({ id: 'odd', state: 'queued', seq: 1 });
    await db.table('cursors').put({ collection: 'profile', cursor: 'not a cursor', syncedAt: null });
    const { outbox, sync } = dexie.userStores('7');
    expect(await outbox.all()).toEqual([]);
    expect(await outbox.countPending()).toBe(0);
    expect((await sync.readCursors()).get('profile')).toEqual({ cursor: null, syncedAt: null });
    db.close();
  });
});

describe.each([
  ['IndexedDB', (): SyncStorage => dexie],
  ['the in-memory twin', (): SyncStorage => new MemorySyncStorage()],
] as const)('the outbox store on %s', (_name, storage) => {
  test('add numbers commands in order and refuses past the limit', async () => {
    const store = storage().userStores('7').outbox;
    expect(await store.add(command('a'), 2)).toBe('added');
    expect(await store.add(command('b'), 2)).toBe('added');
    expect(await store.add(command('c'), 2)).toBe('full');
    expect((await store.all()).map((record) => [record.id, record.seq])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  test('a retry takes its original place in the order, once', async () => {
    const store = storage().userStores('7').outbox;
    await store.add(command('a', { state: 'rejected' }), 5);
    await store.add(command('b'), 5);
    expect(await store.add(command('a2'), 5, { id: 'a', states: ['rejected'] })).toBe('added');
    expect(await store.add(command('a3'), 5, { id: 'a', states: ['rejected'] })).toBe('stale');
    expect((await store.all()).map((record) => [record.id, record.seq, record.retriedAs])).toEqual([
      ['a', 1, 'a2'],
      ['a2', 1, null],
      ['b', 2, null],
    ]);
  });

  test('a transition happens only from the states it names', async () => {
    const store = storage().userStores('7').outbox;
    await store.add(command('a'), 5);
    expect(
      await store.transition('a', ['sending'], (record) => ({ ...record, state: 'confirmed' })),
    ).toBeNull();
    expect(
      await store.transition('a', ['queued'], (record) => ({ ...record, state: 'sending' })),
    ).toMatchObject({ state: 'sending' });
    expect(await store.get('a')).toMatchObject({ state: 'sending' });
  });

  test('the lease is claimed only when the condition holds', async () => {
    const store = storage().userStores('7').outbox;
    expect(await store.claimLease('tab-a', 10, (current) => current === null)).toBe(true);
    expect(await store.claimLease('tab-b', 11, (current) => current === null)).toBe(false);
    expect(await store.readLease()).toEqual({ id: 'lease', owner: 'tab-a', beatAtMs: 10 });
  });
});

describe('logout', () => {
  test("counts the pending commands, cancels them, then deletes the user's databases (and only theirs)", async () => {
    const server = new FakeServer();
    const { engine, session } = tab({ server, storage: dexie });
    await login(server, session, '7', 'tok-7');
    await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    await engine.enqueue({ kind: 'profile-avatar', params: { avatar: '/avatars/1.png' } });
    await dexie
      .publicStore()
      .applyPage(
        [{ name: 'news', basedOn: null, upserts: [newsRecord('1')], deletes: [], cursor: '0.1' }],
        null,
      );
    const account = new Dexie(accountDbName('7', '1'));
    account.version(1).stores({ balances: 'id' });
    await account.open();
    account.close();
    const neighbour = openUserDb('70');
    await neighbour.open();
    neighbour.close();

    expect(await engine.pendingCount()).toBe(2);
    expect(await pendingCountOf(dexie, '7')).toBe(2);
    expect(await engine.discardUserData()).toEqual({ userId: '7', cancelled: 2 });
    expect((await Dexie.getDatabaseNames()).sort()).toEqual([PUBLIC_DB_NAME, userDbName('70')].sort());
    expect(server.seen).toHaveLength(0);
  });

  test('after the discard, the session on its way out counts as logged out: no run reopens its databases', async () => {
    const server = new FakeServer();
    const { engine, session } = tab({ server, storage: dexie });
    await login(server, session, '7', 'tok-7');
    await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    await engine.discardUserData();
    expect((await engine.drain()).status).toBe('logged_out');
    expect((await engine.pull()).userId).toBeNull();
    expect(await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } })).toEqual({
      kind: 'refused',
      reason: 'not_logged_in',
    });
    expect(await Dexie.getDatabaseNames()).toEqual([PUBLIC_DB_NAME]);

    await login(server, session, '7', 'tok-7-again');
    expect(await engine.pendingCount()).toBe(0);
    expect((await engine.pull()).userId).toBe('7');
  });

  test('marks the pending commands cancelled before deleting, so nothing is sent even if deletion waits', async () => {
    const storage = new MemorySyncStorage();
    const outbox = storage.userStores('7').outbox;
    await outbox.add(command('a'), 5);
    let seenWhenDeleting: string[] = [];
    const watching: SyncStorage = {
      publicStore: () => storage.publicStore(),
      userStores: (userId) => storage.userStores(userId),
      accountStore: (userId, accountId) => storage.accountStore(userId, accountId),
      deleteUser: async (userId) => {
        seenWhenDeleting = (await storage.userStores(userId).outbox.all()).map((record) => record.state);
        await storage.deleteUser(userId);
      },
    };
    expect(await discardUserData(watching, '7', 5)).toEqual({ cancelled: 1 });
    expect(seenWhenDeleting).toEqual(['cancelled']);
    expect(storage.users.has('7')).toBe(false);
  });
});

describe('persistent storage', () => {
  test('is asked for where the browser offers it, and is a no-op (null) where it does not', async () => {
    let asked = 0;
    expect(await requestPersistentStorage({ persist: async () => (asked++, true) })).toBe(true);
    expect(asked).toBe(1);
    expect(await requestPersistentStorage({})).toBeNull();
    expect(await requestPersistentStorage(undefined)).toBeNull();
    expect(await requestPersistentStorage({ persist: () => Promise.reject(new Error('no')) })).toBeNull();
  });

  test('the engine asks once a user is logged in, again only for another user', async () => {
    const server = new FakeServer();
    let asked = 0;
    const persist = async () => (asked++, true);
    const { engine, session } = tab({ server, storage: new MemorySyncStorage(), environment: { persist } });
    await engine.status();
    expect(asked).toBe(0);
    await login(server, session, '7', 'tok-7');
    await engine.status();
    await engine.pull();
    expect(asked).toBe(1);
    await login(server, session, '8', 'tok-8');
    await engine.status();
    expect(asked).toBe(2);
  });
});
