/**
 * The proof-of-reserves page's kept proof: the local `reservesProof` table of `coffer-u{user}`
 * (`schema.ts`), one row. The worker alone writes it, through `reserves-proof`; the UI reads it
 * live, so the page shows and verifies the proof offline with its age. The row is parsed on the way
 * out (STYLE rule 5): a row of another shape counts as absent.
 */
import { z } from 'zod';
import { reservesProofSchema, reservesSnapshotSchema } from '../../contract/api/reserves.js';
import { isoTimeSchema } from '../../contract/schema.js';
import type { ReservesProofRecord } from '../schema.js';
import { DexieUserRowStore, type UserRowStore } from './one-row.js';

/**
 * The proof as the server gives it, every field kept (a field the contract does not name too), so
 * the page downloads exactly what the server answered.
 */
export const keptProofSchema = reservesProofSchema.loose();

/** The one row's key. */
export const RESERVES_PROOF_ID = 'latest';

const reservesProofRecordSchema = z.object({
  id: z.literal(RESERVES_PROOF_ID),
  proof: keptProofSchema,
  snapshot: reservesSnapshotSchema.nullable(),
  fetchedAt: isoTimeSchema,
});

/** Parses a stored row; null for a row of another shape (or none). Pure. */
export function parseReservesProof(row: unknown): ReservesProofRecord | null {
  const parsed = reservesProofRecordSchema.safeParse(row);
  return parsed.success ? parsed.data : null;
}

/** The user's kept proof. */
export type ReservesProofStore = UserRowStore<ReservesProofRecord>;

/** The kept proof over IndexedDB. */
export class DexieReservesProofStore extends DexieUserRowStore<ReservesProofRecord> {
  constructor() {
    super('reservesProof', RESERVES_PROOF_ID, parseReservesProof);
  }
}

export type { ReservesProofRecord };
