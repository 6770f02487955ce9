/** SQL of OTC orders and their fills. */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { accountRowsByIds, accountRowsNewestFirst, type AccountPage } from './account-rows.js';
import { eqIfGiven, idIn, idRows, insertRow, updateRow } from './rows.js';
import { otcFills, otcOrders } from '../db/schema.js';

export type OtcOrderRow = typeof otcOrders.$inferSelect;
export type OtcFillRow = typeof otcFills.$inferSelect;

const orders = idRows(otcOrders);
export const { insert: insertOtcOrder, find: findOtcOrder } = orders;
/** The order, its row locked until the transaction ends (SELECT ... FOR UPDATE): takes and cancels of it run one at a time. */
export const lockOtcOrder = orders.lock;

/**
 * Waits for the OTC settlement lock (a transaction-scoped advisory lock, released at commit or
 * rollback): one fill's ledger transfers at a time, so two fills never lock balance rows in
 * crossed orders across their several ledger calls.
 */
export async function lockOtcSettlement(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('otc:settle', 0))`);
}

export const updateOtcOrder = (
  db: Executor,
  id: number,
  changes: Partial<
    Pick<OtcOrderRow, 'filled' | 'usdtFilled' | 'makerFeeFilled' | 'status' | 'holdId' | 'updatedAt'>
  >,
): Promise<OtcOrderRow> => updateRow(db, otcOrders, id, changes);

export const insertOtcFill = (db: Executor, row: typeof otcFills.$inferInsert): Promise<OtcFillRow> =>
  insertRow(db, otcFills, row);

/**
 * One page of the open book of one side: newest first, or best price first (buys highest, sells
 * lowest; ties oldest first), skipping `offset` rows.
 */
export async function listOpenOtcOrders(
  db: Executor,
  filter: { side: 'buy' | 'sell'; sort: 'newest' | 'price'; offset: number; limit: number },
): Promise<OtcOrderRow[]> {
  const order =
    filter.sort === 'newest'
      ? [desc(otcOrders.id)]
      : [filter.side === 'buy' ? desc(otcOrders.price) : asc(otcOrders.price), asc(otcOrders.id)];
  return db
    .select()
    .from(otcOrders)
    .where(and(eq(otcOrders.side, filter.side), eq(otcOrders.status, 'pending_match')))
    .orderBy(...order)
    .offset(filter.offset)
    .limit(filter.limit);
}

/** One account's orders of one side, newest first. */
export async function listAccountOtcOrders(
  db: Executor,
  filter: AccountPage & { side: 'buy' | 'sell'; status: string | undefined },
): Promise<OtcOrderRow[]> {
  return accountRowsNewestFirst(
    db,
    otcOrders,
    filter,
    eq(otcOrders.side, filter.side),
    eqIfGiven(otcOrders.status, filter.status),
  );
}

/** The orders of `ids` listed from `accountId` (the `otc_orders` collection). */
/** The account's orders with these ids (a pull's loader): others' ids find nothing. */
export const otcOrdersByIds = (
  db: Executor,
  accountId: number,
  ids: readonly number[],
): Promise<OtcOrderRow[]> => accountRowsByIds(db, otcOrders, accountId, ids);

/** The open orders among `ids` (the public `otc_book` collection: an order no longer open is a delete). */
export async function openOtcOrdersByIds(db: Executor, ids: number[]): Promise<OtcOrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(otcOrders)
    .where(and(eq(otcOrders.status, 'pending_match'), idIn(otcOrders.id, ids)));
}
