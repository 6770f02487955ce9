/** SQL of the published delivery (trade settlement) records. */
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { idIn, rowsNewestFirst } from './rows.js';
import { deliveryRecords } from '../db/schema.js';

export type DeliveryRow = typeof deliveryRecords.$inferSelect;
export type NewDeliveryRow = typeof deliveryRecords.$inferInsert;

/**
 * Inserts the records in one statement, in the given order (ids ascend with it). Returns null
 * when an order number is already published (nothing is inserted then: the statement is whole).
 */
export async function insertDeliveryRecords(
  db: Executor,
  rows: readonly NewDeliveryRow[],
): Promise<DeliveryRow[] | null> {
  if (rows.length === 0) return [];
  const saved = await db
    .insert(deliveryRecords)
    .values([...rows])
    .onConflictDoNothing({ target: deliveryRecords.orderNo })
    .returning();
  return saved.length === rows.length ? saved.sort((a, b) => a.id - b.id) : null;
}

/** The order numbers among `orderNos` that are already published. */
export async function publishedOrderNos(db: Executor, orderNos: readonly string[]): Promise<string[]> {
  if (orderNos.length === 0) return [];
  const rows = await db
    .select({ orderNo: deliveryRecords.orderNo })
    .from(deliveryRecords)
    .where(inArray(deliveryRecords.orderNo, [...orderNos]));
  return rows.map((row) => row.orderNo);
}

/** Records newest published first, below `beforeId` when given. */
export async function listDeliveryRecords(
  db: Executor,
  filter: { beforeId: number | undefined; limit: number },
): Promise<DeliveryRow[]> {
  return rowsNewestFirst(db, deliveryRecords, filter);
}

export async function deliveryRecordsByIds(db: Executor, ids: number[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(deliveryRecords).where(idIn(deliveryRecords.id, ids));
}

/** Deletes one record; returns it, or null when there was none. */
export async function deleteDeliveryRecord(db: Executor, id: number): Promise<DeliveryRow | null> {
  const [deleted] = await db.delete(deliveryRecords).where(eq(deliveryRecords.id, id)).returning();
  return deleted ?? null;
}
