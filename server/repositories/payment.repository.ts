/** SQL of withdrawal methods. */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { paymentMethods } from '../db/schema.js';
import { insertRowUnlessTaken } from './rows.js';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** Inserts a method; undefined when the user already has the same one (a unique index says so). */
export const insertPaymentMethod = (db: Executor, row: typeof paymentMethods.$inferInsert) =>
  insertRowUnlessTaken(db, paymentMethods, row);

/** The user's methods not deleted, newest first. */
export async function paymentMethodsOf(db: Executor, userId: number): Promise<PaymentMethodRow[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, userId), isNull(paymentMethods.deletedAt)))
    .orderBy(desc(paymentMethods.id));
}

/** Marks the user's method deleted; false when it is not theirs or already deleted. */
export async function deletePaymentMethod(
  db: Executor,
  userId: number,
  id: number,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentMethods)
    .set({ deletedAt: at })
    .where(
      and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId), isNull(paymentMethods.deletedAt)),
    )
    .returning({ id: paymentMethods.id });
  return rows.length > 0;
}

/** One method by id, whoever owns it, deleted or not. */
export async function findPaymentMethod(db: Executor, id: number): Promise<PaymentMethodRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, id));
  return row;
}
