/**
 * Proof of reserves in the worker: `reserves-proof` reads the caller's proof and the newest
 * snapshot's summary (history, limit 1: never every leaf), keeps both in the user's database
 * (fake-indexeddb) exactly as the server gave them, and serves them offline; a summary of another
 * snapshot is not paired with the proof; a 404 (no snapshot holds the caller) stores nothing.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, test } from 'vitest';
import type { ReservesSnapshot } from '../../contract/api/reserves.js';
import { reservesProof, reservesSnapshot } from '../helpers/reserves.js';
import { ok, refusal, USER_ID, workerUser, type Script, type SeenCall } from './fake-api.js';

const proof = reservesProof;
const snapshot = reservesSnapshot;

/** Answers the proof and history calls; anything else is a 404. */
function api(history: () => ReservesSnapshot[], answerProof = () => ok(proof)): Script {
  return (call: SeenCall) => {
    if (call.uri === '/api/v1/reserves/proof') return answerProof();
    if (call.uri === '/api/v1/reserves/history') return ok({ items: history(), nextCursor: null });
    return refusal(404);
  };
}

const { setup, readDb } = workerUser();

async function stored() {
  return readDb(async (db) => db.reservesProof.toArray());
}

describe('reserves-proof', () => {
  test("reads the caller's proof and the history's first snapshot only (limit 1), and keeps both as the server gave them", async () => {
    const { handlers, seen } = await setup(api(() => [snapshot()]));
    const result = await handlers['reserves-proof']();
    expect(seen.map((call) => [call.method, call.uri])).toEqual([
      ['GET', '/api/v1/reserves/proof'],
      ['GET', '/api/v1/reserves/history'],
    ]);
    expect(seen[1]?.params).toEqual({ limit: '1' });
    const record = { id: 'latest', proof, snapshot: snapshot(), fetchedAt: expect.any(String) };
    expect(result).toEqual({ kind: 'ok', message: 'OK', data: record });
    expect(await stored()).toEqual([record]);
  });

  test('a field the contract does not name is kept too: the proof is downloaded exactly as given', async () => {
    const given = { ...proof, leafCount: 2, ratio: '1.023' };
    const { handlers } = await setup(
      api(
        () => [snapshot()],
        () => ok(given),
      ),
    );
    expect(await handlers['reserves-proof']()).toMatchObject({ kind: 'ok', data: { proof: given } });
    expect((await stored())[0]?.proof).toEqual(given);
  });

  test('a newest snapshot that is not the proof’s is not paired with it (the summary is unknown)', async () => {
    const { handlers } = await setup(api(() => [snapshot({ snapshotId: '8' })]));
    expect(await handlers['reserves-proof']()).toMatchObject({ kind: 'ok', data: { proof, snapshot: null } });
  });

  test('offline, the kept proof is served with the failure that made it the answer', async () => {
    let online = true;
    const { handlers } = await setup((call, attempt) =>
      online ? api(() => [snapshot()])(call, attempt) : { network: true },
    );
    await handlers['reserves-proof']();
    online = false;
    expect(await handlers['reserves-proof']()).toEqual({
      kind: 'cached',
      data: { id: 'latest', proof, snapshot: snapshot(), fetchedAt: expect.any(String) },
      failure: expect.objectContaining({ kind: 'transport', status: null }),
    });
  });

  test('no snapshot holds the caller yet: the 404 comes back and nothing is stored; a proof of another shape is not trusted', async () => {
    const { handlers } = await setup(
      api(
        () => [],
        () => refusal(404, 'Not found'),
      ),
    );
    expect(await handlers['reserves-proof']()).toMatchObject({ kind: 'refused', code: 404 });
    const odd = await setup(
      api(
        () => [snapshot()],
        () => ok({ ...proof, path: [{ hash: 'e', usdt: -1 }] }),
      ),
    );
    expect((await odd.handlers['reserves-proof']()).kind).toBe('transport');
    expect(await stored()).toEqual([]);
  });

  test('a new proof replaces the kept one', async () => {
    let answer = proof;
    const { handlers } = await setup(
      api(
        () => [snapshot({ snapshotId: answer.snapshotId })],
        () => ok(answer),
      ),
    );
    await handlers['reserves-proof']();
    answer = { ...proof, snapshotId: '9' };
    await handlers['reserves-proof']();
    const rows = await stored();
    expect(rows.map((row) => [row.proof.snapshotId, row.snapshot?.snapshotId])).toEqual([['9', '9']]);
  });

  test('after a logout while the call was out, nothing is written (the user’s database was deleted)', async () => {
    const holder: { logOut: () => void } = { logOut: () => {} };
    const { handlers, session } = await setup((call, attempt) => {
      holder.logOut();
      return api(() => [snapshot()])(call, attempt);
    });
    holder.logOut = () => void session.clearSession();
    expect((await handlers['reserves-proof']()).kind).toBe('ok');
    expect(await Dexie.getDatabaseNames()).not.toContain(`coffer-u${USER_ID}`);
  });
});
