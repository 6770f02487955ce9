/**
 * Opens the one database: embedded PGlite in DATA_DIR by default, a PostgreSQL server when
 * DATABASE_URL is set. Both run the same Drizzle schema and migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectPath } from '../paths.js';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a repository can run SQL on: the database or an open transaction. */
export type Executor = Database | Transaction;

export interface OpenDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = projectPath('server', 'db', 'migrations');

/**
 * Opens and migrates the database. `dataDir` undefined with no URL gives an in-memory PGlite
 * (tests). Throws when the server cannot be reached or a migration fails.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}): Promise<OpenDatabase> {
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
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        try {
          await pool.query('select 1');
          return true;
        } catch {
          return false;
        }
      },
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const releaseLock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  const client = options.dataDir ? new PGlite(path.join(options.dataDir, 'pgdata')) : new PGlite();
  const db = drizzle(client, { schema });
  try {
    await migrate(db, { migrationsFolder });
  } catch (error) {
    releaseLock();
    throw error;
  }
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
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
