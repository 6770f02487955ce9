/**
 * Proof of reserves (docs/protocol.md §32): the caller's proof from /api/v1/reserves/proof and its
 * snapshot's summary (what the chains held, the ratio) from the first item of
 * /api/v1/reserves/history (limit 1: a phone never downloads every leaf), kept together in the
 * user's database (`reservesProof`) so the page shows and verifies the proof offline with its age.
 * The proof is kept exactly as the server gave it, fields the contract does not name included: the
 * page downloads it unchanged.
 */
import { reservesHistoryDataSchema, type ReservesSnapshot } from '../../contract/api/reserves.js';
import {
  DexieReservesProofStore,
  keptProofSchema,
  RESERVES_PROOF_ID,
  type ReservesProofRecord,
  type ReservesProofStore,
} from '../../client-db/caches/reserves.js';
import type { Outcome } from '../../sync/ports.js';
import { readCached, type CachedResult } from './cached-read.js';
import type { HandlerDeps } from './deps.js';

/** The proof with its snapshot's summary, as one read. */
interface ProofWithSnapshot {
  proof: ReservesProofRecord['proof'];
  snapshot: ReservesSnapshot | null;
}

export function reservesHandlers(
  { api, session }: Pick<HandlerDeps, 'api' | 'session'>,
  store: ReservesProofStore = new DexieReservesProofStore(),
  now: () => Date = () => new Date(),
) {
  /**
   * The proof, then the newest snapshot's summary: kept when it is the proof's snapshot, else
   * (a snapshot taken in between, or the history not read) null, and the page says it is unknown.
   */
  async function read(): Promise<Outcome<ProofWithSnapshot>> {
    const proof = await api.read('/api/v1/reserves/proof', keptProofSchema);
    if (proof.kind !== 'ok') return proof;
    const history = await api.read('/api/v1/reserves/history', reservesHistoryDataSchema, { limit: '1' });
    const first = history.kind === 'ok' ? history.data.items[0] : undefined;
    const snapshot = first?.snapshotId === proof.data.snapshotId ? first : null;
    return { kind: 'ok', message: proof.message, data: { proof: proof.data, snapshot } };
  }

  return {
    /**
     * The caller's proof in the latest snapshot with that snapshot's reserves and ratio, kept for
     * offline reading; offline, the kept one. A 404 refusal: no snapshot holds the caller yet.
     * Never throws: a failure to store still returns the answer.
     */
    async 'reserves-proof'(): Promise<CachedResult<ReservesProofRecord>> {
      return readCached(session, now, read, {
        record: (data, fetchedAt): ReservesProofRecord => ({ id: RESERVES_PROOF_ID, ...data, fetchedAt }),
        keep: (userId, record) => store.put(userId, record),
        kept: (userId) => store.get(userId),
      });
    },
  };
}
