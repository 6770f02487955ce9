/**
 * The proof-of-reserves page's view-model: pure functions from the kept proof to what the page
 * shows, tested without a browser (tests/client/reserves-view.test.ts). Amounts stay exact: minor
 * units (6 decimals) are shown by moving the decimal point of their digits, and the ratio becomes a
 * percent the same way, never through a float.
 */
import type { ReservesProof } from '../../../contract/api/reserves.js';
import type { LeafSecret, ProofStep, SumNode } from '../../../contract/reserves.js';
import type { ReservesProofRecord } from '../../../client-db/schema.js';
import { percentOf } from '../../ui/amounts.js';

const DECIMALS = 6;

/** Minor units (a string of decimal digits) as an amount: "1500000" -> "1.5", "0" -> "0". Pure. */
export function amountOfUnits(units: string | bigint): string {
  const digits = (typeof units === 'bigint' ? units : BigInt(units)).toString();
  const padded = digits.padStart(DECIMALS + 1, '0');
  const whole = padded.slice(0, -DECIMALS);
  const fraction = padded.slice(-DECIMALS).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * The sentence's values: the caller's USDT and RAB, the snapshot's time, and what share of what
 * it owes the platform held: a percent, `unread` when the chains could not be read (a null ratio,
 * or no chain read at all: the server's ratio is then 0 over what was read, which is nothing), or
 * `unknown` when the snapshot's summary did not come with the proof.
 */
export interface SentenceView {
  usdt: string;
  rab: string;
  at: string;
  held: { kind: 'percent'; percent: string } | { kind: 'unread' } | { kind: 'unknown' };
}

/** Pure. */
export function sentenceOf(record: Pick<ReservesProofRecord, 'proof' | 'snapshot'>): SentenceView {
  const { proof, snapshot } = record;
  const read = snapshot !== null && Object.values(snapshot.reserves).some((chain) => chain !== null);
  const percent = snapshot === null || !read || snapshot.ratio === null ? null : percentOf(snapshot.ratio);
  return {
    usdt: amountOfUnits(proof.leaf.usdt),
    rab: amountOfUnits(proof.leaf.rab),
    at: proof.at,
    held:
      snapshot === null
        ? { kind: 'unknown' }
        : percent === null
          ? { kind: 'unread' }
          : { kind: 'percent', percent },
  };
}

/** The proof in the tree's own types (bigint sums), for `verifyPath`. Throws on a malformed amount. */
export function proofInputs(proof: ReservesProof): { leaf: LeafSecret; path: ProofStep[]; root: SumNode } {
  return {
    leaf: { nonce: proof.leaf.nonce, usdt: BigInt(proof.leaf.usdt), rab: BigInt(proof.leaf.rab) },
    path: proof.path.map((step) => ({
      hash: step.hash,
      usdt: BigInt(step.usdt),
      rab: BigInt(step.rab),
      side: step.side,
    })),
    root: { hash: proof.root.hash, usdt: BigInt(proof.root.usdt), rab: BigInt(proof.root.rab) },
  };
}

/** One row of "each step": the running node, and (above the leaf) the sibling it was joined with. */
export interface StepView {
  /** 0 for the leaf, then the level above it. */
  level: number;
  hash: string;
  usdt: string;
  rab: string;
  sibling: { side: 'left' | 'right'; hash: string; usdt: string; rab: string } | null;
}

/** The climb from the leaf (`steps` as verifyPath returned them) beside the path's siblings. Pure. */
export function stepsOf(steps: readonly SumNode[], proof: ReservesProof): StepView[] {
  return steps.map((node, level) => {
    const sibling = level === 0 ? undefined : proof.path[level - 1];
    return {
      level,
      hash: node.hash,
      usdt: amountOfUnits(node.usdt),
      rab: amountOfUnits(node.rab),
      sibling:
        sibling === undefined
          ? null
          : {
              side: sibling.side,
              hash: sibling.hash,
              usdt: amountOfUnits(sibling.usdt),
              rab: amountOfUnits(sibling.rab),
            },
    };
  });
}

/** The downloaded file: the proof exactly as the server gave it, and its name. Pure. */
export function proofFile(proof: ReservesProof): { name: string; text: string } {
  const id = proof.snapshotId.replace(/[^\w-]/g, '_');
  return { name: `coffer-proof-of-reserves-${id}.json`, text: `${JSON.stringify(proof, null, 2)}\n` };
}
