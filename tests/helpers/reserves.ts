/**
 * A proof of reserves and its snapshot's summary as the server gives them: snapshot 7 of two
 * leaves, the caller's leaf holding half of each asset, BEP20 read (3.069 USDT) and TRC20 not.
 */
import type { ReservesProof, ReservesSnapshot } from '../../contract/api/reserves.js';

/** The caller's proof in snapshot 7: its leaf and the one sibling on its path. */
export const reservesProof: ReservesProof = {
  snapshotId: '7',
  at: '2026-11-27T00:00:05.000Z',
  root: { hash: 'f'.repeat(64), usdt: '3000000', rab: '500000' },
  reserves: { BEP20: null, TRC20: null },
  ratio: null,
  leafCount: 2,
  leaf: { nonce: 'ab'.repeat(32), usdt: '1500000', rab: '250000' },
  path: [{ hash: 'e'.repeat(64), usdt: '1500000', rab: '250000', side: 'left' }],
};

/** The summary of the proof's snapshot (ratio 1.023 unless overridden). */
export function reservesSnapshot(overrides: Partial<ReservesSnapshot> = {}): ReservesSnapshot {
  return {
    snapshotId: '7',
    at: reservesProof.at,
    root: reservesProof.root,
    reserves: { BEP20: { usdt: '3069000', block: '99', addresses: 2 }, TRC20: null },
    ratio: '1.023',
    leafCount: 2,
    ...overrides,
  };
}
