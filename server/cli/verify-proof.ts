/**
 * `npm run verify-proof -- proof.json`: checks a proof of reserves downloaded from the app (or
 * `/api/v1/reserves/proof`) offline: recomputes the leaf and every node up to the root and says
 * whether it reaches the published root. Exit 0 when it does, 1 when it does not, 2 on bad use.
 */
import fs from 'node:fs';
import { reservesProofSchema } from '../../contract/api/reserves.js';
import { verifyPath } from '../../contract/reserves.js';

async function main(file: string | undefined): Promise<number> {
  if (!file) {
    console.error('usage: npm run verify-proof -- <proof.json>');
    return 2;
  }
  const parsed = reservesProofSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    console.error(`${file} is not a proof of reserves: ${parsed.error.issues[0]?.message ?? ''}`);
    return 2;
  }
  const proof = parsed.data;
  const units = (node: { hash: string; usdt: string; rab: string }) => ({
    hash: node.hash,
    usdt: BigInt(node.usdt),
    rab: BigInt(node.rab),
  });
  const { ok, steps } = await verifyPath(
    { nonce: proof.leaf.nonce, usdt: BigInt(proof.leaf.usdt), rab: BigInt(proof.leaf.rab) },
    proof.path.map((step) => ({ ...units(step), side: step.side })),
    units(proof.root),
  );
  steps.forEach((node, level) =>
    console.log(
      `${level === 0 ? 'leaf   ' : `level ${level}`}  ${node.hash}  usdt ${node.usdt}  rab ${node.rab}`,
    ),
  );
  console.log(
    ok
      ? `verified: the leaf (${proof.leaf.usdt} USDT, ${proof.leaf.rab} RAB in minor units) is in snapshot ${proof.snapshotId} of ${proof.at}, root ${proof.root.hash}`
      : `NOT verified: the path does not reach the root ${proof.root.hash}`,
  );
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv[2]);
