/**
 * The proof-of-reserves tree (docs/protocol.md §31) against an independent implementation written
 * here from the published rules with node:crypto: trees of 1, 2, 3 and 1,000 leaves give the same
 * root, every leaf's path verifies (in contract/reserves.ts and in the static page's verify.js),
 * a leaf or a sibling changed by one minor unit fails, and a negative leaf cannot be put in.
 */
import crypto from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { levelsOf, leafOf, pathOf, rootOf, verifyPath, type LeafSecret } from '../../contract/reserves.js';
// The static page's own verifier (plain JavaScript, no app code).
import { verifyProof } from '../../public/reserves/verify.js';

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The rules as the issue states them, nothing shared with the code under test. */
function independentRoot(leaves: LeafSecret[]) {
  let level = leaves.map((leaf) => ({
    hash: sha(`leaf|${leaf.nonce}|${leaf.usdt}|${leaf.rab}`),
    usdt: leaf.usdt,
    rab: leaf.rab,
  }));
  while (level.length > 1) {
    const next = [];
    for (let at = 0; at < level.length; at += 2) {
      const left = level[at];
      const right = level[at + 1];
      if (!left) break;
      if (!right) {
        next.push(left);
        continue;
      }
      const usdt = left.usdt + right.usdt;
      const rab = left.rab + right.rab;
      next.push({ hash: sha(`node|${left.hash}|${right.hash}|${usdt}|${rab}`), usdt, rab });
    }
    level = next;
  }
  return level[0];
}

const secrets = (count: number): LeafSecret[] =>
  Array.from({ length: count }, (_unused, index) => ({
    nonce: crypto.randomBytes(32).toString('hex'),
    usdt: BigInt(index * 1_000_003 + 7),
    rab: BigInt((index % 5) * 250_000),
  }));

const wireProof = (
  leaf: LeafSecret,
  path: ReturnType<typeof pathOf>,
  root: { hash: string; usdt: bigint; rab: bigint },
) => ({
  leaf: { nonce: leaf.nonce, usdt: String(leaf.usdt), rab: String(leaf.rab) },
  path: path.map((step) => ({
    hash: step.hash,
    usdt: String(step.usdt),
    rab: String(step.rab),
    side: step.side,
  })),
  root: { hash: root.hash, usdt: String(root.usdt), rab: String(root.rab) },
});

describe('the Merkle-sum tree', () => {
  test.each([1, 2, 3, 1000])(
    '%i leaves: the root is the independent one, its sums the totals, and every path verifies',
    async (count) => {
      const leaves = secrets(count);
      const levels = await levelsOf(await Promise.all(leaves.map((leaf) => leafOf(leaf))));
      const root = rootOf(levels);
      expect(root).toEqual(independentRoot(leaves));
      expect(root.usdt).toBe(leaves.reduce((sum, leaf) => sum + leaf.usdt, 0n));
      const checked = count <= 3 ? leaves.map((_leaf, index) => index) : [0, 1, 2, 500, 997, 998, 999];
      for (const index of checked) {
        const leaf = leaves[index] as LeafSecret;
        const path = pathOf(levels, index);
        expect((await verifyPath(leaf, path, root)).ok, `leaf ${index}`).toBe(true);
        expect((await verifyProof(wireProof(leaf, path, root))).ok, `verify.js, leaf ${index}`).toBe(true);
      }
    },
  );

  test('a leaf or a sibling changed by one minor unit, or a sibling put on the wrong side, fails', async () => {
    const leaves = secrets(7);
    const levels = await levelsOf(await Promise.all(leaves.map((leaf) => leafOf(leaf))));
    const root = rootOf(levels);
    const leaf = leaves[3] as LeafSecret;
    const path = pathOf(levels, 3);
    const [first, ...rest] = path;
    if (!first) throw new Error('no path');
    const variants = [
      { what: 'leaf usdt + 1', leaf: { ...leaf, usdt: leaf.usdt + 1n }, path },
      { what: 'leaf rab - 1', leaf: { ...leaf, rab: leaf.rab - 1n }, path },
      { what: 'sibling usdt + 1', leaf, path: [{ ...first, usdt: first.usdt + 1n }, ...rest] },
      { what: 'sibling rab + 1', leaf, path: [{ ...first, rab: first.rab + 1n }, ...rest] },
      {
        what: 'sibling moved',
        leaf,
        path: [{ ...first, side: first.side === 'left' ? 'right' : 'left' } as const, ...rest],
      },
    ];
    for (const variant of variants) {
      expect((await verifyPath(variant.leaf, variant.path, root)).ok, variant.what).toBe(false);
      expect(
        (await verifyProof(wireProof(variant.leaf, variant.path, root))).ok,
        `verify.js, ${variant.what}`,
      ).toBe(false);
    }
  });

  test('a negative leaf cannot be put in, and verify.js refuses a negative sibling', async () => {
    await expect(leafOf({ nonce: 'n', usdt: -1n, rab: 0n })).rejects.toThrow(RangeError);
    await expect(leafOf({ nonce: 'n', usdt: 0n, rab: -1n })).rejects.toThrow(RangeError);
    const result = await verifyProof({
      leaf: { nonce: 'n', usdt: '1', rab: '0' },
      path: [{ hash: 'x', usdt: '-1', rab: '0', side: 'right' }],
      root: { hash: 'y', usdt: '0', rab: '0' },
    });
    expect(result.ok).toBe(false);
  });
});
