/** `coffer-session` as the worker keeps it (fake-indexeddb), and the 401 rule of spec section 8. */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openSessionDb, type SessionDb } from '../../client-db/session-db.js';
import { createHandlers } from '../../worker/handlers/index.js';
import { DexieSessionStore, MemorySessionStore, type SessionStore } from '../../worker/session.js';
import { fakeApi, ok, refusal, transportFor, userInfo, type Reply, type SeenCall } from './fake-api.js';

let db: SessionDb;

beforeEach(async () => {
  db = openSessionDb();
  await db.open();
});

afterEach(async () => {
  await db.delete();
  db.close();
});

const alice = { token: 'tok-alice', userId: '7', email: 'alice@example.com' };

describe.each([
  ['the Dexie store', () => new DexieSessionStore(db, () => new Date('2026-01-05T02:00:00Z'))],
  ['the in-memory twin', () => new MemorySessionStore()],
] as const)('%s', (_name, makeStore: () => SessionStore) => {
  test('a saved session reads back; clearing it leaves none', async () => {
    const store = makeStore();
    expect(await store.getSession()).toBeNull();
    expect(await store.getToken()).toBeNull();
    await store.saveSession(alice);
    expect(await store.getSession()).toEqual(alice);
    expect(await store.getToken()).toBe('tok-alice');
    await store.clearSession();
    expect(await store.getSession()).toBeNull();
  });

  test('a 401 for an old token does not clear a newer session', async () => {
    const store = makeStore();
    await store.saveSession(alice);
    await store.clearSessionIfToken('tok-older');
    expect(await store.getToken()).toBe('tok-alice');
    await store.clearSessionIfToken('tok-alice');
    expect(await store.getToken()).toBeNull();
  });

  test('the locale is null until chosen, then kept', async () => {
    const store = makeStore();
    expect(await store.getLocale()).toBeNull();
    await store.setLocale('th');
    expect(await store.getLocale()).toBe('th');
  });
});

describe('the Dexie store', () => {
  test("the record is the 'current' row of coffer-session that the UI reads, with savedAt", async () => {
    await new DexieSessionStore(db, () => new Date('2026-01-05T02:00:00Z')).saveSession(alice);
    expect(await db.session.get('current')).toEqual({
      id: 'current',
      ...alice,
      savedAt: '2026-01-05T02:00:00.000Z',
    });
  });

  test('the session and the locale persist across handles (a worker restart)', async () => {
    const first = new DexieSessionStore(db);
    await first.saveSession(alice);
    await first.setLocale('en');
    const reopened = openSessionDb();
    const second = new DexieSessionStore(reopened);
    expect(await second.getSession()).toEqual(alice);
    expect(await second.getLocale()).toBe('en');
    reopened.close();
  });

  test('a stored record of another shape counts as absent', async () => {
    await db.prefs.put({ id: 'prefs', locale: 'klingon' });
    await db.session.put({ id: 'current', token: '', userId: '1', email: 'x@example.com', savedAt: 'now' });
    const store = new DexieSessionStore(db);
    expect(await store.getLocale()).toBeNull();
    expect(await store.getSession()).toBeNull();
  });
});

describe('the 401 rule (spec section 8)', () => {
  const profile = userInfo();

  function handlersWith(script: (call: SeenCall) => Reply) {
    const api = fakeApi('envelope', script);
    const session = new DexieSessionStore(db);
    const handlers = createHandlers({
      transport: transportFor('envelope', api.fetch),
      session,
      queue: { sleep: async () => {} },
    });
    return { handlers, session, seen: api.seen };
  }

  test('a 401 on a call made with a token clears the stored session', async () => {
    const { handlers, session } = handlersWith(() => refusal(401, 'Please log in'));
    await session.saveSession(alice);
    expect(await handlers['user-info']()).toEqual({
      kind: 'refused',
      code: 401,
      message: 'Please log in',
      data: null,
    });
    expect(await db.session.get('current')).toBeUndefined();
    expect(await handlers['session-get']()).toMatchObject({ token: null, userId: null, email: null });
  });

  test('a 401 answered after the user logged in again leaves the new session alone', async () => {
    const api = fakeApi('envelope', () => refusal(401));
    const session = new DexieSessionStore(db);
    const handlers = createHandlers({
      transport: transportFor('envelope', async (input, init) => {
        const response = await api.fetch(input, init);
        // While the old call was out, the user logged in anew.
        await session.saveSession({ ...alice, token: 'tok-new' });
        return response;
      }),
      session,
      queue: { sleep: async () => {} },
    });
    await session.saveSession(alice);
    await handlers['user-info']();
    expect(api.seen[0]?.headers['authorization']).toBe('Bearer tok-alice');
    expect(await session.getToken()).toBe('tok-new');
  });

  test.each([403, 460, 500])('a refusal with code %i keeps the session', async (code) => {
    const { handlers, session } = handlersWith(() => refusal(code));
    await session.saveSession(alice);
    await handlers['user-info']();
    expect(await session.getToken()).toBe('tok-alice');
  });

  test('a transport failure keeps the session (offline is not logged out)', async () => {
    const { handlers, session } = handlersWith(() => ({ network: true }));
    await session.saveSession(alice);
    expect(await handlers['user-info']()).toMatchObject({ kind: 'transport', status: null });
    expect(await session.getToken()).toBe('tok-alice');
  });

  test('the stored token goes with every call as a Bearer token', async () => {
    const { handlers, session, seen } = handlersWith(() => ok(profile));
    await session.saveSession(alice);
    expect(await handlers['user-info']()).toEqual({ kind: 'ok', message: 'OK', data: profile });
    expect(seen[0]?.headers['authorization']).toBe('Bearer tok-alice');
  });

  test('the lang header follows the chosen locale; the default is CN', async () => {
    const { handlers, seen } = handlersWith(() => ok({ items: [] }));
    await handlers['common-lang']();
    expect(await handlers['session-set-locale']({ locale: 'vi' })).toEqual({
      kind: 'ok',
      message: '',
      data: { locale: 'vi' },
    });
    await handlers['common-lang']();
    expect(seen.map((call) => call.headers['lang'])).toEqual(['CN', 'FH']);
    expect(await handlers['session-get']()).toMatchObject({ locale: 'vi' });
  });

  test('an unknown locale is refused with 400 on locale and changes nothing', async () => {
    const { handlers } = handlersWith(() => ok({ items: [] }));
    await handlers['session-set-locale']({ locale: 'ja' });
    const refused = await handlers['session-set-locale']({ locale: 'xx' });
    expect(refused).toMatchObject({ kind: 'refused', code: 400, data: { field: 'locale' } });
    expect(await handlers['session-get']()).toMatchObject({ locale: 'ja' });
  });
});
