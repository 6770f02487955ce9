/**
 * Opens the one database: embedded PGlite in DATA_DIR by default, a PostgreSQL server when
 * DATABASE_URL is set. Both run the same Drizzle schema and migrations. With DATABASE_READ_URL,
 * also a streaming replica of that server for customers' pure reads (read-routing.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectPath } from '../paths.js';
import type { Pool, PoolClient } from 'pg';
import { plainTransactionDrizzle } from './plain-transactions.js';
import { primaryOnly, ReplicaRouting, type IsReadAnswer, type ReadRouting } from './read-routing.js';

import type { Database } from './types.js';

export type { Database, Executor, Schema, Transaction } from './types.js';

export interface OpenDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Where customers' pure reads run: the replica (DATABASE_READ_URL) when caught up, else `db`. */
  reads: ReadRouting;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = projectPath('server', 'db', 'migrations');

/** The replica's connections are named so that they can be told apart in `pg_stat_activity`. */
export const REPLICA_APPLICATION_NAME = 'coffer-read';

/** Whether `query` succeeds: a database's ping (false however it fails). */
async function answers(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens and migrates the database. `dataDir` undefined with no URL gives an in-memory PGlite
 * (tests). `readUrl` (PostgreSQL only) opens a pool on a streaming replica, never migrated (a
 * replica is read-only) and never needed at start: an unreachable replica only sends reads to
 * the primary. `isReadAnswer` (needed with `readUrl`) tells a read's own refusal from replica
 * trouble. Throws when the server cannot be reached or a migration fails.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  readUrl?: string | undefined;
  isReadAnswer?: IsReadAnswer | undefined;
  dataDir?: string | undefined;
}): Promise<OpenDatabase> {
  if (options.readUrl && !options.databaseUrl) {
    throw new Error('a read replica (DATABASE_READ_URL) needs a PostgreSQL primary (DATABASE_URL)');
  }
  if (options.readUrl && !options.isReadAnswer) {
    throw new Error("a read replica needs isReadAnswer: which errors are a read's answer");
  }
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', () => undefined); // an idle client's error is reported by the next query
    // A client checked out of the pool (a transaction's) whose connection dies (PostgreSQL
    // restarted) emits `error` on itself, where the pool listens only while it is idle: unheard,
    // that error ended the process. Its queries fail anyway (the command answers 500 and is
    // retried with its key) and the pool drops it on release (npm run chaos found it).
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = plainTransactionDrizzle(pool); // no relational schema: see types.ts
    // Instances started at once on a fresh database take turns migrating (each would otherwise
    // create the same tables at once, and all but one fail); a server still starting is waited for.
    const client = await connectWaiting(pool);
    try {
      await client.query(`select pg_advisory_lock(hashtextextended('coffer:migrations', 0))`);
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      // Closing the session ends its advisory lock with it, whatever happened above.
      client.release(true);
    }
    let reads: ReadRouting = primaryOnly(db);
    if (options.readUrl && options.isReadAnswer) {
      const replicaPool = new pg.Pool({
        connectionString: options.readUrl,
        max: 10,
        application_name: REPLICA_APPLICATION_NAME,
        // A replica that does not answer must cost a read little: it is then read from the primary.
        connectionTimeoutMillis: 1000,
        query_timeout: 15_000,
      });
      replicaPool.on('error', () => undefined); // a stopped replica drops idle clients; reads fall back
      replicaPool.on('connect', (client) => client.on('error', () => undefined)); // as the primary's, above
      reads = await ReplicaRouting.start(
        { db, pool },
        { db: drizzle(replicaPool), pool: replicaPool },
        options.isReadAnswer,
      );
    }
    return {
      db,
      kind: 'postgres',
      reads,
      ping: () => answers(() => pool.query('select 1')),
      close: async () => {
        await reads.close();
        await pool.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const releaseLock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  const client = options.dataDir ? new PGlite(path.join(options.dataDir, 'pgdata')) : new PGlite();
  const db = drizzle(client); // no relational schema: see types.ts
  try {
    await migrate(db, { migrationsFolder });
  } catch (error) {
    releaseLock();
    throw error;
  }
  return {
    db,
    kind: 'pglite',
    reads: primaryOnly(db),
    ping: () => answers(() => client.query('select 1')),
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

/**
 * How long a start waits for PostgreSQL to accept connections: a server restarting or still
 * recovering (as after a crash) answers within seconds; a wrong address fails after this.
 */
const START_WAIT_MS = 30_000;
const START_RETRY_MS = 500;

/** Errors of a server that is down or not ready yet (refused, reset, starting up, shutting down). */
function notReadyYet(error: unknown): boolean {
  const code = (error as { code?: unknown }).code; // node's and PostgreSQL's errors carry a code
  return (
    ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P02', '57P03'].includes(String(code)) ||
    /Connection terminated/.test(String(error))
  );
}

/** A client of `pool`, waiting up to START_WAIT_MS while the server is down or starting up. */
async function connectWaiting(pool: Pool): Promise<PoolClient> {
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    try {
      const client = await pool.connect();
      try {
        await client.query('select 1'); // a recovering server accepts, then refuses with 57P03
        return client;
      } catch (error) {
        client.release(true);
        throw error;
      }
    } catch (error) {
      if (!notReadyYet(error) || Date.now() + START_RETRY_MS > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
    }
  }
}

/** Thrown when another live process has the embedded database open. */
export class DataDirBusyError extends Error {}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * Takes DATA_DIR/pgdata.lock (with our pid), taking over a stale one; returns its release.
 */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'pgdata.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // fs errors carry a code
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirBusyError(
          `the embedded database in ${dataDir} is open in process ${holder} (is \`npm start\` running?); stop it first, or use the admin API`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirBusyError(`could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // EPERM: alive but not ours
  }
}
