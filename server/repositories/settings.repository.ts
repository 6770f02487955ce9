/** SQL of platform settings (the RAB price, the newcomer incentive) and operators' ledger adjustments. */
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { insertRow, lockRow, rowWhere, upsertRow } from './rows.js';
import { ledgerAdjustments, platformSettings } from '../db/schema.js';

export type AdjustmentRow = typeof ledgerAdjustments.$inferSelect;

export const findSetting = (db: Executor, key: string) =>
  rowWhere(db, platformSettings, eq(platformSettings.key, key));

export const setSetting = (
  db: Executor,
  setting: { key: string; value: string; updatedAt: Date; updatedBy: string },
) =>
  upsertRow(db, platformSettings, platformSettings.key, setting, {
    value: setting.value,
    updatedAt: setting.updatedAt,
    updatedBy: setting.updatedBy,
  });

export const insertAdjustment = (
  db: Executor,
  row: typeof ledgerAdjustments.$inferInsert,
): Promise<AdjustmentRow> => insertRow(db, ledgerAdjustments, row);

/** Locks an adjustment for this transaction (approve and reject race). */
export const lockAdjustment = (db: Executor, id: number): Promise<AdjustmentRow | undefined> =>
  lockRow(db, ledgerAdjustments, id);

export async function reviewAdjustment(
  db: Executor,
  id: number,
  change: { status: 'applied' | 'rejected'; reviewedBy: string; reviewedAt: Date },
): Promise<void> {
  await db.update(ledgerAdjustments).set(change).where(eq(ledgerAdjustments.id, id));
}

/** Adjustments, newest first, optionally of one status. */
export async function listAdjustments(
  db: Executor,
  query: { status: AdjustmentRow['status'] | undefined; beforeId: number | undefined; limit: number },
) {
  return db
    .select()
    .from(ledgerAdjustments)
    .where(
      and(
        query.status === undefined ? undefined : eq(ledgerAdjustments.status, query.status),
        query.beforeId === undefined ? undefined : lt(ledgerAdjustments.id, query.beforeId),
      ),
    )
    .orderBy(desc(ledgerAdjustments.id))
    .limit(query.limit);
}
