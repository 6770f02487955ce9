/**
 * The withdrawal as an outbox command (`withdraw-create`, CONTRACT.md "Money and the ledger"): it
 * carries an authenticator code and the trade password, so it is sent only while online and
 * expires a minute after the user acted; its secrets stay on the device only until it settles;
 * its account is pulled once it is confirmed. On IndexedDB and on the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { ONLINE_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import * as checks from './command-checks.js';
import { COMMAND_STORAGES, commandOf, commandWorld } from './helpers.js';

const CREATE = '/api/v1/withdraw/create';

const withdrawal = commandOf('withdraw-create', {
  amount: '25.50',
  methodId: '3',
  googleCode: '123456',
  tradePassword: 'trade-secret1',
});

describe.each(COMMAND_STORAGES)('a withdrawal in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage, { subAccount: true });
  const { loggedIn, stored } = world;

  test('offline it is refused at enqueue: nothing is stored, nothing is sent', async () => {
    await checks.expectRefusedOffline(world, [withdrawal()]);
  });

  test('online it is sent with its key and the amount normalised, confirmed, and its code and trade password are then blanked', async () => {
    // The withdrawal's account (the active one) is pulled after it.
    await checks.expectSentOnline(world, withdrawal(), {
      uri: CREATE,
      resource: (id) => `withdraw:new:${id}`,
      sent: {
        accountId: 'm7',
        amount: '25.5',
        methodId: '3',
        googleCode: '123456',
        tradePassword: 'trade-secret1',
      },
      confirmed: { accountId: 'm7', amount: '25.5', methodId: '3', googleCode: '', tradePassword: '' },
    });
  });

  test('queued online but not sent before the device went offline, it waits; a minute after the user acted it expires, never sent, its secrets blanked', async () => {
    const { engine, id } = await checks.expectExpiresAfterAMinute(world, withdrawal(), CREATE, {
      googleCode: '',
      tradePassword: '',
    });
    expect(await engine.retry(id)).toMatchObject({ kind: 'refused', reason: 'not_retryable' });
  });

  test('59 seconds after the user acted it is still sent', async () => {
    const engine = await loggedIn();
    const queued = await engine.enqueue(withdrawal());
    await world.clock.advance(ONLINE_COMMAND_EXPIRY_MS - 1_000, 1_000);
    expect((await engine.drain()).confirmed).toEqual([queued.kind === 'ok' ? queued.id : '']);
  });

  test('an answer lost on the way: it keeps its code and password until it settles, and is resent with the same key and body (one effect)', async () => {
    const engine = await loggedIn();
    // Every answer is lost (the queue's own retries too) until the network heals.
    let lose = true;
    world.server.fault = (call) => (call.uri === CREATE && lose ? 'lose-answer' : null);
    const id = await checks.enqueued(engine, withdrawal());

    expect((await engine.drain()).status).toBe('offline');
    expect(await stored(id)).toMatchObject({
      state: 'queued',
      params: { googleCode: '123456', tradePassword: 'trade-secret1' },
    });

    lose = false;
    expect((await engine.drain()).confirmed).toEqual([id]);
    const sends = world.server.seenOn(CREATE);
    expect(sends.length).toBeGreaterThan(1);
    expect(new Set(sends.map((call) => call.key))).toEqual(new Set([id]));
    for (const call of sends) expect(call.params).toEqual(sends[0]?.params);
    expect(world.server.effectsOn(CREATE)).toHaveLength(1);
  });

  test('a refusal (472, a used code) rejects it with the world.server message; it cannot be retried, and the next withdrawal is not held back', async () => {
    await checks.expectRejectedForGood(
      world,
      withdrawal({ googleCode: '111111' }),
      {
        uri: CREATE,
        when: ['googleCode', '111111'],
        answer: { code: 472, message: 'This code was already used' },
        blanked: { googleCode: '', tradePassword: '' },
      },
      withdrawal({ googleCode: '222222' }),
    );
  });

  test('a cancelled withdrawal is never sent, and its secrets are blanked', async () => {
    const engine = await loggedIn();
    const id = await checks.enqueued(engine, withdrawal());
    expect(await engine.cancel(id)).toEqual({ kind: 'ok' });
    expect(await stored(id)).toMatchObject({
      state: 'cancelled',
      params: { googleCode: '', tradePassword: '' },
    });
    await engine.drain();
    expect(world.server.seenOn(CREATE)).toHaveLength(0);
  });

  test('confirmed after the user switched to another account, the withdrawal’s account is pulled too', async () => {
    const engine = await loggedIn();
    await engine.catchUp();
    const queued = await engine.enqueue(withdrawal({ accountId: 'm7' }));
    expect(queued.kind).toBe('ok');
    await engine.selectAccount('s7');

    const drained = await engine.drain();

    expect(drained.pull).toMatchObject({ accountId: 's7' });
    expect(drained.accountPulls.map((summary) => summary.accountId)).toEqual(['m7']);
  });
});
