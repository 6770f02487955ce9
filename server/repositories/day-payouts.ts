/**
 * SQL of the tables of daily payouts (schema/columns.ts `dayPayout`: hosting accruals, machine
 * earnings): one row per (item, local day), written once by its daily job, then named its
 * income line.
 */
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/database.js';
import { insertOnce, updateWhere } from './rows.js';

/** A table of daily payouts: keyed by its item's column and `day`, with the `income_id` it paid. */
export type DayPayoutTable = PgTable & { day: PgColumn; incomeId: PgColumn };

/** The statements of a table of daily payouts whose item is `item` (an order, a holding). */
export function dayPayoutRows<T extends DayPayoutTable>(table: T, item: PgColumn) {
  return {
    /**
     * Records one item's payout for one local day, unless that day is already recorded: false
     * then, and the caller pays nothing (the (item, day) key is what makes the job idempotent).
     */
    insert: (db: Executor, row: T['$inferInsert']): Promise<boolean> => insertOnce(db, table, row),
    /** Names the income line of one (item, day) payout. */
    setIncome: (db: Executor, itemId: number, day: string, incomeId: number): Promise<void> =>
      updateWhere(
        db,
        table,
        { incomeId } as Partial<T['$inferInsert']>,
        eq(item, itemId),
        eq(table.day, day),
      ),
  };
}
