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

/** Where a pull stands in one collection: its scope and the cursor's position. */
export interface CollectionProbe {
  collection: string;
  scopeId: number;
  afterTxid: number;
  afterSeq: number;
}

const pendingSchema = z.object({
  rows: z.array(
    z.object({
      horizon: z.union([z.string(), z.number(), z.bigint()]),
      pending: z.array(z.string()).nullable(),
    }),
  ),
});

/**
 * The horizon (as `snapshotHorizon`) and, in the same statement, the collections that have a
 * change after their cursor below it: one indexed probe per collection, so a pull with nothing
 * new costs this one query.
 */
export async function pendingCollections(
  db: Executor,
  probes: readonly CollectionProbe[],
): Promise<{ horizon: number; pending: Set<string> }> {
  // Four arrays, one parameter each (a Postgres array literal): far cheaper to parse and plan
  // than a row of four parameters per collection. Collection names are the contract's own words.
  const column = (values: ReadonlyArray<string | number>) => `{${values.join(',')}}`;
  const pendingList =
    probes.length === 0
      ? sql`null::text[]`
      : sql`array(
          select probe.collection
          from unnest(
            ${column(probes.map((probe) => probe.collection))}::text[],
            ${column(probes.map((probe) => probe.scopeId))}::bigint[],
            ${column(probes.map((probe) => probe.afterTxid))}::bigint[],
            ${column(probes.map((probe) => probe.afterSeq))}::bigint[]
          ) as probe(collection, scope_id, after_txid, after_seq)
          where exists (
            select 1 from ${syncChanges} change
            where change.collection = probe.collection and change.scope_id = probe.scope_id
              and (change.txid, change.seq) > (probe.after_txid, probe.after_seq)
              and change.txid < horizon.value))`;
  const result = pendingSchema.parse(
    await db.execute(sql`
      select horizon.value as horizon, ${pendingList} as pending
      from (select ((pg_snapshot_xmin(pg_current_snapshot()))::text)::bigint as value) horizon`),
  );
  const row = result.rows[0];
  return { horizon: Number(row?.horizon ?? 0), pending: new Set(row?.pending ?? []) };
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
