/**
 * The outbox's rules (CONTRACT.md "Exactly once"), on IndexedDB (fake-indexeddb) and on the
 * in-memory twin, against a scripted network that replays stored answers by key.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DAY_MS, OUTBOX_LIMIT } from '../../sync/commands.js';
import { DexieSyncStorage } from '../../sync/dexie-storage.js';
import { commandRegistry } from '../../worker/commands.js';
import { MemorySyncStorage } from '../../sync/memory-storage.js';
import type { SyncStorage } from '../../sync/storage.js';
import { MemorySessionStore } from '../../worker/session.js';
import { deleteAllDatabases, FakeClock, FakeServer, login, pngBlob, tab } from './helpers.js';

const NAME_UPDATE = '/api/v1/user/name-update';
const AVATAR_UPDATE = '/api/v1/user/avatar-update';
const PUSH_FEEDBACK = '/api/v1/common/pushFeedback';
const UP_IMG = '/api/v1/common/up-img';

interface Twin {
  storage: SyncStorage;
  /** The same databases as a restarted worker sees them (new handles over the same IndexedDB). */
  reopen(): SyncStorage;
  close(): void;
}

const twins = [
  [
    'IndexedDB',
    (): Twin => {
      const opened: DexieSyncStorage[] = [];
      const open = () => {
        const storage = new DexieSyncStorage(commandRegistry);
        opened.push(storage);
        return storage;
      };
      return { storage: open(), reopen: open, close: () => opened.forEach((storage) => storage.close()) };
    },
  ],
  [
    'the in-memory twin',
    (): Twin => {
      const storage = new MemorySyncStorage();
      return { storage, reopen: () => storage, close: () => undefined };
    },
  ],
] as const;

describe.each(twins)('the outbox on %s', (_name, makeTwin) => {
  let twin: Twin;
  let server: FakeServer;
  let clock: FakeClock;

  beforeEach(async () => {
    await deleteAllDatabases();
    twin = makeTwin();
    server = new FakeServer();
    clock = new FakeClock();
  });

  afterEach(() => twin.close());

  async function loggedInTab(userId = '7', token = 'tok-7', storage = twin.storage) {
    const t = tab({ server, storage, clock });
    await login(server, t.session, userId, token);
    return t;
  }

  const outboxOf = (userId = '7', storage = twin.storage) => storage.userStores(userId).outbox;

  test('a command is stored queued under the key made when the user acted, before anything is sent', async () => {
    const { engine } = await loggedInTab();
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    if (result.kind !== 'ok') throw new Error('refused');
    const stored = await outboxOf().get(result.id);
    expect(stored).toMatchObject({
      id: result.id,
      state: 'queued',
      resource: 'profile.nickname',
      params: { nickname: 'Neo' },
    });
    expect(stored?.expiresAtMs).toBe(clock.now() + DAY_MS);
    expect(server.seen).toHaveLength(0);

    await engine.drain();
    expect(server.seenOn(NAME_UPDATE).map((call) => call.key)).toEqual([result.id]);
  });

  test('a confirmed command took effect once, and a pull follows it', async () => {
    const { engine } = await loggedInTab();
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    const drained = await engine.drain();
    expect(drained).toMatchObject({ status: 'done', confirmed: [result.kind === 'ok' ? result.id : ''] });
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
    expect(await outboxOf().get(drained.confirmed[0] ?? '')).toMatchObject({
      state: 'confirmed',
      answer: { code: 200 },
    });
    expect(drained.pull).toMatchObject({ status: 'done', applied: { profile: { upserts: 1, deletes: 0 } } });
  });

  test('a command stored but never sent (the worker restarted) is sent once by the next engine', async () => {
    const first = await loggedInTab();
    const result = await first.engine.enqueue({
      kind: 'profile-avatar',
      params: { avatar: '/avatars/2.png' },
    });
    // The first engine is gone before its drain; a new one opens the same databases.
    const second = await loggedInTab('7', 'tok-7', twin.reopen());
    const drained = await second.engine.drain();
    expect(drained.confirmed).toEqual([result.kind === 'ok' ? result.id : '']);
    expect(server.effectsOn(AVATAR_UPDATE)).toHaveLength(1);
    expect((await second.engine.drain()).confirmed).toEqual([]);
    expect(server.seenOn(AVATAR_UPDATE)).toHaveLength(1);
  });

  test('an answer lost after the server acted is resent with the same key and replayed: one effect', async () => {
    const { engine } = await loggedInTab();
    server.fault = (call) =>
      call.uri === NAME_UPDATE && server.seenOn(NAME_UPDATE).length === 1 ? 'lose-answer' : null;
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    const drained = await engine.drain();
    expect(drained.confirmed).toHaveLength(1);
    const keys = server.seenOn(NAME_UPDATE).map((call) => call.key);
    expect(keys).toEqual([result.kind === 'ok' ? result.id : '', result.kind === 'ok' ? result.id : '']);
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
  });

  test('a command whose every answer was lost stays queued, and the next drain resends it with its key: one effect', async () => {
    const { engine } = await loggedInTab();
    server.fault = (call) =>
      call.uri === NAME_UPDATE && server.seenOn(NAME_UPDATE).length <= 5 ? 'lose-answer' : null;
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    if (result.kind !== 'ok') throw new Error('refused');

    const offline = await engine.drain();
    expect(offline).toMatchObject({ status: 'offline', retryLater: [result.id], confirmed: [] });
    expect(await outboxOf().get(result.id)).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: 'fetch failed',
    });

    const online = await engine.drain();
    expect(online.confirmed).toEqual([result.id]);
    expect(new Set(server.seenOn(NAME_UPDATE).map((call) => call.key))).toEqual(new Set([result.id]));
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
  });

  test('a 401 leaves the command queued and pauses the outbox until the same user logs in again', async () => {
    const { engine, session } = await loggedInTab();
    server.tokens.delete('tok-7'); // the token expired on the server
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    if (result.kind !== 'ok') throw new Error('refused');

    expect((await engine.drain()).status).toBe('paused');
    expect(await outboxOf().get(result.id)).toMatchObject({ state: 'queued' });
    expect(await session.getSession()).toBeNull(); // the API client cleared the dead session
    expect((await engine.drain()).status).toBe('logged_out');
    expect(server.seenOn(NAME_UPDATE)).toHaveLength(1);

    await login(server, session, '7', 'tok-7b');
    const resumed = await engine.drain();
    expect(resumed.confirmed).toEqual([result.id]);
    expect(server.seenOn(NAME_UPDATE).map((call) => call.token)).toEqual(['tok-7', 'tok-7b']);
    expect(server.effectsOn(NAME_UPDATE)).toHaveLength(1);
  });

  test('a pause recorded for a token holds while the session still has that token', async () => {
    const { engine } = await loggedInTab();
    await outboxOf().writePause({ id: 'pause', token: 'tok-7', atMs: clock.now() });
    await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    expect((await engine.drain()).status).toBe('paused');
    expect(await engine.status()).toMatchObject({ paused: true, pending: 1 });
    expect(server.seen).toHaveLength(0);
  });

  test('a command still queued a day after the user acted expires and is never sent', async () => {
    const { engine } = await loggedInTab();
    const result = await engine.enqueue({
      kind: 'feedback-submit',
      params: { title: 'Hi', content: 'Help' },
    });
    if (result.kind !== 'ok') throw new Error('refused');
    await clock.advance(DAY_MS, DAY_MS);
    const drained = await engine.drain();
    expect(drained.expired).toEqual([result.id]);
    expect(await outboxOf().get(result.id)).toMatchObject({ state: 'expired' });
    expect(server.seen).toHaveLength(0);
    expect((await engine.drain()).expired).toEqual([]);
    expect(server.seen).toHaveLength(0);
  });

  test('a refusal marks the command rejected with the server message; a retry is a new command with a new key', async () => {
    const { engine } = await loggedInTab();
    let refusals = 1;
    server.refuse = (call) =>
      call.uri === NAME_UPDATE && refusals-- > 0 ? { code: 400, message: 'Nickname too long' } : null;
    const first = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    if (first.kind !== 'ok') throw new Error('refused');
    expect((await engine.drain()).rejected).toEqual([first.id]);
    expect(await outboxOf().get(first.id)).toMatchObject({
      state: 'rejected',
      answer: { code: 400, message: 'Nickname too long' },
    });

    const retried = await engine.retry(first.id);
    if (retried.kind !== 'ok') throw new Error('not retried');
    expect(retried.id).not.toBe(first.id);
    expect(await outboxOf().get(first.id)).toMatchObject({ state: 'rejected', retriedAs: retried.id });
    expect(await engine.retry(first.id)).toMatchObject({ kind: 'refused', reason: 'not_retryable' });

    expect((await engine.drain()).confirmed).toEqual([retried.id]);
    expect(server.seenOn(NAME_UPDATE).map((call) => call.key)).toEqual([first.id, retried.id]);
  });

  test('a rejected command does not hold back other resources, but holds back later commands on its own resource until dismissed', async () => {
    const { engine } = await loggedInTab();
    server.refuse = (call) => (call.params['nickname'] === 'bad' ? { code: 400, message: 'no' } : null);
    const bad = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'bad' } });
    const avatar = await engine.enqueue({ kind: 'profile-avatar', params: { avatar: '/avatars/3.png' } });
    const later = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'good' } });
    if (bad.kind !== 'ok' || avatar.kind !== 'ok' || later.kind !== 'ok') throw new Error('refused');

    const first = await engine.drain();
    expect(first).toMatchObject({ rejected: [bad.id], confirmed: [avatar.id], heldBack: [later.id] });
    expect(await outboxOf().get(later.id)).toMatchObject({ state: 'queued' });
    expect((await engine.drain()).heldBack).toEqual([later.id]);
    expect(server.seen.filter((call) => call.params['nickname'] === 'good')).toHaveLength(0);

    expect(await engine.dismiss(bad.id)).toEqual({ kind: 'ok' });
    expect((await engine.drain()).confirmed).toEqual([later.id]);
  });

  test('a command that keeps failing with 500 stays queued and holds back only its own resource', async () => {
    const { engine } = await loggedInTab();
    server.fault = (call) => (call.uri === NAME_UPDATE ? 'body500' : null);
    const failing = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    const sameResource = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Trinity' } });
    const other = await engine.enqueue({ kind: 'profile-avatar', params: { avatar: '/avatars/4.png' } });
    if (failing.kind !== 'ok' || sameResource.kind !== 'ok' || other.kind !== 'ok')
      throw new Error('refused');

    const drained = await engine.drain();
    expect(drained).toMatchObject({
      status: 'done',
      retryLater: [failing.id],
      heldBack: [sameResource.id],
      confirmed: [other.id],
    });
    // The queue retried within the one send, always with the command's key.
    expect(server.seenOn(NAME_UPDATE).map((call) => call.key)).toEqual(Array(5).fill(failing.id));
    expect(await outboxOf().get(failing.id)).toMatchObject({ state: 'queued', lastError: 'internal error' });
  });

  test('an HTTP error status leaves the command queued for the next drain', async () => {
    const { engine } = await loggedInTab();
    let failures = 5;
    server.fault = (call) => (call.uri === AVATAR_UPDATE && failures-- > 0 ? { status: 503 } : null);
    const result = await engine.enqueue({ kind: 'profile-avatar', params: { avatar: '/avatars/4.png' } });
    expect((await engine.drain()).retryLater).toEqual([result.kind === 'ok' ? result.id : '']);
    expect((await engine.drain()).confirmed).toEqual([result.kind === 'ok' ? result.id : '']);
    expect(server.effectsOn(AVATAR_UPDATE)).toHaveLength(1);
  });

  test(`the ${OUTBOX_LIMIT + 1}st pending command is refused with outbox_full, and room comes back when one leaves`, async () => {
    const { engine } = await loggedInTab();
    const ids: string[] = [];
    for (let n = 0; n < OUTBOX_LIMIT; n++) {
      const result = await engine.enqueue({
        kind: 'feedback-submit',
        params: { title: `t${n}`, content: 'c' },
      });
      if (result.kind !== 'ok') throw new Error(`refused at ${n}`);
      ids.push(result.id);
    }
    expect(await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } })).toEqual({
      kind: 'refused',
      reason: 'outbox_full',
      limit: OUTBOX_LIMIT,
    });
    expect(await engine.pendingCount()).toBe(OUTBOX_LIMIT);
    expect(await engine.cancel(ids[0] ?? '')).toEqual({ kind: 'ok' });
    expect(await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } })).toMatchObject({
      kind: 'ok',
    });
  });

  test('a cancelled command is never sent; only a queued command can be cancelled', async () => {
    const { engine } = await loggedInTab();
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    if (result.kind !== 'ok') throw new Error('refused');
    expect(await engine.cancel(result.id)).toEqual({ kind: 'ok' });
    expect(await engine.cancel(result.id)).toEqual({
      kind: 'refused',
      reason: 'not_cancellable',
      state: 'cancelled',
    });
    expect(await engine.cancel('nope')).toEqual({ kind: 'refused', reason: 'not_found' });
    await engine.drain();
    expect(server.seen).toHaveLength(0);
  });

  test('invalid input is refused at enqueue naming the field, and nothing is stored', async () => {
    const { engine } = await loggedInTab();
    expect(await engine.enqueue({ kind: 'profile-nickname', params: { nickname: '   ' } })).toEqual({
      kind: 'refused',
      reason: 'invalid_input',
      field: 'nickname',
      message: 'server.field_required',
    });
    expect(
      await engine.enqueue({
        kind: 'feedback-submit',
        params: { title: 'Hi', content: 'x', images: ['https://evil.example/a.png'] },
      }),
    ).toMatchObject({ kind: 'refused', reason: 'invalid_input', field: 'images.0' });
    expect(await engine.pendingCount()).toBe(0);
  });

  test('while the device says it is offline, a drain tries nothing and the commands stay queued', async () => {
    let online = false;
    const t = tab({ server, storage: twin.storage, clock, online: () => online });
    await login(server, t.session, '7', 'tok-7');
    const result = await t.engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    expect((await t.engine.drain()).status).toBe('offline');
    expect((await t.engine.pull()).failure).toMatchObject({ kind: 'transport', status: null });
    expect(server.seen).toHaveLength(0);
    online = true;
    expect((await t.engine.drain()).confirmed).toEqual([result.kind === 'ok' ? result.id : '']);
  });

  test('logged out, nothing can be enqueued and a drain sends nothing', async () => {
    const { engine } = tab({ server, storage: twin.storage, clock });
    expect(await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } })).toEqual({
      kind: 'refused',
      reason: 'not_logged_in',
    });
    expect((await engine.drain()).status).toBe('logged_out');
  });

  test('a ticket made offline uploads its images first, each under its own key, and is sent once every image has a URL', async () => {
    const { engine } = await loggedInTab();
    // The second upload finds no network once.
    let offlineOnce = true;
    server.fault = (call) => {
      if (call.uri === UP_IMG && server.seenOn(UP_IMG).length === 2 && offlineOnce) {
        offlineOnce = false;
        return 'network';
      }
      return null;
    };
    const result = await engine.enqueue({
      kind: 'feedback-submit',
      params: {
        title: 'Broken',
        content: 'See pictures',
        images: [pngBlob(), '/api/v1/common/img/already_uploaded1', pngBlob()],
      },
    });
    if (result.kind !== 'ok') throw new Error('refused');

    expect((await engine.drain()).status).toBe('offline');
    const halfway = await outboxOf().get(result.id);
    if (halfway?.kind !== 'feedback-submit') throw new Error('lost');
    expect(halfway.params).toMatchObject({
      images: [
        { url: '/api/v1/common/img/upload000001' },
        { url: '/api/v1/common/img/already_uploaded1' },
        { url: null },
      ],
    });
    expect(server.seenOn(PUSH_FEEDBACK)).toHaveLength(0);

    expect((await engine.drain()).confirmed).toEqual([result.id]);
    const uploadKeys = server.seenOn(UP_IMG).map((call) => call.key);
    expect(uploadKeys).toHaveLength(3); // first image once, second image twice (same key)
    expect(uploadKeys[1]).toBe(uploadKeys[2]);
    expect(uploadKeys[0]).not.toBe(uploadKeys[1]);
    expect(server.effectsOn(UP_IMG)).toHaveLength(2);
    expect(server.effectsOn(PUSH_FEEDBACK).map((call) => call.params['images'])).toEqual([
      [
        '/api/v1/common/img/upload000001',
        '/api/v1/common/img/already_uploaded1',
        '/api/v1/common/img/upload000002',
      ],
    ]);
    expect(server.effectsOn(PUSH_FEEDBACK)[0]?.key).toBe(result.id);
  });

  test('a refused upload rejects its ticket with the server message, and the ticket is not sent', async () => {
    const { engine } = await loggedInTab();
    server.refuse = (call) => (call.uri === UP_IMG ? { code: 400, message: 'Images only' } : null);
    const result = await engine.enqueue({
      kind: 'feedback-submit',
      params: { title: 'T', content: 'C', images: [pngBlob()] },
    });
    if (result.kind !== 'ok') throw new Error('refused');
    expect((await engine.drain()).rejected).toEqual([result.id]);
    expect(await outboxOf().get(result.id)).toMatchObject({
      state: 'rejected',
      answer: { code: 400, message: 'Images only' },
    });
    expect(server.seenOn(PUSH_FEEDBACK)).toHaveLength(0);

    // The retry uploads under a new key (the old one would replay its refusal).
    server.refuse = () => null;
    const retried = await engine.retry(result.id);
    expect(retried.kind).toBe('ok');
    expect((await engine.drain()).confirmed).toHaveLength(1);
    const keys = server.seenOn(UP_IMG).map((call) => call.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });

  test("another user's session never sends the previous user's commands", async () => {
    const { engine, session } = await loggedInTab('7', 'tok-7');
    const mine = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Seven' } });
    if (mine.kind !== 'ok') throw new Error('refused');
    await login(server, session, '8', 'tok-8');
    expect(await engine.pendingCount()).toBe(0);
    await engine.drain();
    expect(server.seen.filter((call) => call.uri === NAME_UPDATE)).toHaveLength(0);

    await login(server, session, '7', 'tok-7c');
    expect((await engine.drain()).confirmed).toEqual([mine.id]);
    expect(server.seenOn(NAME_UPDATE).map((call) => call.token)).toEqual(['tok-7c']);
  });

  test('settled commands are pruned a week after they settled', async () => {
    const { engine } = await loggedInTab();
    const result = await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    await engine.drain();
    expect(await outboxOf().get(result.kind === 'ok' ? result.id : '')).not.toBeNull();
    await clock.advance(8 * DAY_MS, DAY_MS);
    await engine.drain();
    expect(await outboxOf().all()).toEqual([]);
  });
});

test('a session store shared by two engines sees one outbox per user', async () => {
  const storage = new MemorySyncStorage();
  const server = new FakeServer();
  const session = new MemorySessionStore();
  const a = tab({ server, storage, session });
  const b = tab({ server, storage, session });
  await login(server, session, '9', 'tok-9');
  await a.engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Nine' } });
  expect(await b.engine.pendingCount()).toBe(1);
});
