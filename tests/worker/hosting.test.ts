/**
 * Hosting in the worker: `hosting-config` reads the products and keeps them in the user's
 * database (fake-indexeddb) with the language they are named in and when they were fetched, and
 * serves them offline; a refusal stores nothing; an order goes through `outbox-enqueue`, which
 * refuses it offline (it carries the trade password), while an increase, decrease or redeem is
 * queued offline.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, test } from 'vitest';
import { SEEDED_7_DAY_HOSTING } from '../helpers/seeded-catalogue.js';
import type { HostingConfigData, HostingProduct } from '../../contract/api/hosting.js';
import { ok, refusal, USER_ID, workerUser } from './fake-api.js';

function product(overrides: Partial<HostingProduct> = {}): HostingProduct {
  return {
    id: '1',
    name: '7-day hosting',
    ...SEEDED_7_DAY_HOSTING,
    ...overrides,
  };
}

function config(overrides: Partial<HostingConfigData> = {}): HostingConfigData {
  return {
    products: [
      product(),
      product({ id: '3', name: '90-day hosting', days: 90, earlyExit: false, penaltyRate: '0' }),
    ],
    validHostingThreshold: '500',
    timeZone: 'Asia/Shanghai',
    ...overrides,
  };
}

const { setup, readDb, expectRefusedOffline, expectInvalid } = workerUser({ locale: 'ja' });

async function stored() {
  return readDb(async (db) => db.hostingConfig.toArray());
}

describe('hosting-config', () => {
  test('reads /api/v1/hosting/hosting-config in the user’s language and keeps it with that language and its time', async () => {
    const { handlers, seen } = await setup(() => ok(config()));
    const result = await handlers['hosting-config']();
    expect(seen[0]).toMatchObject({ method: 'GET', uri: '/api/v1/hosting/hosting-config' });
    expect(seen[0]?.headers['lang']).toBe('JP');
    expect(result).toEqual({
      kind: 'ok',
      message: 'OK',
      data: { ...config(), id: 'current', locale: 'ja', fetchedAt: expect.any(String) },
    });
    expect(await stored()).toEqual([
      { ...config(), id: 'current', locale: 'ja', fetchedAt: expect.any(String) },
    ]);
  });

  test('a new answer replaces the stored one (a product disabled is gone)', async () => {
    let answer = config();
    const { handlers } = await setup(() => ok(answer));
    await handlers['hosting-config']();
    answer = config({ products: [product()] });
    await handlers['hosting-config']();
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.products.map((item) => item.id)).toEqual(['1']);
  });

  test('offline, the stored products are served with the failure that made them the answer', async () => {
    let online = true;
    const { handlers } = await setup(() => (online ? ok(config()) : { network: true }));
    await handlers['hosting-config']();
    online = false;
    expect(await handlers['hosting-config']()).toEqual({
      kind: 'cached',
      data: { ...config(), id: 'current', locale: 'ja', fetchedAt: expect.any(String) },
      failure: expect.objectContaining({ kind: 'transport', status: null }),
    });
  });

  test('offline with nothing stored, it is the transport failure', async () => {
    const { handlers } = await setup(() => ({ network: true }));
    expect(await handlers['hosting-config']()).toMatchObject({ kind: 'transport', status: null });
  });

  test('a refusal comes back with its code and stores nothing; an answer of another shape is not trusted', async () => {
    const { handlers } = await setup(() => refusal(403, 'Account frozen'));
    expect(await handlers['hosting-config']()).toMatchObject({ kind: 'refused', code: 403 });
    const odd = await setup(() => ok({ ...config(), products: [{ ...product(), days: '7' }] }));
    expect((await odd.handlers['hosting-config']()).kind).toBe('transport');
    expect(await stored()).toEqual([]);
  });

  test('after a logout while the call was out, nothing is written (the user’s database was deleted)', async () => {
    const holder: { logOut: () => void } = { logOut: () => {} };
    const { handlers, session } = await setup(() => {
      holder.logOut();
      return ok(config());
    });
    holder.logOut = () => void session.clearSession();
    expect((await handlers['hosting-config']()).kind).toBe('ok');
    expect(await Dexie.getDatabaseNames()).not.toContain(`coffer-u${USER_ID}`);
  });
});

describe('hosting commands through the outbox', () => {
  const create = {
    kind: 'hosting-create' as const,
    params: { accountId: '7', productId: '1', amount: '1000', tradePassword: 'trade-secret1' },
  };

  test('offline, an order (it carries the trade password) is refused at enqueue and nothing is sent', async () => {
    await expectRefusedOffline(create);
  });

  test('offline, an increase, a decrease and a redeem are queued', async () => {
    const { handlers, seen } = await setup(() => ok(null), false);
    for (const command of [
      { kind: 'hosting-add' as const, params: { accountId: '7', orderId: '12', amount: '50' } },
      { kind: 'hosting-sub' as const, params: { accountId: '7', orderId: '12', amount: '20.5' } },
      { kind: 'hosting-redeem' as const, params: { accountId: '7', orderId: '12' } },
    ]) {
      expect(await handlers['outbox-enqueue'](command)).toMatchObject({ kind: 'ok' });
    }
    expect(await handlers['logout-pending-count']()).toBe(3);
    expect(seen).toHaveLength(0);
  });

  test('an amount with 3 decimals, or an order id that is not one, is refused at enqueue naming the field', async () => {
    await expectInvalid(
      [{ ...create, params: { ...create.params, amount: '1.234' } }, 'amount'],
      [{ kind: 'hosting-add', params: { accountId: '7', orderId: '12; drop', amount: '5' } }, 'orderId'],
    );
  });
});
