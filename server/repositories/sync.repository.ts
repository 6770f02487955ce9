/** SQL of the sync change log. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.js';
import { syncChanges } from '../db/schema.js';

export interface SyncChange {
  collection: string;
  scopeId: number;
  recordId: string;
  deleted: boolean;
  at: Date;
}

/** Records a write to a synced record, in the writer's transaction (so both commit or neither). */
export async function recordChange(db: Executor, change: SyncChange): Promise<void> {
  await recordChanges(db, [change]);
}

/** Records several writes in one statement, in the writer's transaction. */
export async function recordChanges(db: Executor, changes: readonly SyncChange[]): Promise<void> {
  if (changes.length > 0) await db.insert(syncChanges).values([...changes]);
}

const horizonSchema = z.object({
  rows: z.array(z.object({ horizon: z.union([z.string(), z.number(), z.bigint()]) })),
});

/**
 * The oldest transaction id still running (this one included): every change with a smaller
 * txid is committed or gone for good, so delivering only those never skips a late commit.
 */
export async function snapshotHorizon(db: Executor): Promise<number> {
  const result = horizonSchema.parse(
    await db.execute(sql`select ((pg_snapshot_xmin(pg_current_snapshot()))::text)::bigint as horizon`),
  );
  return Number(result.rows[0]?.horizon ?? 0);
}

/** Changes of one collection and scope after the cursor and below the horizon, oldest first. */
export async function changesAfter(
  db: Executor,
  query: {
    collection: string;
    scopeId: number;
    afterTxid: number;
    afterSeq: number;
    horizon: number;
    limit: number;
  },
) {
  return db
    .select({
      seq: syncChanges.seq,
      txid: syncChanges.txid,
      recordId: syncChanges.recordId,
      deleted: syncChanges.deleted,
    })
    .from(syncChanges)
    .where(
      and(
        eq(syncChanges.collection, query.collection),
        eq(syncChanges.scopeId, query.scopeId),
        sql`(${syncChanges.txid}, ${syncChanges.seq}) > (${query.afterTxid}::bigint, ${query.afterSeq}::bigint)`,
        sql`${syncChanges.txid} < ${query.horizon}::bigint`,
      ),
    )
    .orderBy(asc(syncChanges.txid), asc(syncChanges.seq))
    .limit(query.limit);
}
