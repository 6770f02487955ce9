/**
 * Proof of reserves: each snapshot's root and reserves, and its leaves in the tree's order.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, id, money, ref } from './columns.js';

/** What a chain held at a snapshot (USDT minor units as text), or null when it could not be read. */
export type ChainReserve = { usdt: string; block: string; addresses: number } | null;

export const reserveSnapshots = pgTable('reserve_snapshots', {
  id: id(),
  at: at('at').notNull(),
  rootHash: text('root_hash').notNull(),
  usdt: money('usdt'),
  rab: money('rab'),
  leafCount: integer('leaf_count').notNull(),
  reserves: jsonb('reserves').$type<{ BEP20: ChainReserve; TRC20: ChainReserve }>().notNull(),
  ratio: text('ratio'),
  /** `job`, or who asked for it (`operator:<id>`, `cli`). */
  takenBy: text('taken_by').notNull(),
});

/** A customer's leaf: their liabilities at the snapshot and the nonce that hides them. */
export const reserveLeaves = pgTable(
  'reserve_leaves',
  {
    snapshotId: ref('snapshot_id'),
    position: integer('position').notNull(),
    userId: ref('user_id'),
    nonce: text('nonce').notNull(),
    usdt: money('usdt'),
    rab: money('rab'),
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.snapshotId, t.position] }),
    index('reserve_leaves_user').on(t.userId, t.snapshotId),
    check('reserve_leaves_not_negative', sql`${t.usdt} >= 0 and ${t.rab} >= 0`),
  ],
);
