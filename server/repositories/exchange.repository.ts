/** SQL of RAB/USDT exchanges. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { eqIfGiven, insertRow, rowsNewestFirst, type Page } from './rows.js';
import { exchanges } from '../db/schema.js';

export type ExchangeRow = typeof exchanges.$inferSelect;

export const insertExchange = (db: Executor, row: typeof exchanges.$inferInsert): Promise<ExchangeRow> =>
  insertRow(db, exchanges, row);

/** Exchanges newest first: of one account, or (accountId undefined) of everyone, for operators. */
export async function listExchanges(
  db: Executor,
  filter: Page & { accountId: number | undefined },
): Promise<ExchangeRow[]> {
  return rowsNewestFirst(db, exchanges, filter, eqIfGiven(exchanges.accountId, filter.accountId));
}

export async function exchangesByIds(db: Executor, accountId: number, ids: number[]): Promise<ExchangeRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(exchanges)
    .where(and(eq(exchanges.accountId, accountId), inArray(exchanges.id, ids)));
}
