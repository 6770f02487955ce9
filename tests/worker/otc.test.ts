/**
 * The OTC market in the worker: `otc-info` reads the guide price, its band, the fee
 * rates, the minimum and the account's money now and keeps nothing (offline it is a transport
 * failure, never an old band); an answer of another shape is not trusted.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import type { OtcInfoData } from '../../contract/api/otc.js';
import { expectUserRead, liveReadTests, ok, workerUser } from './fake-api.js';

function info(overrides: Partial<OtcInfoData> = {}): OtcInfoData {
  return {
    accountId: '7',
    guidePrice: '0.5',
    priceBand: '0.1',
    minPrice: '0.45',
    maxPrice: '0.55',
    makerFeeRate: '0.001',
    takerFeeRate: '0.002',
    minimum: '1',
    usdt: '20',
    rab: '100',
    asOf: '2026-01-05T02:00:00.000Z',
    ...overrides,
  };
}

const { setup } = workerUser();

describe('otc-info', () => {
  test('reads /api/v1/otc/info for the account with the token', async () => {
    const { handlers, seen } = await setup(() => ok(info()));
    expect(await handlers['otc-info']({ accountId: '7' })).toEqual({
      kind: 'ok',
      message: 'OK',
      data: info(),
    });
    expectUserRead(seen[0], '/api/v1/otc/info', { accountId: '7' });
  });

  liveReadTests(
    'band',
    (handlers, accountId) => handlers['otc-info']({ accountId }),
    { good: info(), odd: { ...info(), guidePrice: 0.5 } },
    {
      why: '403 for an account not the user’s',
      accountId: '8',
      code: 403,
      message: 'You are not allowed to do this',
    },
  );
});
