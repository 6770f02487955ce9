/**
 * Proof of reserves on the wire (docs/protocol.md §31): the latest snapshot with every leaf, a
 * customer's own proof, and the list of snapshots. Amounts are decimal integers of minor units as
 * strings (6 decimals for USDT and RAB), hashes lower-case hex.
 */
import { z } from 'zod';
import { idSchema, isoTimeSchema, pageOf, pageParamsSchema } from '../schema.js';

const units = z.string().regex(/^\d{1,30}$/);
export const sumNodeSchema = z.object({ hash: z.string(), usdt: units, rab: units });

/** What a chain held at the snapshot: null when Coffer cannot read it (no node, or no reader yet). */
export const chainReserveSchema = z
  .object({ usdt: units, block: z.string(), addresses: z.number().int() })
  .nullable();

export const reservesSnapshotSchema = z.object({
  snapshotId: z.string(),
  at: isoTimeSchema,
  root: sumNodeSchema,
  reserves: z.object({ BEP20: chainReserveSchema, TRC20: chainReserveSchema }),
  /** What the chains read held over what customers are owed in USDT, 4 decimals; null when nothing is owed or no chain could be read. */
  ratio: z.string().nullable(),
  leafCount: z.number().int(),
});
export type ReservesSnapshot = z.infer<typeof reservesSnapshotSchema>;

export const reservesLatestDataSchema = reservesSnapshotSchema.extend({
  /** Every leaf in the tree's order (the shuffle of this snapshot). */
  leaves: z.array(sumNodeSchema),
});

export const reservesProofParamsSchema = z.object({ snapshotId: idSchema.optional() });
/** The caller's proof, with its snapshot's summary (reserves, ratio, leaf count) beside it. */
export const reservesProofSchema = reservesSnapshotSchema.extend({
  leaf: z.object({ nonce: z.string(), usdt: units, rab: units }),
  path: z.array(sumNodeSchema.extend({ side: z.enum(['left', 'right']) })),
});
export type ReservesProof = z.infer<typeof reservesProofSchema>;

export const reservesHistoryParamsSchema = pageParamsSchema;
export const reservesHistoryDataSchema = pageOf(reservesSnapshotSchema);
