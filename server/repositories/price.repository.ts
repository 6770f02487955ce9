/** SQL of operators' price versions: one row per price change, the newest is the price. */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { insertRow, rowsNewestFirst } from './rows.js';
import { priceVersions } from '../db/schema.js';

export type PriceVersionRow = typeof priceVersions.$inferSelect;

/** The newest price version of `asset`, or undefined when its price was never set. */
export async function latestPriceVersion(db: Executor, asset: string): Promise<PriceVersionRow | undefined> {
  const [row] = await recentPriceVersions(db, asset, 1);
  return row;
}

/** The newest `limit` price versions of `asset`, newest first. */
export const recentPriceVersions = (db: Executor, asset: string, limit: number): Promise<PriceVersionRow[]> =>
  rowsNewestFirst(db, priceVersions, { limit }, eq(priceVersions.asset, asset));

export const insertPriceVersion = (
  db: Executor,
  row: typeof priceVersions.$inferInsert,
): Promise<PriceVersionRow> => insertRow(db, priceVersions, row);

/**
 * Serialises a price change against fills at the price, until the transaction ends (an advisory
 * lock on the asset): fills take it shared, so they run side by side; a change takes it
 * exclusive, so it waits for fills already under way and they wait for it. A fill that reads
 * the newest version after taking the lock can never fill at a version a committed change
 * replaced.
 */
export async function lockPrice(db: Executor, asset: string, mode: 'shared' | 'exclusive'): Promise<void> {
  const key = `price:${asset}`;
  await db.execute(
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`
      : sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`,
  );
}
