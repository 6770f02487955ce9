/**
 * An AI dividend claim as an outbox command (`dividend-claim`): money to cash with no
 * trade password and no price, so it waits in the outbox while offline, for at most the hour of a
 * money command; it names its account and the record (or none: every claimable one), never sends
 * the amount the user saw, and a refusal (already claimed, expired) holds nothing back. On
 * IndexedDB and on the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { MONEY_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import * as checks from './command-checks.js';
import { COMMAND_STORAGES, commandWorld } from './helpers.js';

const RECEIVE = '/api/v1/user/aiReceive';

function claim(id?: string, amount = '12.50') {
  return {
    kind: 'dividend-claim' as const,
    params: { accountId: 'm7', ...(id === undefined ? {} : { id }), amount },
  };
}

describe.each(COMMAND_STORAGES)('a dividend claim in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);
  const { network, loggedIn, stored } = world;

  test('queued offline (no trade password, no price), it is sent once back online with its key: the account and the record, never the amount shown; its account is pulled', async () => {
    const engine = await loggedIn();
    network.online = false;
    const id = await checks.enqueued(engine, claim('41'));
    expect(await stored(id)).toMatchObject({
      state: 'queued',
      resource: `dividend:claim:${id}`,
      expiresAtMs: world.clock.now() + MONEY_COMMAND_EXPIRY_MS,
      params: { accountId: 'm7', id: '41', amount: '12.5' },
    });
    expect((await engine.drain()).status).toBe('offline');
    expect(world.server.seenOn(RECEIVE)).toHaveLength(0);
    network.online = true;
    const drained = await engine.drain();
    expect(drained.confirmed).toEqual([id]);
    expect(world.server.seenOn(RECEIVE)).toEqual([
      { uri: RECEIVE, key: id, token: 'tok-7', params: { accountId: 'm7', id: '41' } },
    ]);
    expect(drained.pull).toMatchObject({ status: 'done', accountId: 'm7' });
  });

  test('a claim of everything names only the account', async () => {
    const engine = await loggedIn();
    await checks.enqueued(engine, claim(undefined, '30.5'));
    await engine.drain();
    expect(world.server.seenOn(RECEIVE).map((call) => call.params)).toEqual([{ accountId: 'm7' }]);
  });

  test('an amount that is not money is refused at enqueue naming the field', async () => {
    const engine = await loggedIn();
    await checks.expectInvalid(engine, claim('41', 'lots'), 'amount');
  });

  test('not sent within the hour of a money command it expires, never sent', async () => {
    const engine = await loggedIn();
    network.online = false;
    const id = await checks.enqueued(engine, claim('41'));
    await world.clock.advance(MONEY_COMMAND_EXPIRY_MS, 60_000);
    network.online = true;
    expect((await engine.drain()).expired).toEqual([id]);
    expect(world.server.seenOn(RECEIVE)).toHaveLength(0);
  });

  test('a refusal (already claimed) rejects it with the world.server message and holds nothing back: the next claim goes', async () => {
    const engine = await loggedIn();
    world.server.refuse = (call) =>
      call.uri === RECEIVE && call.params['id'] === '41'
        ? { code: 409, message: 'This dividend has already been claimed' }
        : null;
    const first = await engine.enqueue(claim('41'));
    const second = await engine.enqueue(claim('42'));
    if (first.kind !== 'ok' || second.kind !== 'ok') throw new Error('refused at enqueue');
    const drained = await engine.drain();
    expect(drained.rejected).toEqual([first.id]);
    expect(drained.confirmed).toEqual([second.id]);
    expect(await stored(first.id)).toMatchObject({
      state: 'rejected',
      answer: { code: 409, message: 'This dividend has already been claimed' },
    });
  });
});
