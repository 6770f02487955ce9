/** SQL about operators and the append-only audit log. */
import { asc, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { auditLog, operators } from '../db/schema.js';
import { auditHash, type AuditContent } from '../security/audit-chain.js';
import { findRow, idIn, insertRowUnlessTaken, lockRow, rowsNewestFirst } from './rows.js';

export type OperatorRow = typeof operators.$inferSelect;

export async function findOperatorByEmail(db: Executor, email: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email));
  return row;
}

/** Inserts an operator; undefined when the address is taken. */
export const insertOperator = (db: Executor, operator: typeof operators.$inferInsert) =>
  insertRowUnlessTaken(db, operators, operator);

export const findOperatorById = (db: Executor, id: number) => findRow(db, operators, id);

/** The operator's row, locked until the transaction ends (racing uses of one code: one wins). */
export const lockOperator = (db: Executor, id: number) => lockRow(db, operators, id);

export type OperatorChanges = Partial<
  Pick<
    OperatorRow,
    | 'passwordHash'
    | 'mustChangePassword'
    | 'authenticatorSecret'
    | 'authenticatorPendingSecret'
    | 'authenticatorLastStep'
    | 'disabled'
    | 'displayName'
  >
>;

export async function updateOperator(
  db: Executor,
  id: number,
  changes: OperatorChanges,
): Promise<OperatorRow> {
  const [row] = await db.update(operators).set(changes).where(eq(operators.id, id)).returning();
  if (!row) throw new Error(`operators: no operator ${id}`);
  return row;
}

/** True when there is at least one operator (the first start makes the root one otherwise). */
export async function anyOperator(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: operators.id }).from(operators).limit(1);
  return row !== undefined;
}

/** Waits for the lock that lets one of several instances starting at once make the first operator. */
export async function lockFirstOperator(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('operators:first', 0))`);
}

/** The e-mail of each operator among `ids` (an id that names no operator is absent). */
export async function operatorEmails(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: operators.id, email: operators.email })
    .from(operators)
    .where(idIn(operators.id, ids));
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function listOperators(db: Executor): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.id));
}

export type AuditRow = typeof auditLog.$inferSelect;

/**
 * Appends an entry to the hash chain in `db`'s transaction: waits for the chain's lock (a
 * transaction-scoped advisory lock, so appends are one at a time and each sees the last committed
 * hash), then links the entry to the last row. Call it last in a transaction where possible: the
 * lock is held until commit.
 */
export async function appendAudit(db: Executor, entry: AuditContent): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('audit:chain', 0))`);
  const [last] = await db.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  await db.insert(auditLog).values({ ...entry, hash: auditHash(last?.hash ?? '', entry) });
}

/** A page of the log in id order after `afterId` (the chain's check walks it). */
export async function auditRowsAfter(db: Executor, afterId: number, limit: number): Promise<AuditRow[]> {
  return db.select().from(auditLog).where(gt(auditLog.id, afterId)).orderBy(asc(auditLog.id)).limit(limit);
}

export interface AuditQuery {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  beforeId?: number | undefined;
}

/** Newest first, filtered; `beforeId` pages backwards. */
export async function listAudit(db: Executor, query: AuditQuery, limit: number) {
  const where: SQL[] = [];
  if (query.actor) where.push(eq(auditLog.actor, query.actor));
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.target) where.push(eq(auditLog.target, query.target));
  if (query.from) where.push(gte(auditLog.at, query.from));
  if (query.to) where.push(lt(auditLog.at, query.to));
  return rowsNewestFirst(db, auditLog, { beforeId: query.beforeId, limit }, ...where);
}
