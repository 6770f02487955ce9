/**
 * The daily proof-of-reserves snapshot (docs/protocol.md §31): the first try after 00:00 in
 * COFFER_TIMEZONE takes the day's snapshot, in the scheduler's one transaction with its job_runs
 * row; what the chains hold is read just before that transaction opens. A snapshot whose leaves do not add up to the ledger throws: nothing is kept and the
 * scheduler logs it as an error.
 */
import { localDateOf } from '../services/hosting/days.js';
import type { ChainHoldings, ProofOfReservesService } from '../services/proof-of-reserves.service.js';
import { JobName, type Job } from './scheduler.js';

export function reservesSnapshotJob(reserves: ProofOfReservesService, timezone: string): Job {
  let held: ChainHoldings | null = null;
  return {
    name: JobName.reservesSnapshot,
    // Each try reads the chains first (outside the transaction), so tries are spaced out.
    everySeconds: 300,
    periodOf: (now) => localDateOf(now, timezone),
    async prepare() {
      held = await reserves.chainHoldings();
    },
    async run(tx) {
      if (!held) throw new Error('reserves-snapshot: the chains were not read');
      const snapshot = await reserves.take(tx, 'job', held);
      return {
        snapshotId: snapshot.snapshotId,
        leaves: snapshot.leafCount,
        usdt: snapshot.root.usdt,
        rab: snapshot.root.rab,
      };
    },
  };
}
