/**
 * SQL of income lines: hosting interest, airdrops, dividends ... Each write also
 * records the change of the account-scoped `income` collection in the same transaction, so a
 * caller cannot forget it and a pull never misses a line.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.js';
import { eqIfGiven, insertRow } from './rows.js';
import { accountRowsByIds, accountRowsNewestFirst, type AccountPage } from './account-rows.js';
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

/** What `insertIncomeMany` answers of each line it wrote: enough to pay it. */
export interface WrittenIncome {
  id: number;
  accountId: number;
  type: string;
  amount: bigint;
  transferKey: string;
  sourceTable: string;
  sourceId: string;
}

const writtenRowsSchema = z.object({
  rows: z.array(
    z.object({
      id: z.union([z.string(), z.number()]),
      account_id: z.union([z.string(), z.number()]),
      type: z.string(),
      amount: z.union([z.string(), z.number()]),
      transfer_key: z.string(),
      source_table: z.string(),
      source_id: z.string(),
    }),
  ),
});

/**
 * Inserts many income lines in one statement (their values as one JSON parameter, however many),
 * each unless a line with its `key` exists, and records the `income` changes of those written in
 * the same statement. Idempotent per key like `insertIncome`; answers only the lines written now,
 * in the order given.
 */
export async function insertIncomeMany(
  db: Executor,
  rows: readonly NewIncomeRow[],
  at: Date,
): Promise<WrittenIncome[]> {
  if (rows.length === 0) return [];
  const values = JSON.stringify(
    rows.map((row, n) => ({
      n,
      account_id: String(row.accountId),
      user_id: String(row.userId),
      type: row.type,
      amount: String(row.amount),
      earnings_date: row.earningsDate,
      arrival_date: row.arrivalDate,
      status: row.status,
      key: row.key,
      transfer_key: row.transferKey,
      source_table: row.sourceTable,
      source_id: row.sourceId,
      memo: row.memo ?? null,
      source: row.source ?? null,
      arrived_at: row.arrivedAt?.toISOString() ?? null,
    })),
  );
  const result = writtenRowsSchema.parse(
    await db.execute(sql`
      with inserted as (
        insert into income (account_id, user_id, type, amount, earnings_date, arrival_date, status, key,
                            transfer_key, source_table, source_id, memo, source, arrived_at, created_at, updated_at)
        select v.account_id, v.user_id, v.type, v.amount, v.earnings_date, v.arrival_date, v.status, v.key,
               v.transfer_key, v.source_table, v.source_id, v.memo, v.source, v.arrived_at,
               ${at}::timestamptz, ${at}::timestamptz
          from jsonb_to_recordset(${values}::jsonb) as v(n integer, account_id bigint, user_id bigint, type text,
               amount bigint, earnings_date text, arrival_date text, status text, key text, transfer_key text,
               source_table text, source_id text, memo text, source jsonb, arrived_at timestamptz)
         order by v.n
        on conflict (key) do nothing
        returning id, account_id, type, amount, transfer_key, source_table, source_id
      ), changes as (
        insert into sync_changes (collection, scope_id, record_id, deleted, at)
        select 'income', account_id, id::text, false, ${at}::timestamptz from inserted
      )
      select * from inserted order by id`),
  );
  return result.rows.map((row) => ({
    id: Number(row.id),
    accountId: Number(row.account_id),
    type: row.type,
    amount: BigInt(row.amount),
    transferKey: row.transfer_key,
    sourceTable: row.source_table,
    sourceId: row.source_id,
  }));
}

/** The account's lines newest first, below `beforeId`, of one type when given; at most `limit`. */
export async function listIncome(
  db: Executor,
  filter: AccountPage & { type?: string | undefined },
): Promise<IncomeRow[]> {
  return accountRowsNewestFirst(db, income, filter, eqIfGiven(income.type, filter.type));
}

/** The account's lines with these ids (a pull's loader): others' ids find nothing. */
export const incomeByIds = (db: Executor, accountId: number, ids: readonly number[]): Promise<IncomeRow[]> =>
  accountRowsByIds(db, income, accountId, ids);

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
export const insertAirdrop = (db: Executor, row: typeof airdrops.$inferInsert): Promise<AirdropRow> =>
  insertRow(db, airdrops, row);
