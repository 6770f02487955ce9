/** SQL of RAB/USDT exchanges. */
import { accountRowsByIds } from './account-rows.js';
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

/** The account's exchanges with these ids (a pull's loader): others' ids find nothing. */
export const exchangesByIds = (
  db: Executor,
  accountId: number,
  ids: readonly number[],
): Promise<ExchangeRow[]> => accountRowsByIds(db, exchanges, accountId, ids);
