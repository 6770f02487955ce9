/**
 * The proof-of-reserves page's view-model: amounts from minor units exactly (6 decimals), the
 * ratio as a percent without a float, the sentence's values (held share, chains unread, summary
 * unknown), the steps beside their siblings, and the downloaded file being the proof unchanged.
 */
import { describe, expect, test } from 'vitest';
import type { ReservesProof } from '../../contract/api/reserves.js';
import { levelsOf, leafOf, pathOf, rootOf, verifyPath } from '../../contract/reserves.js';
import {
  amountOfUnits,
  proofFile,
  proofInputs,
  sentenceOf,
  stepsOf,
} from '../../src/features/reserves/reserves-view.js';
import { reservesProof, reservesSnapshot } from '../helpers/reserves.js';

const proof = reservesProof;
const snapshot = (ratio: string | null) => reservesSnapshot({ ratio });

describe('amounts from minor units', () => {
  test('6 decimals, trailing zeros trimmed, never through a float', () => {
    expect(amountOfUnits('0')).toBe('0');
    expect(amountOfUnits('1')).toBe('0.000001');
    expect(amountOfUnits('1500000')).toBe('1.5');
    expect(amountOfUnits('1000000')).toBe('1');
    expect(amountOfUnits('123456789012345678901234')).toBe('123456789012345678.901234');
    expect(amountOfUnits(20_000_000n)).toBe('20');
  });
});

describe('the sentence', () => {
  test("names the caller's USDT and RAB, the snapshot's time and the held percent", () => {
    expect(sentenceOf({ proof, snapshot: snapshot('1.023') })).toEqual({
      usdt: '1.5',
      rab: '0.25',
      at: proof.at,
      held: { kind: 'percent', percent: '102.3' },
    });
  });

  test('a null ratio, or no chain read at all, says the chains could not be read; no summary says it is unknown', () => {
    expect(sentenceOf({ proof, snapshot: snapshot(null) }).held).toEqual({ kind: 'unread' });
    const unread = { ...snapshot('0.0000'), reserves: { BEP20: null, TRC20: null } };
    expect(sentenceOf({ proof, snapshot: unread }).held).toEqual({ kind: 'unread' });
    const oneRead = { ...snapshot('0.5'), reserves: { BEP20: null, TRC20: snapshot(null).reserves.BEP20 } };
    expect(sentenceOf({ proof, snapshot: oneRead }).held).toEqual({ kind: 'percent', percent: '50' });
    expect(sentenceOf({ proof, snapshot: null }).held).toEqual({ kind: 'unknown' });
  });
});

describe('each step and the file', () => {
  test('the steps of a real path: the leaf, then each level beside the sibling it joined', async () => {
    const secrets = [
      { nonce: 'a1'.repeat(32), usdt: 1_500_000n, rab: 0n },
      { nonce: 'b2'.repeat(32), usdt: 2_000_000n, rab: 250_000n },
      { nonce: 'c3'.repeat(32), usdt: 0n, rab: 7n },
    ];
    const levels = await levelsOf(await Promise.all(secrets.map((secret) => leafOf(secret))));
    const root = rootOf(levels);
    const secret = secrets[2];
    if (!secret) throw new Error('no leaf');
    const real: ReservesProof = {
      snapshotId: '8',
      at: proof.at,
      root: { hash: root.hash, usdt: String(root.usdt), rab: String(root.rab) },
      reserves: { BEP20: null, TRC20: null },
      ratio: null,
      leafCount: secrets.length,
      leaf: { nonce: secret.nonce, usdt: String(secret.usdt), rab: String(secret.rab) },
      path: pathOf(levels, 2).map((step) => ({ ...step, usdt: String(step.usdt), rab: String(step.rab) })),
    };
    const { leaf, path, root: wanted } = proofInputs(real);
    const result = await verifyPath(leaf, path, wanted);
    expect(result.ok).toBe(true);
    const steps = stepsOf(result.steps, real);
    // The third leaf of three went up unchanged once, so it joins one sibling: the first two's node.
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ level: 0, usdt: '0', rab: '0.000007', sibling: null });
    expect(steps[1]).toMatchObject({
      level: 1,
      hash: root.hash,
      usdt: '3.5',
      rab: '0.250007',
      sibling: { side: 'left', usdt: '3.5', rab: '0.25' },
    });
  });

  test('the downloaded file is the proof as the server gave it, named after its snapshot', () => {
    const file = proofFile(proof);
    expect(JSON.parse(file.text)).toEqual(proof);
    expect(file.name).toBe('coffer-proof-of-reserves-7.json');
  });
});
