/**
 * A PostgreSQL restart under a transaction in flight (found by `npm run chaos`): the
 * connection of a client checked out of the pool dies, `pg` emits `error` on that client, and
 * before the fix nothing listened to it, so the whole server process died of an unhandled
 * 'error' event. Now the transaction fails (the command answers 500 and is retried with its key),
 * the process lives, and the next query, after the restart, works. On a private cluster
 * (tests/helpers/pg-cluster.ts): the machine's shared server is never restarted. Also a start
 * beside other instances on a fresh database (migrations and the root invite take turns), and
 * a start while PostgreSQL is still down (it waits).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../server/db/database.js';
import { clusterToolsMissing, PgCluster } from '../helpers/pg-cluster.js';
import { startTestServer } from '../helpers/server.js';

const missing = clusterToolsMissing();
if (missing) console.warn(`[database-restart] SKIPPED: ${missing}`);

describe.skipIf(missing !== null)('a PostgreSQL restart under load', () => {
  let cluster: PgCluster;
  let database: OpenDatabase;

  beforeAll(async () => {
    cluster = await PgCluster.create();
    database = await openDatabase({ databaseUrl: cluster.url() });
  });
  afterAll(async () => {
    await database?.close().catch(() => undefined);
    cluster?.destroy();
  });

  test('a transaction whose connection dies fails, the process lives on, and the next query works', async () => {
    const uncaught: unknown[] = [];
    const hear = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', hear);
    try {
      const inFlight = database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_sleep(30)`);
      });
      const outcome = inFlight.then(
        () => 'committed',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // the transaction is under way
      cluster.restart('immediate');
      expect(await outcome).not.toBe('committed');
      await new Promise((resolve) => setTimeout(resolve, 200)); // any late 'error' event has fired
      expect(uncaught).toEqual([]);
      expect(await database.ping()).toBe(true);
      await expect(database.db.transaction(async (tx) => tx.execute(sql`select 1`))).resolves.toBeDefined();
    } finally {
      process.off('uncaughtException', hear);
    }
  });
});

describe.skipIf(missing !== null)('starting beside other instances, or before PostgreSQL is up', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await PgCluster.create();
  });
  afterAll(() => cluster?.destroy());

  test('three instances started at once on a fresh database all start (they take turns migrating) and make one root invite', async () => {
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('create database fresh');
    await admin.end();
    const env = { DATABASE_URL: cluster.url('fresh'), COFFER_ROOT_INVITE: 'TOGETHER' };
    const started = await Promise.allSettled([0, 1, 2].map(() => startTestServer('postgres', env)));
    const servers = started.flatMap((each) => (each.status === 'fulfilled' ? [each.value] : []));
    try {
      expect(started.map((each) => (each.status === 'rejected' ? String(each.reason) : 'ok'))).toEqual([
        'ok',
        'ok',
        'ok',
      ]);
      const made = servers.map((server) => server.server.rootInviteCreated);
      expect(made.filter((code) => code !== null)).toEqual(['TOGETHER']); // one made it, two found it
      const check = new pg.Client({ connectionString: cluster.url('fresh') });
      await check.connect();
      const invites = await check.query<{ n: number }>(
        'select count(*)::int as n from invite_codes where root',
      );
      await check.end();
      expect(invites.rows[0]?.n).toBe(1);
    } finally {
      for (const server of servers) await server.close();
    }
  });

  test('a start while PostgreSQL is down waits for it, and goes on once it is up', async () => {
    cluster.stop('fast');
    const opening = openDatabase({ databaseUrl: cluster.url() });
    let opened = false;
    void opening.then(
      () => (opened = true),
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(opened).toBe(false); // still waiting, not failed
    cluster.start();
    const database = await opening;
    try {
      expect(await database.ping()).toBe(true);
    } finally {
      await database.close();
    }
  });
});
