/** SQL of withdrawals. */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { accountRecords } from './account-rows.js';
import { eqIfGiven, idRows, rowsNewestFirst } from './rows.js';
import { withdrawals } from '../db/schema.js';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type WithdrawalStageValue =
  'awaiting_review' | 'approved' | 'sending' | 'paid' | 'rejected' | 'failed';

const withdrawalRows = idRows(withdrawals);
export const { insert: insertWithdrawal, update: updateWithdrawal } = withdrawalRows;
/** Locks one withdrawal row for the rest of the transaction. */
export const lockWithdrawal = withdrawalRows.lock;

/** The sum of the user's withdrawals requested on `businessDate` that did not fail or get rejected. */
export async function withdrawnOn(db: Executor, userId: number, businessDate: string): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, userId),
        eq(withdrawals.businessDate, businessDate),
        ne(withdrawals.status, 'failed'),
      ),
    );
  return BigInt(row?.total ?? 0);
}

/** The account's withdrawals: a page newest first (below `beforeId` when given), or those with these ids. */
export const { page: withdrawalsOfAccount, byIds: withdrawalsByIds } = accountRecords(withdrawals);

/** Every withdrawal for operators, newest first, filtered by status and/or stage. */
export async function listWithdrawals(
  db: Executor,
  filter: {
    status?: string | undefined;
    stage?: string | undefined;
    beforeId?: number | undefined;
    limit: number;
  },
): Promise<WithdrawalRow[]> {
  // An empty status or stage filters nothing, as no status or stage does.
  return rowsNewestFirst(
    db,
    withdrawals,
    filter,
    eqIfGiven(withdrawals.status, filter.status || undefined),
    eqIfGiven(withdrawals.stage, filter.stage || undefined),
  );
}

/** Pending withdrawals at `stage` on `network`, oldest first (the send job's work). */
export async function pendingAtStage(
  db: Executor,
  stage: WithdrawalStageValue,
  network: string,
  limit: number,
): Promise<WithdrawalRow[]> {
  return db
    .select()
    .from(withdrawals)
    .where(
      and(eq(withdrawals.status, 'pending'), eq(withdrawals.stage, stage), eq(withdrawals.network, network)),
    )
    .orderBy(withdrawals.id)
    .limit(limit);
}

/** The highest nonce recorded on `network` (null: none yet). */
export async function highestNonce(db: Executor, network: string): Promise<number | null> {
  const [row] = await db
    .select({ nonce: sql<number | null>`max(${withdrawals.nonce})` })
    .from(withdrawals)
    .where(eq(withdrawals.network, network));
  return row?.nonce === null || row?.nonce === undefined ? null : Number(row.nonce);
}

/**
 * Sets the depth the send job saw for a withdrawal still `sending` `txHash`, only when it differs
 * from what is recorded (one UPDATE; a repeated count writes nothing). True when a row changed.
 */
export async function recordConfirmations(
  db: Executor,
  id: number,
  txHash: string,
  count: number,
): Promise<boolean> {
  const changed = await db
    .update(withdrawals)
    .set({ confirmations: count })
    .where(
      and(
        eq(withdrawals.id, id),
        eq(withdrawals.stage, 'sending'),
        eq(withdrawals.txHash, txHash),
        sql`${withdrawals.confirmations} is distinct from ${count}`,
      ),
    )
    .returning({ id: withdrawals.id });
  return changed.length > 0;
}
