/**
 * The proof-of-reserves Merkle-sum tree (docs/protocol.md §31), exactly as published so that
 * anyone can check a proof with any SHA-256: the server builds it, the app and the verify page
 * check it. Amounts are decimal integers of minor units (bigint here, strings on the wire);
 * hashes are lower-case hex. Hashing goes through WebCrypto, present in browsers, workers and
 * Node 20 alike.
 *
 * - leaf = SHA-256("leaf|" + nonce + "|" + usdt + "|" + rab)
 * - node = SHA-256("node|" + left.hash + "|" + right.hash + "|" + usdt + "|" + rab), its sums the
 *   children's; on a level with an odd count the last node goes up unchanged.
 */

export interface SumNode {
  hash: string;
  usdt: bigint;
  rab: bigint;
}

export interface ProofStep extends SumNode {
  /** Where the sibling stands: `left` of the running node, or `right`. */
  side: 'left' | 'right';
}

export interface LeafSecret {
  nonce: string;
  usdt: bigint;
  rab: bigint;
}

const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A leaf of the tree; a negative amount cannot be put in (the sums would hide a debt). */
export async function leafOf(secret: LeafSecret): Promise<SumNode> {
  if (secret.usdt < 0n || secret.rab < 0n) throw new RangeError('a leaf cannot be negative');
  return {
    hash: await sha256Hex(`leaf|${secret.nonce}|${secret.usdt}|${secret.rab}`),
    usdt: secret.usdt,
    rab: secret.rab,
  };
}

export async function nodeOf(left: SumNode, right: SumNode): Promise<SumNode> {
  const usdt = left.usdt + right.usdt;
  const rab = left.rab + right.rab;
  return { hash: await sha256Hex(`node|${left.hash}|${right.hash}|${usdt}|${rab}`), usdt, rab };
}

/** Every level of the tree, the leaves first and the root's level last. */
export async function levelsOf(leaves: readonly SumNode[]): Promise<SumNode[][]> {
  if (leaves.length === 0) throw new RangeError('a tree needs at least one leaf');
  const levels: SumNode[][] = [[...leaves]];
  for (let level = levels[0] ?? []; level.length > 1;) {
    const next: SumNode[] = [];
    for (let at = 0; at < level.length; at += 2) {
      const left = level[at];
      const right = level[at + 1];
      if (!left) break;
      next.push(right ? await nodeOf(left, right) : left);
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** The root of the levels `levelsOf` built. */
export function rootOf(levels: readonly SumNode[][]): SumNode {
  const root = levels[levels.length - 1]?.[0];
  if (!root) throw new RangeError('no root');
  return root;
}

/** The siblings from the leaf at `index` up to the root (a node that went up unchanged has none). */
export function pathOf(levels: readonly SumNode[][], index: number): ProofStep[] {
  const path: ProofStep[] = [];
  let at = index;
  for (const level of levels.slice(0, -1)) {
    const siblingAt = at % 2 === 0 ? at + 1 : at - 1;
    const sibling = level[siblingAt];
    if (sibling) path.push({ ...sibling, side: siblingAt < at ? 'left' : 'right' });
    at = Math.floor(at / 2);
  }
  return path;
}

/**
 * Recomputes the root from a leaf's secret and its path; each step's running node is returned so
 * a user can see the climb. `ok` when it reaches `root` exactly (hash and both sums).
 */
export async function verifyPath(
  leaf: LeafSecret,
  path: readonly ProofStep[],
  root: SumNode,
): Promise<{ ok: boolean; steps: SumNode[] }> {
  let running = await leafOf(leaf);
  const steps = [running];
  for (const step of path) {
    if (step.usdt < 0n || step.rab < 0n) return { ok: false, steps };
    running = step.side === 'left' ? await nodeOf(step, running) : await nodeOf(running, step);
    steps.push(running);
  }
  const ok = running.hash === root.hash && running.usdt === root.usdt && running.rab === root.rab;
  return { ok, steps };
}
