/**
 * DATABASE_READ_URL: a streaming replica (a private cluster made with pg_basebackup
 * from a private primary, each on its own port) serves sync pulls and record lists with
 * read-your-writes. A user's own write is in the read that follows it, again and again; reads
 * are really served by the replica (its own connections, and stale data while its replay is
 * paused, which only the replica can give); a paused or stopped replica costs a read at most the
 * bound, then the primary answers with the write; with Redis, a write through one instance is in
 * the next read through another. Needs the PostgreSQL server binaries: without them it says
 * SKIPPED; the Redis part says so when Redis is down.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPLICA_APPLICATION_NAME } from '../../server/db/database.js';
import { REPLAY_WAIT_MS, parseLsn } from '../../server/db/read-routing.js';
import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import { clusterToolsMissing, PgCluster } from '../helpers/pg-cluster.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { withdrawFixtures } from '../helpers/withdraw.js';

const missing = clusterToolsMissing();
if (missing) console.warn(`[read-replica] SKIPPED: cannot make private PostgreSQL clusters (${missing})`);

const redisUp = await redisReachable();
if (!missing && !redisUp)
  console.warn(`[read-replica] SKIPPED the two-instance Redis test: no Redis at ${REDIS_URL}`);

/** Slack above the bound for a loaded machine: the fallback read itself, the command before it. */
const SLACK_MS = 1500;

interface Records {
  items: Array<{ id: string; kind: string }>;
}
interface Pull {
  changes: Record<string, { upserts: Array<Record<string, unknown>>; deletes: string[] }>;
  cursors: Record<string, string>;
}

async function sqlOn<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(missing !== null)(
  'a streaming replica serves pulls and record lists (DATABASE_READ_URL)',
  () => {
    let primary: PgCluster;
    let replica: PgCluster;
    let server: TestServer;
    const fixtures = withdrawFixtures(() => server);
    let finance = '';

    const lsnOf = async (url: string, query: string) =>
      parseLsn((await sqlOn<{ lsn: string | null }>(url, `select ${query}::text as lsn`))[0]?.lsn) ?? 0n;

    /** Waits until the replica has replayed everything the primary has flushed (every commit) so far. */
    const caughtUp = async () => {
      const target = await lsnOf(primary.url(), 'pg_current_wal_flush_lsn()');
      for (let i = 0; i < 500; i += 1) {
        if ((await lsnOf(replica.url(), 'pg_last_wal_replay_lsn()')) >= target) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`the replica did not catch up:\n${replica.log().slice(-2000)}`);
    };
    const pauseReplay = async () => {
      await caughtUp();
      await sqlOn(replica.url(), 'select pg_wal_replay_pause()');
      for (let i = 0; i < 500; i += 1) {
        const [state] = await sqlOn<{ state: string }>(
          replica.url(),
          'select pg_get_wal_replay_pause_state() as state',
        );
        if (state?.state === 'paused') return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('replay did not pause');
    };
    const resumeReplay = () => sqlOn(replica.url(), 'select pg_wal_replay_resume()');

    /** A user with a funded main account and a sub-account: [token, userId, main id, sub id]. */
    const fundedUser = async (through: TestServer, name: string) => {
      const { token, userId } = await through.register('plain', `${name}-${Date.now()}@example.com`);
      const list = await through.call<{ items: Array<{ id: string; kind: string }> }>(
        'plain',
        '/api/v1/account/list',
        {},
        { token },
      );
      const main = list.data.items.find((account) => account.kind === 'main')?.id ?? '';
      await fixtures.fund(finance, main, '1000');
      const sub = await through.call<{ id: string }>(
        'plain',
        '/api/v1/account/createSubAccount',
        { name: 'Savings' },
        { token, key: newKey() },
      );
      expect(sub.code, sub.message).toBe(200);
      return { token, userId, main, sub: sub.data.id };
    };
    const transfer = async (through: TestServer, user: { token: string; main: string; sub: string }) => {
      const answer = await through.call<{ id: string }>(
        'plain',
        '/api/v1/account/transfer',
        { fromAccountId: user.main, toAccountId: user.sub, asset: 'USDT', amount: '1' },
        { token: user.token, key: newKey() },
      );
      expect(answer.code, answer.message).toBe(200);
      return answer.data.id;
    };
    const records = async (through: TestServer, user: { token: string; main: string }) =>
      through.call<Records>(
        'plain',
        '/api/v1/wallet/records',
        { accountId: user.main },
        { token: user.token },
      );
    const pull = (through: TestServer, token: string | undefined, cursors: Record<string, string> = {}) =>
      through.call<Pull>('plain', '/api/v1/sync/pull', { cursors }, token ? { token } : {});
    const served = () => ({ ...server.server.database.reads.served });

    beforeAll(async () => {
      primary = await PgCluster.create();
      await sqlOn(primary.url(), 'create database coffer');
      replica = await PgCluster.replicaOf(primary);
      server = await startTestServer('postgres', {
        DATABASE_URL: primary.url('coffer'),
        DATABASE_READ_URL: replica.url('coffer'),
      });
      [finance] = await fixtures.operators('replica');
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      replica?.destroy();
      primary?.destroy();
    });

    test('a standby gives the same pull horizon rule: pg_current_snapshot() runs there, below every running transaction of the primary', async () => {
      // The primary has a transaction with an xid open and a later one committed; the standby's
      // horizon must stay at or below the open one, as the primary's does.
      const client = new pg.Client({ connectionString: primary.url('coffer') });
      await client.connect();
      try {
        await client.query('begin');
        const [row] = (await client.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows;
        await client.query('create temporary table if not exists held (x int)'); // some WAL of this xid
        await sqlOn(primary.url('coffer'), 'create table if not exists replica_probe (x int)'); // a later commit
        await caughtUp();
        const [standby] = await sqlOn<{ horizon: string; recovery: boolean }>(
          replica.url('coffer'),
          'select pg_snapshot_xmin(pg_current_snapshot())::text as horizon, pg_is_in_recovery() as recovery',
        );
        expect(standby?.recovery).toBe(true);
        expect(BigInt(standby?.horizon ?? '0')).toBeLessThanOrEqual(BigInt(row?.xid ?? '0'));
      } finally {
        await client.query('rollback').catch(() => undefined);
        await client.end();
      }
    });

    test('a user’s own write is in the record list and the pull that follow it at once, every time, and the replica serves them', async () => {
      const user = await fundedUser(server, 'ryw');
      let cursors: Record<string, string> = (await pull(server, user.token)).data.cursors;
      const before = served();
      for (let round = 0; round < 25; round += 1) {
        const id = await transfer(server, user);
        const list = await records(server, user);
        expect(list.code, list.message).toBe(200);
        expect(list.data.items[0]?.id, `round ${round}`).toBe(`${id}-d`);
        const pulled = await pull(server, user.token, cursors);
        expect(pulled.code, pulled.message).toBe(200);
        const upserts = pulled.data.changes['records']?.upserts.map((record) => record['id']) ?? [];
        expect(upserts, `round ${round}`).toContain(`${id}-d`);
        cursors = pulled.data.cursors;
      }
      const after = served();
      console.info(
        `[read-replica] 50 reads right after a write: ${after.replica - before.replica} on the replica, ${after.primary - before.primary} on the primary`,
      );
      expect(after.replica - before.replica).toBeGreaterThan(25); // most: a local replica replays in milliseconds
      const connections = await sqlOn<{ count: string }>(
        replica.url(),
        'select count(*)::text as count from pg_stat_activity where application_name = $1',
        [REPLICA_APPLICATION_NAME],
      );
      expect(Number(connections[0]?.count ?? 0)).toBeGreaterThan(0);
    });

    test('every record list routed to the replica answers from it on a hot standby (nothing there writes)', async () => {
      const user = await fundedUser(server, 'lists');
      await transfer(server, user);
      await caughtUp();
      const routes = [
        '/api/v1/sync/pull',
        '/api/v1/wallet/records',
        '/api/v1/recharge/list',
        '/api/v1/withdraw/list',
        '/api/v1/exchange/list',
        '/api/v1/hosting/order',
        '/api/v1/hosting/operator-log',
        '/api/v1/income/log',
        '/api/v1/user/aiIncome',
        '/api/v1/machine/index',
        '/api/v1/user/tickets',
        '/api/v1/otc/meBuyList',
        '/api/v1/otc/meSellList',
      ];
      const before = served();
      for (const route of routes) {
        const answer = await server.call('plain', route, route.endsWith('pull') ? { cursors: {} } : {}, {
          token: user.token,
        });
        expect(answer.code, `${route}: ${answer.message}`).toBe(200);
      }
      expect(served().replica - before.replica).toBe(routes.length);
      expect(served().primary - before.primary).toBe(0);
    });

    test('a user without a write the replica lacks, and an anonymous pull, read the replica: while its replay is paused they see its older data', async () => {
      const { token, userId } = await server.register('plain', `stale-${Date.now()}@example.com`);
      await pauseReplay();
      try {
        // Written on the primary behind the server's back: no write position is noted for anyone.
        await sqlOn(
          primary.url('coffer'),
          `with changed as (update users set nickname = 'changed-on-primary' where id = $1 returning id)
         insert into sync_changes (collection, scope_id, record_id, deleted, at)
         select 'profile', id, id::text, false, now() from changed`,
          [Number(userId)],
        );
        await sqlOn(
          primary.url('coffer'),
          `insert into sync_changes (collection, scope_id, record_id, deleted, at) values ('news', 0, '999999', true, now())`,
        );
        const before = served();
        const mine = await pull(server, token);
        const profile = mine.data.changes['profile']?.upserts[0];
        expect(profile?.['id']).toBe(userId);
        expect(profile?.['nickname']).not.toBe('changed-on-primary');
        const anonymous = await pull(server, undefined);
        expect(anonymous.data.changes['news']?.deletes ?? []).not.toContain('999999');
        expect(served().replica - before.replica).toBe(2);
      } finally {
        await resumeReplay();
      }
      await caughtUp();
      const fresh = await pull(server, token);
      expect(fresh.data.changes['profile']?.upserts[0]?.['nickname']).toBe('changed-on-primary');
    });

    test('with its replay paused, a read after the user’s write waits at most the bound, then the primary answers with the write', async () => {
      const user = await fundedUser(server, 'paused');
      await pauseReplay();
      try {
        for (let round = 0; round < 2; round += 1) {
          const id = await transfer(server, user);
          const before = served();
          const started = Date.now();
          const list = await records(server, user);
          const took = Date.now() - started;
          expect(list.data.items[0]?.id).toBe(`${id}-d`);
          expect(took).toBeGreaterThanOrEqual(REPLAY_WAIT_MS - 20);
          expect(took).toBeLessThan(REPLAY_WAIT_MS + SLACK_MS);
          expect(served().primary - before.primary).toBe(1);
        }
      } finally {
        await resumeReplay();
      }
    });

    test('with the replica stopped, reads go to the primary at once and show the write; when it is back, it serves again', async () => {
      const user = await fundedUser(server, 'stopped');
      replica.stop('fast');
      try {
        for (let round = 0; round < 3; round += 1) {
          const id = await transfer(server, user);
          const started = Date.now();
          const list = await records(server, user);
          expect(list.code, list.message).toBe(200);
          expect(list.data.items[0]?.id).toBe(`${id}-d`);
          expect(Date.now() - started).toBeLessThan(REPLAY_WAIT_MS + SLACK_MS);
          const pulled = await pull(server, user.token);
          expect(pulled.code, pulled.message).toBe(200);
        }
      } finally {
        replica.start();
      }
      const before = served();
      for (let i = 0; i < 100 && served().replica === before.replica; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const id = await transfer(server, user);
        expect((await records(server, user)).data.items[0]?.id).toBe(`${id}-d`);
      }
      expect(served().replica).toBeGreaterThan(before.replica);
    }, 30_000);

    describe.skipIf(!redisUp)('two instances sharing write positions through Redis', () => {
      let one: TestServer;
      let two: TestServer;

      beforeAll(async () => {
        const env = {
          DATABASE_URL: primary.url('coffer'),
          DATABASE_READ_URL: replica.url('coffer'),
          REDIS_URL,
        };
        one = await startTestServer('postgres', env);
        two = await startTestServer('postgres', env);
      }, 60_000);

      afterAll(async () => {
        await one?.close();
        await two?.close();
      });

      test('a write through one instance is in the next read through the other, also while the replica lags', async () => {
        const user = await fundedUser(one, 'redis');
        for (let round = 0; round < 5; round += 1) {
          const id = await transfer(one, user);
          expect((await records(two, user)).data.items[0]?.id).toBe(`${id}-d`);
        }
        await pauseReplay();
        try {
          const id = await transfer(one, user);
          const before = { ...two.server.database.reads.served };
          const list = await records(two, user);
          expect(list.data.items[0]?.id).toBe(`${id}-d`); // the replica lacks it: the primary answered
          expect(two.server.database.reads.served.primary - before.primary).toBe(1);
        } finally {
          await resumeReplay();
        }
      });
    });
  },
);
