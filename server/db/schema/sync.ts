/**
 * The sync change log.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, ref } from './columns.js';

/**
 * The sync change log (CONTRACT.md "Sync"): one row per write to a synced record, in the
 * writer's transaction, stamped with that transaction's id. A pull returns only rows of
 * transactions older than its snapshot's horizon, so a cursor never skips a late commit.
 * Its one index is its primary key in the pull's order (collection, scope, txid, seq): every
 * read goes through it, and a second index on seq alone cost each synced write one more btree
 * insert (four per ledger transfer) and read nothing.
 */
export const syncChanges = pgTable(
  'sync_changes',
  {
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    collection: text('collection').notNull(),
    /** The user or account the record belongs to; 0 for public collections. */
    scopeId: ref('scope_id'),
    recordId: text('record_id').notNull(),
    deleted: boolean('deleted').notNull(),
    /** The writing transaction's id (xid8 as a number: far below 2^53 for any real database). */
    txid: bigint('txid', { mode: 'number' })
      .notNull()
      .default(sql`((pg_current_xact_id())::text)::bigint`),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ name: 'sync_changes_pkey', columns: [t.collection, t.scopeId, t.txid, t.seq] })],
);
