/** SQL about operators and the append-only audit log. */
import { asc, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { auditLog, operators } from '../db/schema.js';

export type OperatorRow = typeof operators.$inferSelect;

export async function findOperatorByEmail(db: Executor, email: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email));
  return row;
}

/** Inserts an operator; undefined when the address is taken. */
export async function insertOperator(
  db: Executor,
  operator: typeof operators.$inferInsert,
): Promise<OperatorRow | undefined> {
  const [row] = await db.insert(operators).values(operator).onConflictDoNothing().returning();
  return row;
}

export async function listOperators(db: Executor): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.id));
}

export async function appendAudit(db: Executor, entry: typeof auditLog.$inferInsert): Promise<void> {
  await db.insert(auditLog).values(entry);
}

/** Newest first; `beforeId` pages backwards. */
export async function listAudit(db: Executor, beforeId: number | undefined, limit: number) {
  return db
    .select()
    .from(auditLog)
    .where(beforeId === undefined ? undefined : lt(auditLog.id, beforeId))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}
