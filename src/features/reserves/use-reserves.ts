/**
 * Live reads of the proof-of-reserves page: the proof the worker kept (`reservesProof`), asked for
 * again when the page opens or the link comes back; and its verification, recomputed on this
 * device (contract/reserves.ts, WebCrypto) whenever the kept proof changes. Import from lazy pages
 * only (it loads the schemas through client-db/).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { ReservesProof } from '../../../contract/api/reserves.js';
import { BodyCode } from '../../../contract/codes.js';
import { verifyPath, type SumNode } from '../../../contract/reserves.js';
import { parseReservesProof, RESERVES_PROOF_ID } from '../../../client-db/caches/reserves.js';
import type { ReservesProofRecord } from '../../../client-db/schema.js';
import { userDatabase } from '../../../client-db/use-sync-db.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { proofInputs } from './reserves-view.js';

/**
 * Where the answer stands: `loading` (asked, no answer yet), `fresh` (the server answered), `saved`
 * (the server was not reached; what this device kept is shown), `none` (no snapshot holds the
 * user yet), `failed` (refused, or not reached with nothing kept: told as a toast).
 */
export type ReservesState = 'loading' | 'fresh' | 'saved' | 'none' | 'failed';

/** The kept proof, read live (undefined while loading, null when none), and asked for again on open and link. */
export function useReservesProof(
  userId: string,
  online: boolean,
): { record: ReservesProofRecord | null | undefined; state: ReservesState } {
  const handle = useOutcome();
  const [answered, setAnswered] = useState<{ key: string; state: ReservesState } | null>(null);
  const record = useLiveQuery(
    async () => parseReservesProof(await userDatabase(userId).reservesProof.get(RESERVES_PROOF_ID)),
    [userId],
  );
  const key = `${userId}/${String(online)}`;

  useEffect(() => {
    let live = true;
    void send('reserves-proof').then((result) => {
      if (!live) return;
      let state: ReservesState;
      if (result.kind === 'ok') state = 'fresh';
      else if (result.kind === 'cached') state = 'saved';
      else if (result.kind === 'refused' && result.code === BodyCode.notFound) state = 'none';
      else {
        handle(result);
        state = 'failed';
      }
      setAnswered({ key, state });
    });
    return () => {
      live = false;
    };
  }, [key, handle]);

  return { record, state: answered?.key === key ? answered.state : 'loading' };
}

/** The proof checked on this device: `checking`, then verified or not with each running node. */
export type Verification =
  { kind: 'checking' } | { kind: 'verified'; steps: SumNode[] } | { kind: 'failed'; steps: SumNode[] };

/** Recomputes `proof`'s path to its root on this device, again whenever the proof changes. */
export function useVerification(proof: ReservesProof | undefined): Verification {
  const [done, setDone] = useState<{ proof: ReservesProof; result: Verification } | null>(null);
  useEffect(() => {
    if (proof === undefined) return;
    let live = true;
    const check = async (): Promise<Verification> => {
      try {
        const { leaf, path, root } = proofInputs(proof);
        const { ok, steps } = await verifyPath(leaf, path, root);
        return ok ? { kind: 'verified', steps } : { kind: 'failed', steps };
      } catch {
        // A malformed amount, a negative leaf or no WebCrypto: the proof is not verified here.
        return { kind: 'failed', steps: [] };
      }
    };
    void check().then((result) => {
      if (live) setDone({ proof, result });
    });
    return () => {
      live = false;
    };
  }, [proof]);
  return done !== null && done.proof === proof ? done.result : { kind: 'checking' };
}
