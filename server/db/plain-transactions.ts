/**
 * Drizzle on a node-postgres pool whose transactions send `BEGIN`, `COMMIT` and `ROLLBACK` as
 * plain client queries. Drizzle's own builds, maps and traces each of those three words as a
 * query of its own; sent plainly, a ledger transfer (a transaction of one statement) ran 5 to 15 %
 * faster from Node (README, Ledger figures). Everything inside a transaction runs
 * through Drizzle as before, savepoints included; a transaction with options (an isolation level,
 * read only) is Drizzle's own.
 */
import type pg from 'pg';
import { NodePgDatabase, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect, type PgTransactionConfig } from 'drizzle-orm/pg-core';

type Tx = NodePgTransaction<Record<string, never>, Record<string, never>>;

class PlainTransactionSession extends NodePgSession<Record<string, never>, Record<string, never>> {
  constructor(
    private readonly pool: pg.Pool,
    dialect: PgDialect,
  ) {
    super(pool, dialect, undefined);
  }

  override async transaction<T>(run: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
    if (config !== undefined) return super.transaction(run, config);
    const client = await this.pool.connect();
    try {
      const tx: Tx = new NodePgTransaction(
        this.dialect,
        new NodePgSession(client, this.dialect, undefined),
        undefined,
      );
      await client.query('BEGIN');
      try {
        const result = await run(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    } finally {
      client.release();
    }
  }
}

/**
 * Drizzle over `pool`, as `drizzle(pool)` but for its transactions' three plain words; the pool
 * is its `$client`, as Drizzle's own keeps it.
 */
export function plainTransactionDrizzle(
  pool: pg.Pool,
): NodePgDatabase<Record<string, never>> & { $client: pg.Pool } {
  const dialect = new PgDialect();
  const db = new NodePgDatabase(dialect, new PlainTransactionSession(pool, dialect), undefined);
  return Object.assign(db, { $client: pool });
}
