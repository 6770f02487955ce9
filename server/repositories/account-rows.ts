/**
 * Queries every table of an account's rows shares. They must stay scoped to the account: an id
 * of another account's row finds nothing.
 */
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/database.js';
import { eqIfGiven, idIn, type Page, rowsNewestFirst } from './rows.js';

/** A table whose rows have an `id` and belong to one account (`account_id`). */
type AccountTable = PgTable & { id: PgColumn; accountId: PgColumn };

/** The account's rows of `table` with these ids (a pull's loader): others' ids find nothing. */
export async function accountRowsByIds<T extends AccountTable>(
  db: Executor,
  table: T,
  accountId: number,
  ids: readonly number[],
): Promise<T['$inferSelect'][]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.accountId, accountId), idIn(table.id, ids)));
  // `select()` of a table selects its whole row, which is what `$inferSelect` describes; drizzle
  // cannot follow that through a generic table.
  return rows as T['$inferSelect'][];
}

/** A page of one account's rows: below `beforeId` when given, at most `limit`. */
export type AccountPage = Page & { accountId: number };

/**
 * A page of the account's rows of `table`, newest (highest id) first, narrowed further by each
 * `filter` that is not undefined.
 */
export function accountRowsNewestFirst<T extends AccountTable>(
  db: Executor,
  table: T,
  page: AccountPage,
  ...filters: (SQL | undefined)[]
): Promise<T['$inferSelect'][]> {
  return rowsNewestFirst(db, table, page, eq(table.accountId, page.accountId), ...filters);
}

/**
 * The account-scoped reads of one table's records: `page` (newest first, below `beforeId` when
 * given) and `byIds` (a pull's loader).
 */
export function accountRecords<T extends AccountTable>(table: T) {
  return {
    page: (db: Executor, page: AccountPage) => accountRowsNewestFirst(db, table, page),
    byIds: (db: Executor, accountId: number, ids: readonly number[]) =>
      accountRowsByIds(db, table, accountId, ids),
  };
}

/**
 * The account-scoped reads of a table whose rows have a `status`: `page` (newest first, below
 * `beforeId` when given, of one status when given) and `byIds` (a pull's loader).
 */
export function accountRecordsByStatus<T extends AccountTable & { status: PgColumn }>(table: T) {
  return {
    page: (db: Executor, filter: AccountPage & { status?: string | undefined }) =>
      accountRowsNewestFirst(db, table, filter, eqIfGiven(table.status, filter.status)),
    byIds: (db: Executor, accountId: number, ids: readonly number[]) =>
      accountRowsByIds(db, table, accountId, ids),
  };
}
