/**
 * Pull by cursor into IndexedDB (fake-indexeddb): records land with their cursor in one
 * transaction, tombstones delete, `hasMore` loops, each user has a database of their own.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import {
  openPublicDb,
  openUserDb,
  PUBLIC_COLLECTIONS,
  PUBLIC_DB_NAME,
  USER_COLLECTIONS,
  userDbName,
  type UserDb,
} from '../../client-db/schema.js';
import { DexieSyncStorage } from '../../sync/dexie-storage.js';
import type { CollectionPage, SyncStorage } from '../../sync/storage.js';
import { commandRegistry } from '../../worker/commands.js';
import { MemorySessionStore } from '../../worker/session.js';
import type { FakeClock, FakeServer } from './helpers.js';
import { dexieWorldEachTest, feedbackRecord, login, newsRecord, profileRecord, tab } from './helpers.js';
import { Dexie } from 'dexie';

let server: FakeServer;
let clock: FakeClock;
let storage: DexieSyncStorage;
const keep = dexieWorldEachTest((world) => ({ server, clock, storage } = world));

/** A UI-side handle on a database, as `useLiveQuery` would read it. */
function publicDb() {
  return keep(openPublicDb());
}
/** `storage` with `onApply` run as each page of its public database starts being written. */
function watchedStorage(
  storage: DexieSyncStorage,
  onApply: (pages: readonly CollectionPage[], syncedAt: string | null) => unknown,
): SyncStorage {
  return {
    publicStore: () => {
      const store = storage.publicStore();
      return {
        collections: store.collections,
        readCursors: () => store.readCursors(),
        readRecords: (name) => store.readRecords(name),
        applyPage: async (pages, syncedAt) => {
          await onApply(pages, syncedAt);
          return store.applyPage(pages, syncedAt);
        },
      };
    },
    userStores: (userId) => storage.userStores(userId),
    accountStore: (userId, accountId) => storage.accountStore(userId, accountId),
    deleteUser: (userId) => storage.deleteUser(userId),
  };
}
function userDb(userId: string): UserDb {
  return keep(openUserDb(userId));
}

const PULL = '/api/v1/sync/pull';

describe('pull', () => {
  test('without a session only the public collections are asked for and written, with no token', async () => {
    server.change('news', '0', '1', newsRecord('1'));
    const { engine } = tab({ server, storage, clock });
    const summary = await engine.pull();
    expect(summary).toMatchObject({
      status: 'done',
      userId: null,
      pages: 1,
      applied: { news: { upserts: 1, deletes: 0 } },
    });
    expect(server.seenOn(PULL)[0]).toMatchObject({ token: null, params: { cursors: {} } });
    expect(await publicDb().news.toArray()).toEqual([newsRecord('1')]);
    expect(await Dexie.getDatabaseNames()).toEqual([PUBLIC_DB_NAME]);
  });

  test('records land with their cursor, and the next pull asks from that cursor', async () => {
    server.change('news', '0', '1', newsRecord('1'));
    server.change('notices', '0', 'n1', {
      id: 'n1',
      text: 'Maintenance',
      lang: null,
      updatedAt: '2026-01-05T02:00:00.000Z',
    });
    const { engine, session } = tab({ server, storage, clock });
    await login(server, session, '7', 'tok-7');
    server.change('profile', '7', '7', profileRecord('7'));

    await engine.pull();
    const cursors = Object.fromEntries(
      (await publicDb().cursors.toArray()).map((row) => [row.collection, row.cursor]),
    );
    // Every public collection has its cursor; those with nothing new stay at the start.
    expect(cursors).toEqual({
      ...Object.fromEntries(PUBLIC_COLLECTIONS.map((name) => [name, '0.0'])),
      news: '0.1',
      notices: '0.2',
    });
    expect(await userDb('7').cursors.get('profile')).toMatchObject({ cursor: '0.3' });
    expect(await userDb('7').profile.get('7')).toEqual(profileRecord('7'));

    server.change('news', '0', '2', newsRecord('2'));
    const second = await engine.pull();
    // The public and user collections are pulled together; only news has something new.
    const pulled = [...PUBLIC_COLLECTIONS, ...USER_COLLECTIONS];
    expect(server.seenOn(PULL)[1]?.params).toEqual({
      cursors: {
        ...Object.fromEntries(pulled.map((name) => [name, '0.0'])),
        news: '0.1',
        notices: '0.2',
        profile: '0.3',
      },
    });
    expect(second.applied).toEqual({
      ...Object.fromEntries(pulled.map((name) => [name, { upserts: 0, deletes: 0 }])),
      news: { upserts: 1, deletes: 0 },
    });
    expect(await publicDb().news.count()).toBe(2);
  });

  test('a tombstone deletes the record', async () => {
    server.change('news', '0', '1', newsRecord('1'));
    server.change('news', '0', '2', newsRecord('2'));
    const { engine } = tab({ server, storage, clock });
    await engine.pull();
    server.change('news', '0', '1', null, true);
    expect((await engine.pull()).applied.news).toEqual({ upserts: 0, deletes: 1 });
    expect((await publicDb().news.toArray()).map((record) => record.id)).toEqual(['2']);
  });

  test('hasMore loops until caught up, and only the page that catches up writes syncedAt', async () => {
    server.pageSize = 2;
    for (let n = 1; n <= 5; n++) server.change('news', '0', String(n), newsRecord(String(n)));
    const { engine } = tab({ server, storage, clock });
    const summary = await engine.pull();
    expect(summary).toMatchObject({
      status: 'done',
      pages: 3,
      applied: { news: { upserts: 5, deletes: 0 } },
    });
    expect(await publicDb().news.count()).toBe(5);
    expect(await publicDb().cursors.get('news')).toEqual({
      collection: 'news',
      cursor: '0.5',
      syncedAt: new Date(clock.now()).toISOString(),
    });
    expect(await engine.status()).toMatchObject({ syncedAt: { news: new Date(clock.now()).toISOString() } });
  });

  test('the page bound stops a pull (status more, syncedAt unchanged); the next pull carries on', async () => {
    server.pageSize = 1;
    for (let n = 1; n <= 3; n++) server.change('news', '0', String(n), newsRecord(String(n)));
    const { engine } = tab({ server, storage, clock, environment: { maxPullPages: 2 } });
    expect(await engine.pull()).toMatchObject({ status: 'more', pages: 2 });
    expect(await publicDb().cursors.get('news')).toEqual({
      collection: 'news',
      cursor: '0.2',
      syncedAt: null,
    });
    expect(await engine.pull()).toMatchObject({ status: 'done', pages: 1 });
    expect(await publicDb().news.count()).toBe(3);
  });

  test('while a page is written, the next is already asked for, from the cursor that page ends on', async () => {
    server.pageSize = 2;
    for (let n = 1; n <= 5; n++) server.change('news', '0', String(n), newsRecord(String(n)));
    const asked: number[] = [];
    // How many pages the server had been asked for once each write was under way (a macrotask in).
    const watched = watchedStorage(storage, async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      asked.push(server.seenOn(PULL).length);
    });
    const { engine } = tab({ server, storage: watched, clock });
    expect(await engine.pull()).toMatchObject({ status: 'done', pages: 3 });
    // Pages 1 and 2 were written with the page after them already asked for; page 3 is the last.
    expect(asked).toEqual([2, 3, 3]);
    expect(server.seenOn(PULL).map((call) => call.params)).toMatchObject([
      { cursors: {} },
      { cursors: { news: '0.2' } },
      { cursors: { news: '0.4' } },
    ]);
    expect(await publicDb().news.count()).toBe(5);
    expect(await publicDb().cursors.get('news')).toMatchObject({ cursor: '0.5' });
  });

  test('a page that raced drops the page asked for after it and asks again from the stored cursors', async () => {
    server.pageSize = 2;
    for (let n = 1; n <= 5; n++) server.change('news', '0', String(n), newsRecord(String(n)));
    const otherTab = new DexieSyncStorage(commandRegistry);
    let first = true;
    const racing = watchedStorage(storage, async (pages, syncedAt) => {
      // Another tab writes the same first page (with a record of its own) just before this one.
      if (!first) return;
      first = false;
      const theirs = pages.map((page) => ({ ...page, upserts: [...page.upserts, newsRecord('t')] }));
      await otherTab.publicStore().applyPage(theirs, syncedAt);
    });
    const { engine } = tab({ server, storage: racing, clock });
    expect(await engine.pull()).toMatchObject({ status: 'done' });
    // Page 1 raced: the page asked from its cursor was dropped and page 2 asked again from the store.
    expect(server.seenOn(PULL).map((call) => call.params)).toMatchObject([
      { cursors: {} },
      { cursors: { news: '0.2' } },
      { cursors: { news: '0.2' } },
      { cursors: { news: '0.4' } },
    ]);
    expect((await publicDb().news.toArray()).map((record) => record.id).sort()).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      't',
    ]);
    expect(await publicDb().cursors.get('news')).toMatchObject({ cursor: '0.5' });
    otherTab.close();
  });

  test('a catch-up (start, reconnect, focus) pulls bounded pull after bounded pull until caught up', async () => {
    server.pageSize = 1;
    for (let n = 1; n <= 7; n++) server.change('news', '0', String(n), newsRecord(String(n)));
    const { engine } = tab({ server, storage, clock, environment: { maxPullPages: 2 } });
    expect(await engine.catchUp()).toMatchObject({ status: 'done' });
    expect(await publicDb().news.count()).toBe(7);
    expect(server.seenOn('/api/v1/sync/pull')).toHaveLength(7); // one page each; the last says hasMore false
  });

  test('a failure mid-apply writes neither the records nor the cursor', async () => {
    const { session } = tab({ server, storage, clock });
    await login(server, session, '7', 'tok-7');
    server.change('profile', '7', '7', profileRecord('7'));
    server.change('feedback', '7', '1', feedbackRecord('1'));
    let failing = true;
    const hooked = new DexieSyncStorage(commandRegistry, {
      userDb: (userId) => {
        const db = openUserDb(userId);
        // The feedback write fails after the profile write, inside the same transaction.
        db.feedback.hook('creating', () => {
          if (failing) throw new Error('disk full');
        });
        return db;
      },
    });
    const { engine } = tab({ server, storage: hooked, clock, session });
    const summary = await engine.pull();
    expect(summary).toMatchObject({ status: 'failed', failure: { kind: 'storage' } });
    expect(await userDb('7').profile.count()).toBe(0);
    expect(await userDb('7').feedback.count()).toBe(0);
    expect(await userDb('7').cursors.count()).toBe(0);

    failing = false;
    expect(await engine.pull()).toMatchObject({ status: 'done' });
    expect(await userDb('7').profile.count()).toBe(1);
    expect(await userDb('7').feedback.count()).toBe(1);
    hooked.close();
  });

  test('a transport failure or a refusal leaves records and cursors as they were', async () => {
    server.change('news', '0', '1', newsRecord('1'));
    server.fault = () => 'network';
    const { engine } = tab({ server, storage, clock });
    expect(await engine.pull()).toMatchObject({
      status: 'failed',
      failure: { kind: 'transport', status: null },
    });
    expect(await publicDb().cursors.count()).toBe(0);
    expect(await publicDb().news.count()).toBe(0);
  });

  test('a record its schema refuses is dropped and reported; the rest of the page lands and the cursor advances', async () => {
    server.change('news', '0', '1', newsRecord('1'));
    server.change('news', '0', '2', { id: '2', title: 42 });
    const { engine } = tab({ server, storage, clock });
    const summary = await engine.pull();
    expect(summary.dropped).toEqual([
      { collection: 'news', id: '2', issue: expect.stringContaining('title') },
    ]);
    expect((await publicDb().news.toArray()).map((record) => record.id)).toEqual(['1']);
    expect(await publicDb().cursors.get('news')).toMatchObject({ cursor: '0.2' });
  });

  test("another user's records go to that user's database only", async () => {
    const session = new MemorySessionStore();
    const { engine } = tab({ server, storage, clock, session });
    await login(server, session, '7', 'tok-7');
    server.change('profile', '7', '7', profileRecord('7'));
    server.change('feedback', '7', '1', feedbackRecord('1'));
    server.change('profile', '8', '8', profileRecord('8'));
    await engine.pull();

    await login(server, session, '8', 'tok-8');
    const summary = await engine.pull();
    expect(summary.userId).toBe('8');
    expect(await userDb('8').profile.toArray()).toEqual([profileRecord('8')]);
    expect(await userDb('8').feedback.count()).toBe(0);
    expect(await userDb('7').profile.toArray()).toEqual([profileRecord('7')]);
    expect((await Dexie.getDatabaseNames()).sort()).toEqual(
      [PUBLIC_DB_NAME, userDbName('7'), userDbName('8')].sort(),
    );
  });

  test('collections the answer names but no database here holds are ignored and reported', async () => {
    server.extraPullData = {
      changes: { balances: { upserts: [{ id: 'x' }], deletes: [] } },
      cursors: { balances: '1.1' },
    };
    const { engine } = tab({ server, storage, clock });
    expect(await engine.pull()).toMatchObject({ status: 'done', ignored: ['balances'] });
  });
});

describe('the cursor compare-and-set', () => {
  test('a page based on a cursor another tab already moved writes nothing and is reported raced', async () => {
    const store = storage.publicStore();
    await store.applyPage(
      [
        {
          name: 'news',
          basedOn: null,
          upserts: [newsRecord('1', { title: 'newer' })],
          deletes: [],
          cursor: '0.5',
        },
      ],
      null,
    );
    const late = await store.applyPage(
      [
        {
          name: 'news',
          basedOn: null,
          upserts: [newsRecord('1', { title: 'older' })],
          deletes: [],
          cursor: '0.3',
        },
      ],
      null,
    );
    expect(late).toEqual({ applied: [], raced: ['news'] });
    expect(await publicDb().news.get('1')).toMatchObject({ title: 'newer' });
    expect(await publicDb().cursors.get('news')).toMatchObject({ cursor: '0.5' });
  });
});
