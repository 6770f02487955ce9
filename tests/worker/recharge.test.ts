/**
 * `recharge-address`: the account's deposit address is asked of the server, kept in the
 * account's database (fake-indexeddb) for the recharge page, and served from there offline.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, test } from 'vitest';
import type { RechargeAddressData } from '../../contract/api/recharge.js';
import { accountDbName, openAccountDb } from '../../client-db/schema.js';
import { ok, refusal, USER_ID, workerUser } from './fake-api.js';

const ACCOUNT = '7';

function addressData(overrides: Partial<RechargeAddressData> = {}): RechargeAddressData {
  return {
    accountId: ACCOUNT,
    chain: 'BEP20',
    address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
    contract: '0x55d398326f99059fF775485246999027B3197955',
    decimals: 18,
    minimum: '1',
    confirmations: 3,
    finality: 15,
    ...overrides,
  };
}

const { setup } = workerUser({ sync: false });

/** Handlers that read the BEP20 address once online and are offline now. */
async function offlineAfterBep20() {
  let online = true;
  const { handlers } = await setup(() => (online ? ok(addressData()) : { network: true }));
  await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'BEP20' });
  online = false;
  return handlers;
}

async function storedAddresses(accountId = ACCOUNT) {
  const db = openAccountDb(USER_ID, accountId);
  try {
    return await db.depositAddresses.toArray();
  } finally {
    db.close();
  }
}

describe('recharge-address', () => {
  test('asks /api/v1/recharge/address for the account and chain, and keeps the answer in the account database', async () => {
    const { handlers, seen } = await setup(() => ok(addressData()));
    const result = await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'BEP20' });
    expect(seen[0]).toMatchObject({
      method: 'GET',
      uri: '/api/v1/recharge/address',
      params: { accountId: ACCOUNT, chain: 'BEP20' },
    });
    expect(result).toMatchObject({ kind: 'ok', data: addressData() });
    const stored = await storedAddresses();
    expect(stored).toEqual([{ ...addressData(), fetchedAt: expect.any(String) }]);
    expect((await Dexie.getDatabaseNames()).includes(accountDbName(USER_ID, ACCOUNT))).toBe(true);
  });

  test('one row per chain: a newer answer replaces the older of its chain only', async () => {
    let address = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
    const { handlers } = await setup((call) =>
      call.params['chain'] === 'TRC20'
        ? ok(
            addressData({
              chain: 'TRC20',
              address,
              contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
              decimals: 6,
              finality: 20,
            }),
          )
        : ok(addressData()),
    );
    await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'BEP20' });
    await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'TRC20' });
    address = 'TNewAddressOfTheSameAccount000000';
    await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'TRC20' });
    const stored = await storedAddresses();
    expect(stored.map((row) => [row.chain, row.address])).toEqual([
      ['BEP20', addressData().address],
      ['TRC20', 'TNewAddressOfTheSameAccount000000'],
    ]);
  });

  test('offline, the stored address is served, with the failure that made it the answer', async () => {
    const handlers = await offlineAfterBep20();
    const result = await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'BEP20' });
    expect(result).toEqual({
      kind: 'cached',
      data: { ...addressData(), fetchedAt: expect.any(String) },
      failure: expect.objectContaining({ kind: 'transport', status: null }),
    });
  });

  test('offline with nothing stored for that chain, the transport failure comes back', async () => {
    const handlers = await offlineAfterBep20();
    const result = await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'TRC20' });
    expect(result).toMatchObject({ kind: 'transport', status: null });
  });

  test("another account's stored address is never served", async () => {
    const handlers = await offlineAfterBep20();
    const result = await handlers['recharge-address']({ accountId: '8', chain: 'BEP20' });
    expect(result).toMatchObject({ kind: 'transport' });
  });

  test('a refusal is returned as it is and stores nothing', async () => {
    const { handlers } = await setup(() => refusal(404, 'Not found'));
    const result = await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'BEP20' });
    expect(result).toMatchObject({ kind: 'refused', code: 404, message: 'Not found' });
    expect(await storedAddresses()).toEqual([]);
  });

  test('a logout while the call was out stores nothing (the account database stays deleted)', async () => {
    let logout = (): void => {};
    const { handlers, session } = await setup(() => {
      logout();
      return ok(addressData());
    });
    logout = () => void session.clearSession();
    const result = await handlers['recharge-address']({ accountId: ACCOUNT, chain: 'BEP20' });
    expect(result).toMatchObject({ kind: 'ok' });
    expect((await Dexie.getDatabaseNames()).includes(accountDbName(USER_ID, ACCOUNT))).toBe(false);
  });
});
