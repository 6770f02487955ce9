/** Pull by cursor (CONTRACT.md "Sync") and the first synced content: news, notices, quotes, profile, feedback. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { PULL_PAGE_SIZE, type PullData } from '../../contract/sync.js';
import { auditLog } from '../../server/db/schema.js';
import { insertNews, insertNotice } from '../../server/repositories/content.repository.js';
import { recordChange } from '../../server/repositories/sync.repository.js';
import { availableTiers, horizonSettled, rowsOf } from '../helpers/database.js';
import { operatorToken } from '../helpers/operator.js';
import { newKey, type Transport, TRANSPORTS, useTestServer } from '../helpers/server.js';

const tiers = await availableTiers('sync');

describe.each(tiers)('sync on %s', (tier) => {
  const t = useTestServer(tier);
  let content: string;
  let support: string;
  let superadmin: string;
  const login = (email: string, role: 'content' | 'support' | 'superadmin') => operatorToken(t, email, role);
  /** A pull once every write so far is below the server's horizon (helpers/database.ts). */
  const pullVia = async (transport: Transport, params: Record<string, unknown>, token?: string) => {
    await horizonSettled(t.server.database.db);
    return t.call<PullData>(transport, '/api/v1/sync/pull', params, token ? { token } : {});
  };
  const pull = (cursors: Record<string, string> = {}, token?: string, extra: Record<string, unknown> = {}) =>
    pullVia('plain', { cursors, ...extra }, token);
  const publish = (title: string) =>
    t.call<{ id: string }>(
      'plain',
      '/api/admin/news/create',
      { title, summary: `${title} summary`, body: `${title} body` },
      { token: content, key: newKey() },
    );

  beforeAll(async () => {
    content = await login('editor@coffer.test', 'content');
    support = await login('support@coffer.test', 'support');
    superadmin = await login('boss@coffer.test', 'superadmin');
  });

  test("public collections pull without a token; the user's own need one", async () => {
    await publish('First');
    await t.call('plain', '/api/admin/notice/create', { text: 'Maintenance tonight' }, { token: content });
    await t.call(
      'plain',
      '/api/admin/quote/set',
      { symbol: 'BTC/USDT', name: 'Bitcoin', price: '64000.5' },
      { token: content },
    );
    const answer = await pull();
    expect(answer.code).toBe(200);
    // `machines` holds the mining machines a new database is seeded with.
    expect(Object.keys(answer.data.changes).sort()).toEqual(['machines', 'news', 'notices', 'quotes']);
    expect(answer.data.changes['news']?.upserts).toEqual([
      expect.objectContaining({ title: 'First', body: 'First body' }),
    ]);
    expect(answer.data.changes['quotes']?.upserts[0]).toMatchObject({ id: 'BTC/USDT', price: '64000.5' });
    expect(answer.data.cursors['profile']).toBeUndefined();
  });

  describe.each(TRANSPORTS)('through the %s transport', (transport) => {
    test('a pull with cursors returns only what changed since, and deletions as tombstones', async () => {
      const first = await pullVia(transport, { cursors: {} });
      const cursors = first.data.cursors as Record<string, string>;
      const quiet = await pullVia(transport, { cursors });
      expect(quiet.data.changes).toEqual({});
      expect(quiet.data.cursors).toEqual(cursors);
      const added = await publish(`Added ${transport}`);
      const after = await pullVia(transport, { cursors });
      expect(after.data.changes['news']?.upserts.map((record) => record['title'])).toEqual([
        `Added ${transport}`,
      ]);
      await t.call('plain', '/api/admin/news/delete', { id: added.data.id }, { token: content });
      const gone = await pullVia(transport, { cursors: after.data.cursors });
      expect(gone.data.changes['news']).toEqual({ upserts: [], deletes: [added.data.id] });
    });
  });

  test('nothing of another user ever appears: profile and feedback are scoped to the caller', async () => {
    const a = await t.register('plain', 'scope-a@example.com');
    const b = await t.register('plain', 'scope-b@example.com');
    await t.call(
      'plain',
      '/api/v1/common/pushFeedback',
      { title: 'A asks', content: 'Private to A' },
      { token: a.token, key: newKey() },
    );
    await t.call(
      'plain',
      '/api/v1/user/name-update',
      { nickname: 'Alice' },
      { token: a.token, key: newKey() },
    );
    const pulledByB = await pull({}, b.token);
    expect(pulledByB.data.changes['profile']?.upserts).toEqual([
      expect.objectContaining({ id: b.userId, email: 'scope-b@example.com' }),
    ]);
    expect(pulledByB.data.changes['feedback']).toBeUndefined();
    expect(JSON.stringify(pulledByB.data)).not.toContain('scope-a@example.com');
    const pulledByA = await pull({}, a.token);
    expect(pulledByA.data.changes['profile']?.upserts).toEqual([
      expect.objectContaining({ nickname: 'Alice' }),
    ]);
    expect(pulledByA.data.changes['feedback']?.upserts).toEqual([
      expect.objectContaining({ title: 'A asks', status: 'awaiting_reply' }),
    ]);
    const other = await pull({}, b.token, { accountId: '999999' });
    expect(other.code).toBe(BodyCode.forbidden);
  });

  test("a support reply reaches the customer's next pull and feedbackList as replied", async () => {
    const user = await t.register('plain', 'asker@example.com');
    const ticket = await t.call<{ id: string }>(
      'plain',
      '/api/v1/common/pushFeedback',
      { title: 'Help', content: 'How do I deposit?' },
      { token: user.token, key: newKey() },
    );
    const before = await pull({}, user.token);
    const cursors = before.data.cursors as Record<string, string>;
    const supportList = async (params: Record<string, unknown>) =>
      (
        await t.call<{ items: Array<{ id: string }> }>('plain', '/api/admin/feedback/list', params, {
          token: support,
        })
      ).data.items.map((item) => item.id);
    expect(await supportList({ status: 'awaiting_reply' })).toContain(ticket.data.id);
    expect(
      (
        await t.call(
          'plain',
          '/api/admin/feedback/reply',
          { id: ticket.data.id, reply: 'Use the recharge page' },
          { token: content },
        )
      ).code,
    ).toBe(BodyCode.forbidden);
    const replied = await t.call(
      'plain',
      '/api/admin/feedback/reply',
      { id: ticket.data.id, reply: 'Use the recharge page' },
      { token: support, key: newKey() },
    );
    expect(replied.data).toMatchObject({ status: 'replied', reply: 'Use the recharge page' });
    // Support's list filters by status: the ticket has left the awaiting ones.
    expect(await supportList({ status: 'awaiting_reply' })).not.toContain(ticket.data.id);
    expect(await supportList({ status: 'replied' })).toContain(ticket.data.id);
    expect(await supportList({})).toContain(ticket.data.id);
    const next = await pull(cursors, user.token);
    expect(next.data.changes['feedback']?.upserts).toEqual([
      expect.objectContaining({ id: ticket.data.id, status: 'replied' }),
    ]);
    const list = await t.call<{ items: Array<{ status: string }> }>(
      'plain',
      '/api/v1/common/feedbackList',
      {},
      { token: user.token, method: 'GET' },
    );
    expect(list.data.items.map((item) => item.status)).toEqual(['replied']);
  });

  test('pages are bounded: hasMore says another pull follows, and the next one picks up where it stopped', async () => {
    const start = await pull();
    // One transaction of notices and their changes, as ContentService writes each (many calls would be slow).
    await t.server.database.db.transaction(async (tx) => {
      for (let i = 0; i < PULL_PAGE_SIZE + 5; i += 1) {
        const at = new Date();
        const row = await insertNotice(tx, { text: `Notice ${i}`, lang: null, createdAt: at, updatedAt: at });
        await recordChange(tx, {
          collection: 'notices',
          scopeId: 0,
          recordId: String(row.id),
          deleted: false,
          at,
        });
      }
    });
    const page1 = await pull(start.data.cursors as Record<string, string>);
    expect(page1.data.hasMore).toBe(true);
    expect(page1.data.changes['notices']?.upserts).toHaveLength(PULL_PAGE_SIZE);
    const page2 = await pull(page1.data.cursors as Record<string, string>);
    expect(page2.data.hasMore).toBe(false);
    expect(page2.data.changes['notices']?.upserts).toHaveLength(5);
  });

  test.skipIf(tier === 'pglite')(
    'a cursor never skips a transaction that commits after a later one (PostgreSQL)',
    async () => {
      const start = await pull();
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let written: () => void = () => undefined;
      const writtenSignal = new Promise<void>((resolve) => (written = resolve));
      const slow = t.server.database.db.transaction(async (tx) => {
        const row = await insertNews(tx, {
          title: 'Slow',
          summary: 's',
          body: 'b',
          publishedAt: new Date(),
          updatedAt: new Date(),
        });
        await recordChange(tx, {
          collection: 'news',
          scopeId: 0,
          recordId: String(row.id),
          deleted: false,
          at: new Date(),
        });
        written();
        await gate;
      });
      await writtenSignal;
      await publish('Fast');
      // Pulled while the slow transaction is open: straight through, not waiting for the horizon.
      const during = await t.call<PullData>('plain', '/api/v1/sync/pull', { cursors: start.data.cursors });
      expect(during.data.changes['news']).toBeUndefined();
      release();
      await slow;
      const after = await pull(during.data.cursors as Record<string, string>);
      expect(after.data.changes['news']?.upserts.map((record) => record['title']).sort()).toEqual([
        'Fast',
        'Slow',
      ]);
    },
  );

  test("the spec's list calls keep working for plain clients", async () => {
    const news = await t.call<{ items: Array<{ id: string }> }>(
      'plain',
      '/api/v1/news/list',
      { limit: '2' },
      { method: 'GET' },
    );
    expect(news.data.items.length).toBeGreaterThan(0);
    const id = news.data.items[0]?.id ?? '';
    expect((await t.call('plain', '/api/v1/news/get', { id }, { method: 'GET' })).data).toMatchObject({ id });
    expect((await t.call('plain', '/api/v1/news/get', { id: '99999999' })).code).toBe(404);
    expect(
      (await t.call<{ items: unknown[] }>('plain', '/api/v1/notice/marquee')).data.items.length,
    ).toBeGreaterThan(0);
    expect((await t.call('plain', '/api/v1/common/forexProduct', { symbol: 'btc/usdt' })).data).toMatchObject(
      { name: 'Bitcoin' },
    );
    expect(
      (await t.call<{ items: unknown[] }>('plain', '/api/v1/common/forexProductList')).data.items,
    ).toHaveLength(1);
  });

  test('profile edits are validated: a nickname is required, an avatar must be one of avatarList', async () => {
    const user = await t.register('plain', 'profile@example.com');
    expect(
      await t.call('plain', '/api/v1/user/name-update', { nickname: ' ' }, { token: user.token, lang: 'EN' }),
    ).toMatchObject({ code: 400, message: 'Nickname is required' });
    const setAvatar = (avatar: string) =>
      t.call('plain', '/api/v1/user/avatar-update', { avatar }, { token: user.token });
    expect((await setAvatar('/avatars/evil.svg')).code).toBe(400);
    expect((await setAvatar('/avatars/03.svg')).data).toMatchObject({ avatar: '/avatars/03.svg' });
    expect(
      (
        await t.call(
          'plain',
          '/api/v1/common/pushFeedback',
          { title: 'x', content: 'y', images: ['/api/v1/common/img/aaaaaaaaaaaaaaaa'] },
          { token: user.token },
        )
      ).code,
    ).toBe(400);
  });

  test('content writes need the content role and are audited', async () => {
    expect(
      (
        await t.call(
          'plain',
          '/api/admin/news/create',
          { title: 't', summary: 's', body: 'b' },
          { token: support },
        )
      ).code,
    ).toBe(BodyCode.forbidden);
    expect((await t.call('plain', '/api/admin/audit/list', {}, { token: superadmin })).code).toBe(200);
    const actions = await t.server.database.db.selectDistinct({ action: auditLog.action }).from(auditLog);
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining(['news.create', 'news.delete', 'notice.create', 'quote.set', 'feedback.reply']),
    );
  });

  test("the change log's one index is its primary key, in the pull's order (collection, scope, txid, seq)", async () => {
    // Every synced write inserts into each index of sync_changes (four rows per ledger transfer):
    // the pull's order is the only one read, so it is the only index kept (migration 0030).
    const indexes = rowsOf(
      await t.server.database.db.execute(
        sql`select indexname, indexdef from pg_indexes where tablename = 'sync_changes' order by indexname`,
      ),
    );
    expect(indexes).toEqual([
      {
        indexname: 'sync_changes_pkey',
        indexdef: expect.stringMatching(
          /UNIQUE INDEX sync_changes_pkey .*\(collection, scope_id, txid, seq\)$/,
        ),
      },
    ]);
  });

  test('a malformed cursor is refused with 400', async () => {
    expect((await pull({ news: 'yesterday' })).code).toBe(400);
  });
});
