/** SQL of OTC orders and their fills. */
import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { otcFills, otcOrders } from '../db/schema.js';

export type OtcOrderRow = typeof otcOrders.$inferSelect;
export type OtcFillRow = typeof otcFills.$inferSelect;

export async function insertOtcOrder(db: Executor, row: typeof otcOrders.$inferInsert): Promise<OtcOrderRow> {
  const [saved] = await db.insert(otcOrders).values(row).returning();
  if (!saved) throw new Error('otc_orders: insert returned no row');
  return saved;
}

export async function findOtcOrder(db: Executor, id: number): Promise<OtcOrderRow | undefined> {
  const [row] = await db.select().from(otcOrders).where(eq(otcOrders.id, id));
  return row;
}

/** The order, its row locked until the transaction ends (SELECT ... FOR UPDATE): takes and cancels of it run one at a time. */
export async function lockOtcOrder(db: Executor, id: number): Promise<OtcOrderRow | undefined> {
  const [row] = await db.select().from(otcOrders).where(eq(otcOrders.id, id)).for('update');
  return row;
}

/**
 * Waits for the OTC settlement lock (a transaction-scoped advisory lock, released at commit or
 * rollback): one fill's ledger transfers at a time, so two fills never lock balance rows in
 * crossed orders across their several ledger calls.
 */
export async function lockOtcSettlement(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('otc:settle', 0))`);
}

export async function updateOtcOrder(
  db: Executor,
  id: number,
  changes: Partial<
    Pick<OtcOrderRow, 'filled' | 'usdtFilled' | 'makerFeeFilled' | 'status' | 'holdId' | 'updatedAt'>
  >,
): Promise<OtcOrderRow> {
  const [saved] = await db.update(otcOrders).set(changes).where(eq(otcOrders.id, id)).returning();
  if (!saved) throw new Error(`otc_orders: no order ${id}`);
  return saved;
}

export async function insertOtcFill(db: Executor, row: typeof otcFills.$inferInsert): Promise<OtcFillRow> {
  const [saved] = await db.insert(otcFills).values(row).returning();
  if (!saved) throw new Error('otc_fills: insert returned no row');
  return saved;
}

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
  filter: {
    accountId: number;
    side: 'buy' | 'sell';
    status: string | undefined;
    beforeId: number | undefined;
    limit: number;
  },
): Promise<OtcOrderRow[]> {
  const where: SQL[] = [eq(otcOrders.accountId, filter.accountId), eq(otcOrders.side, filter.side)];
  if (filter.status !== undefined) where.push(eq(otcOrders.status, filter.status));
  if (filter.beforeId !== undefined) where.push(lt(otcOrders.id, filter.beforeId));
  return db
    .select()
    .from(otcOrders)
    .where(and(...where))
    .orderBy(desc(otcOrders.id))
    .limit(filter.limit);
}

/** The orders of `ids` listed from `accountId` (the `otc_orders` collection). */
export async function otcOrdersByIds(db: Executor, accountId: number, ids: number[]): Promise<OtcOrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(otcOrders)
    .where(and(eq(otcOrders.accountId, accountId), inArray(otcOrders.id, ids)));
}

/** The open orders among `ids` (the public `otc_book` collection: an order no longer open is a delete). */
export async function openOtcOrdersByIds(db: Executor, ids: number[]): Promise<OtcOrderRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(otcOrders)
    .where(and(eq(otcOrders.status, 'pending_match'), inArray(otcOrders.id, ids)));
}
