/** Lists paged by row id, newest first (CONTRACT.md: `cursor` and `limit` in, `{items, nextCursor}` out). */
import type { RequestContext } from '../core/context.js';
import type { Executor } from '../db/database.js';
import type { AccountPage } from '../repositories/account-rows.js';
import { ownAccount } from './own-account.js';

export const DEFAULT_PAGE_SIZE = 20;

/** A page's place in a list: after the row `cursor` names, `limit` rows (DEFAULT_PAGE_SIZE). */
export interface PageParams {
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** A page of one account's list (the caller's default account when none is named), of one status when given. */
export interface AccountPageParams<Status extends string = never> extends PageParams {
  accountId?: string | undefined;
  status?: Status | undefined;
}

/**
 * Loads one page: asks `load` for one row more than the page holds (rows with ids below
 * `beforeId`, newest first), answers the page mapped by `toItem` and the cursor of the next one
 * (null on the last page).
 */
export async function pageById<Row extends { id: number }, Item>(
  params: PageParams,
  load: (beforeId: number | undefined, take: number) => Promise<Row[]>,
  toItem: (row: Row) => Item,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const limit = params.limit ?? DEFAULT_PAGE_SIZE;
  const rows = await load(params.cursor ? Number(params.cursor) : undefined, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(toItem), nextCursor: rows.length > limit && last ? String(last.id) : null };
}

/**
 * One page of the rows of the account `params` names, which must be the caller's (`ownAccount`:
 * 403 otherwise; none named: the default account). `load` reads the account's rows of `page`
 * (below `beforeId`, at most `limit`), newest first, as `pageById` asks.
 */
export async function ownAccountPage<Row extends { id: number }, Item>(
  db: Executor,
  ctx: RequestContext,
  params: AccountPageParams<string>,
  load: (db: Executor, page: AccountPage) => Promise<Row[]>,
  toItem: (row: Row) => Item,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const { accountId } = await ownAccount(db, ctx, params.accountId);
  return pageById(params, (beforeId, limit) => load(db, { accountId, beforeId, limit }), toItem);
}
