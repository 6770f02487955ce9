/** Types of the static verify page's module (public/reserves/verify.js), for the tests that run it. */
export interface ProofLike {
  leaf: { nonce: string; usdt: string; rab: string };
  path: Array<{ hash: string; usdt: string; rab: string; side: string }>;
  root: { hash: string; usdt: string; rab: string };
  at?: string;
}
export function verifyProof(
  proof: ProofLike,
): Promise<{ ok: boolean; steps: Array<{ hash: string; usdt: bigint; rab: bigint }>; reason: string | null }>;
export function shownAmount(value: bigint): string;
