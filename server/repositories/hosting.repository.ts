/** SQL of hosting: products, orders, their changes (the operator-log) and daily accruals. */
import { and, asc, eq, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { eqIfGiven, idRows } from './rows.js';
import { accountRecordsByStatus, accountRowsByIds, accountRowsNewestFirst } from './account-rows.js';
import { catalogueItems } from './catalogue-rows.js';
import { dayPayoutRows } from './day-payouts.js';
import { hostingAccruals, hostingOrderChanges, hostingOrders, hostingProducts } from '../db/schema.js';

export type HostingProductRow = typeof hostingProducts.$inferSelect;
export type HostingOrderRow = typeof hostingOrders.$inferSelect;
export type HostingChangeRow = typeof hostingOrderChanges.$inferSelect;
export type HostingAccrualRow = typeof hostingAccruals.$inferSelect;

// ---- products ----

/** Every product (active ones only when `activeOnly`), shortest term first. */
export const listProducts = (db: Executor, activeOnly: boolean): Promise<HostingProductRow[]> =>
  catalogueItems(db, hostingProducts, activeOnly, asc(hostingProducts.days), asc(hostingProducts.id));

const products = idRows(hostingProducts);
export const { find: findProduct, insert: insertProduct } = products;
/** Updates a product; null when there is no such product. */
export const updateProduct = products.updateIfAny;

// ---- orders ----

const orders = idRows(hostingOrders);
export const { insert: insertOrder, find: findOrder, update: updateOrder } = orders;
/** The order, locked for the rest of the transaction (every change of an order takes this first). */
export const lockOrder = orders.lock;

/** The account's orders: a page newest first (of one status when given), or those with these ids. */
export const { page: listOrders, byIds: ordersByIds } = accountRecordsByStatus(hostingOrders);

/**
 * The orders the daily job has work on, locked, by id: those with a whole local day of interest
 * not yet accrued before `dayStart` (today's local midnight), and those in progress that matured
 * by `now`. At most `limit`.
 */
export async function lockOrdersDue(
  db: Executor,
  query: { dayStart: Date; now: Date; limit: number },
): Promise<HostingOrderRow[]> {
  return db
    .select()
    .from(hostingOrders)
    .where(
      or(
        and(
          lt(hostingOrders.accruedUntil, hostingOrders.interestUntil),
          lt(hostingOrders.accruedUntil, query.dayStart),
        ),
        and(eq(hostingOrders.status, 'in_progress'), lte(hostingOrders.endAt, query.now)),
      ),
    )
    .orderBy(asc(hostingOrders.id))
    .limit(query.limit)
    .for('update');
}

// ---- changes (the operator-log) ----

export const { insert: insertChange } = idRows(hostingOrderChanges);

/** One order's changes in the order they happened: its principal timeline. */
export async function changesOfOrder(db: Executor, orderId: number): Promise<HostingChangeRow[]> {
  return db
    .select()
    .from(hostingOrderChanges)
    .where(eq(hostingOrderChanges.orderId, orderId))
    .orderBy(asc(hostingOrderChanges.at), asc(hostingOrderChanges.id));
}

/** Changes newest first, of one order or one account, below `beforeId`; at most `limit`. */
export async function listChanges(
  db: Executor,
  filter: { accountId: number; orderId?: number | undefined; beforeId?: number | undefined; limit: number },
): Promise<HostingChangeRow[]> {
  return accountRowsNewestFirst(
    db,
    hostingOrderChanges,
    filter,
    eqIfGiven(hostingOrderChanges.orderId, filter.orderId),
  );
}

export const changesByIds = (
  db: Executor,
  accountId: number,
  ids: readonly number[],
): Promise<HostingChangeRow[]> => accountRowsByIds(db, hostingOrderChanges, accountId, ids);

// ---- accruals ----

/** One order's interest for one local day: recorded once, then named its income line. */
export const { insert: insertAccrual, setIncome: setAccrualIncome } = dayPayoutRows(
  hostingAccruals,
  hostingAccruals.orderId,
);

/**
 * Names the income line of each of many (order, day) accruals, in one statement however many
 * (their values as one JSON parameter).
 */
export async function setAccrualIncomeMany(
  db: Executor,
  rows: readonly { orderId: number; day: string; incomeId: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = JSON.stringify(
    rows.map((row) => ({ order_id: String(row.orderId), day: row.day, income_id: String(row.incomeId) })),
  );
  await db.execute(sql`update hosting_accruals a set income_id = v.income_id
    from jsonb_to_recordset(${values}::jsonb) as v(order_id bigint, day text, income_id bigint)
    where a.order_id = v.order_id and a.day = v.day`);
}
