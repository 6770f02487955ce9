/**
 * The exchange as an outbox command (`exchange-submit`): it carries the price version
 * the user saw and the trade password, so it is sent only while online and expires a minute
 * after the user acted (never filled at a price the user did not see); its trade password stays
 * on the device only until it settles; a stale price's 409 rejects it with the server's message
 * and holds nothing back. On IndexedDB and on the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, test } from 'vitest';
import * as checks from './command-checks.js';
import { COMMAND_STORAGES, commandOf, commandWorld } from './helpers.js';

const SUBMIT = '/api/v1/exchange/submit';

const exchange = commandOf('exchange-submit', {
  direction: 'rab_to_usdt',
  amount: '12.50',
  priceVersion: '4',
  tradePassword: 'trade-secret1',
});

describe.each(COMMAND_STORAGES)('an exchange in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);

  test('offline it is refused at enqueue: nothing is stored, nothing is sent', async () => {
    await checks.expectRefusedOffline(world, [exchange()]);
  });

  test('a direction other than the two, or an amount with 3 decimals, is refused at enqueue naming the field', async () => {
    const engine = await world.loggedIn();
    await checks.expectInvalid(engine, exchange({ direction: 'sideways' }), 'direction');
    await checks.expectInvalid(engine, exchange({ amount: '1.001' }), 'amount');
  });

  test('online it is sent with its key, the price version and the amount normalised, confirmed, its trade password then blanked, its account pulled', async () => {
    await checks.expectSentOnline(world, exchange(), {
      uri: SUBMIT,
      resource: (id) => `exchange:new:${id}`,
      sent: {
        accountId: 'm7',
        direction: 'rab_to_usdt',
        amount: '12.5',
        priceVersion: '4',
        tradePassword: 'trade-secret1',
      },
      confirmed: { accountId: 'm7', amount: '12.5', priceVersion: '4', tradePassword: '' },
    });
  });

  test('a stale price (409) rejects it with the world.server message; it cannot be retried, and the exchange confirmed again at the new version goes', async () => {
    await checks.expectRejectedForGood(
      world,
      exchange(),
      {
        uri: SUBMIT,
        when: ['priceVersion', '4'],
        answer: { code: 409, message: 'The price has changed to 0.6 USDT per RAB' },
        blanked: { tradePassword: '' },
      },
      exchange({ priceVersion: '5' }),
    );
  });

  test('not sent within a minute of the user acting it expires, never sent, its trade password blanked', async () => {
    await checks.expectExpiresAfterAMinute(world, exchange(), SUBMIT, { tradePassword: '' });
  });
});
