/**
 * SQL of income lines (issue 12): hosting interest, airdrops, dividends ... Each write also
 * records the change of the account-scoped `income` collection in the same transaction, so a
 * caller cannot forget it and a pull never misses a line.
 */
import { and, asc, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { airdrops, income } from '../db/schema.js';
import { recordChanges } from './sync.repository.js';

export type IncomeRow = typeof income.$inferSelect;
export type NewIncomeRow = typeof income.$inferInsert;
export type AirdropRow = typeof airdrops.$inferSelect;

const changed = (rows: readonly IncomeRow[], at: Date) =>
  rows.map((row) => ({
    collection: 'income',
    scopeId: row.accountId,
    recordId: String(row.id),
    deleted: false,
    at,
  }));

/**
 * Inserts an income line unless one with its `key` exists (the key is derived from the cause,
 * e.g. `hosting:12:interest:2026-01-06`). Idempotent: a repeat returns the existing line with
 * `created: false` and writes nothing. A concurrent insert of the same key waits for the first
 * to commit (the unique index), then finds it.
 */
export async function insertIncome(
  db: Executor,
  row: NewIncomeRow,
): Promise<{ row: IncomeRow; created: boolean }> {
  const [created] = await db
    .insert(income)
    .values(row)
    .onConflictDoNothing({ target: income.key })
    .returning();
  if (created) {
    await recordChanges(db, changed([created], created.updatedAt));
    return { row: created, created: true };
  }
  const [existing] = await db.select().from(income).where(eq(income.key, row.key));
  if (!existing) throw new Error(`income: line ${row.key} vanished`);
  return { row: existing, created: false };
}

/**
 * Inserts many income lines in one statement, each unless a line with its `key` exists, and
 * records the `income` changes of those written. Idempotent per key like `insertIncome`; answers
 * only the lines written now. At most 1000 rows a call (PostgreSQL's parameter limit).
 */
export async function insertIncomeMany(db: Executor, rows: readonly NewIncomeRow[]): Promise<IncomeRow[]> {
  if (rows.length === 0) return [];
  if (rows.length > 1000) throw new Error('income: at most 1000 lines an insert');
  const created = await db
    .insert(income)
    .values([...rows])
    .onConflictDoNothing({ target: income.key })
    .returning();
  const at = created[0]?.updatedAt;
  if (at) await recordChanges(db, changed(created, at));
  return created;
}

/** The account's lines newest first, below `beforeId`, of one type when given; at most `limit`. */
export async function listIncome(
  db: Executor,
  filter: { accountId: number; type?: string | undefined; beforeId?: number | undefined; limit: number },
): Promise<IncomeRow[]> {
  const where: SQL[] = [eq(income.accountId, filter.accountId)];
  if (filter.type !== undefined) where.push(eq(income.type, filter.type));
  if (filter.beforeId !== undefined) where.push(lt(income.id, filter.beforeId));
  return db
    .select()
    .from(income)
    .where(and(...where))
    .orderBy(desc(income.id))
    .limit(filter.limit);
}

/** The account's lines with these ids (a pull's loader): others' ids find nothing. */
export async function incomeByIds(
  db: Executor,
  accountId: number,
  ids: readonly number[],
): Promise<IncomeRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(income)
    .where(and(eq(income.accountId, accountId), inArray(income.id, [...ids])));
}

/** The line with this key, if any. */
export async function findIncomeByKey(db: Executor, key: string): Promise<IncomeRow | undefined> {
  const [row] = await db.select().from(income).where(eq(income.key, key));
  return row;
}

/** A cause's lines still pending arrival (e.g. one order's interest paid at maturity), oldest first. */
export async function pendingIncomeOf(
  db: Executor,
  source: { table: string; id: string },
): Promise<IncomeRow[]> {
  return db
    .select()
    .from(income)
    .where(
      and(
        eq(income.sourceTable, source.table),
        eq(income.sourceId, source.id),
        eq(income.status, 'pending_arrival'),
      ),
    )
    .orderBy(asc(income.id));
}

/**
 * Marks a pending line arrived (its ledger transfer is written by the caller in the same
 * transaction). Exactly once: a conditional update, so of two racing callers one gets the row
 * and the other null; an arrived line is never changed again.
 */
export async function markIncomeArrived(
  db: Executor,
  input: { id: number; arrivedAt: Date; arrivalDate: string },
): Promise<IncomeRow | null> {
  const [row] = await db
    .update(income)
    .set({
      status: 'arrived',
      arrivedAt: input.arrivedAt,
      arrivalDate: input.arrivalDate,
      updatedAt: input.arrivedAt,
    })
    .where(and(eq(income.id, input.id), eq(income.status, 'pending_arrival')))
    .returning();
  if (!row) return null;
  await recordChanges(db, changed([row], input.arrivedAt));
  return row;
}

/** Records an operator's airdrop (its lines are written by the caller in the same transaction). */
export async function insertAirdrop(db: Executor, row: typeof airdrops.$inferInsert): Promise<AirdropRow> {
  const [saved] = await db.insert(airdrops).values(row).returning();
  if (!saved) throw new Error('airdrops: insert returned no row');
  return saved;
}
