/**
 * Test databases: in-memory PGlite, or a fresh database on a PostgreSQL server (below), dropped
 * afterwards.
 * When the server is unreachable the PostgreSQL tier is skipped with a line in the log saying so.
 */
import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import { openDatabase, type Executor, type OpenDatabase } from '../../server/db/database.js';

export type Tier = 'pglite' | 'postgres';

/**
 * TEST_DATABASE_URL; else this worker's private cluster (tests/global-setup.ts); else the
 * machine's server.
 */
const ADMIN_URL =
  process.env['TEST_DATABASE_URL'] ?? workerCluster() ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function workerCluster(): string | undefined {
  const urls = (process.env['COFFER_TEST_PG_URLS'] ?? '').split(' ').filter(Boolean);
  const worker = Number(process.env['VITEST_POOL_ID'] ?? 1);
  return urls.length === 0 ? undefined : urls[(Math.max(worker, 1) - 1) % urls.length];
}

let reachable: Promise<boolean> | undefined;

/** True when the PostgreSQL test server answers (checked once per test file). */
export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/**
 * True when the PostgreSQL test server answers; when none does, a line says the file (`label`)
 * is skipped and why it needs one (`needs`, e.g. "the crash test needs one").
 */
export async function postgresOrSkipNote(label: string, needs: string): Promise<boolean> {
  const answers = await postgresReachable();
  if (!answers) {
    console.warn(
      `[${label}] SKIPPED: no PostgreSQL server at TEST_DATABASE_URL (default 127.0.0.1:5432); ${needs}`,
    );
  }
  return answers;
}

/** The rows of a raw `execute` result. */
export const rowsOf = (result: unknown) =>
  z.object({ rows: z.array(z.record(z.string(), z.unknown())) }).parse(result).rows;

/** The tiers to run: PGlite always; PostgreSQL when reachable, else a visible skip line. */
export async function availableTiers(suite: string): Promise<Tier[]> {
  if (await postgresReachable()) {
    console.info(`[${suite}] API tests run on PGlite and on PostgreSQL at ${new URL(ADMIN_URL).host}`);
    return ['pglite', 'postgres'];
  }
  console.warn(
    `[${suite}] SKIPPED the PostgreSQL tier: no server at ${new URL(ADMIN_URL).host}; PGlite only`,
  );
  return ['pglite'];
}

/** A URL of a new, empty PostgreSQL database, and a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `coffer_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Opens a migrated database of the tier; `close` also drops a PostgreSQL one. */
export async function openTestDatabase(tier: Tier): Promise<OpenDatabase> {
  if (tier === 'pglite') return openDatabase({});
  const created = await createPostgresDatabase();
  const database = await openDatabase({ databaseUrl: created.url });
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

const xidSchema = z.object({ rows: z.array(z.object({ x: z.string() })) });

/**
 * Waits (up to 30 s) until every transaction that began before this call has ended, so that a
 * pull's horizon has passed all writes made so far. On PostgreSQL the horizon is the whole
 * server's: another test file's open transaction, in another database, holds it back meanwhile
 * (a pull then delivers nothing new yet, which is right, but not what a test means to check).
 */
export async function horizonSettled(db: Executor): Promise<void> {
  const read = async (query: SQL) => BigInt(xidSchema.parse(await db.execute(query)).rows[0]?.x ?? '0');
  const mark = await read(sql`select pg_current_xact_id()::text as x`);
  const deadline = Date.now() + 30_000;
  while ((await read(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as x`)) <= mark) {
    if (Date.now() > deadline) throw new Error(`transaction ${mark} is still behind the horizon after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
