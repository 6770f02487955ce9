/**
 * Withdrawal methods: `payment-list` keeps the server's list in the user's database
 * (fake-indexeddb) and serves it offline; adding sends at once and refreshes the list; a refusal
 * naming a field comes back for the page to show beside it; offline nothing is queued.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { paymentMethod } from '../helpers/payment-method.js';
import { ok, refusal, workerUser } from './fake-api.js';

const chainMethod = paymentMethod;

const { setup, readDb } = workerUser({ sync: false });

async function storedIds() {
  return readDb(async (db) => (await db.paymentMethods.toArray()).map((row) => row.id));
}

describe('payment-list', () => {
  test('reads /api/v1/user/payment-list and keeps the list in the user database', async () => {
    const { handlers, seen } = await setup(() => ok({ items: [chainMethod()] }));
    const result = await handlers['payment-list']();
    expect(seen[0]).toMatchObject({ method: 'GET', uri: '/api/v1/user/payment-list' });
    expect(result).toMatchObject({ kind: 'ok', data: [chainMethod()] });
    expect(await storedIds()).toEqual(['1']);
  });

  test('offline, the stored list is served with the failure that made it the answer', async () => {
    let online = true;
    const { handlers } = await setup(() => (online ? ok({ items: [chainMethod()] }) : { network: true }));
    await handlers['payment-list']();
    online = false;
    const result = await handlers['payment-list']();
    expect(result).toEqual({
      kind: 'cached',
      data: [{ ...chainMethod(), fetchedAt: expect.any(String) }],
      failure: expect.objectContaining({ kind: 'transport', status: null }),
    });
  });

  test('a newer list replaces the stored one whole (a method deleted elsewhere disappears)', async () => {
    let items = [chainMethod(), chainMethod({ id: '2', network: 'TRC20' })];
    const { handlers } = await setup(() => ok({ items }));
    await handlers['payment-list']();
    items = [chainMethod({ id: '2', network: 'TRC20' })];
    await handlers['payment-list']();
    expect(await storedIds()).toEqual(['2']);
  });
});

describe('adding and deleting', () => {
  test('adding an address sends the command with an Idempotency-Key, then refreshes the stored list', async () => {
    const { handlers, seen } = await setup((call) =>
      call.uri === '/api/v1/user/payment-list' ? ok({ items: [chainMethod()] }) : ok(chainMethod()),
    );
    const params = { currency: 'USDT', network: 'BEP20', address: chainMethod().address ?? '' } as const;
    const result = await handlers['payment-add-chain'](params);
    expect(result).toMatchObject({ kind: 'ok', data: chainMethod() });
    expect(seen[0]).toMatchObject({ method: 'POST', uri: '/api/v1/user/add-chain-payment', params });
    expect(seen[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]).toMatchObject({ uri: '/api/v1/user/payment-list' });
    expect(await storedIds()).toEqual(['1']);
  });

  test('a 400 naming cardNumber comes back as a refusal with its field, and the list is not read', async () => {
    const { handlers, seen } = await setup(() =>
      refusal(400, 'Card number is not valid', { field: 'cardNumber' }),
    );
    const result = await handlers['payment-add-bank']({
      bankName: 'Bank',
      cardNumber: '4111 1111 1111 1112',
      holderName: 'A B',
      branch: 'Main',
    });
    expect(result).toMatchObject({ kind: 'refused', code: 400, data: { field: 'cardNumber' } });
    expect(seen.map((call) => call.uri)).toEqual(['/api/v1/user/add-bank-payment']);
  });

  test('offline, a delete comes back as a transport failure and nothing is queued', async () => {
    const { handlers } = await setup(() => ({ network: true }));
    const result = await handlers['payment-delete']({ id: '1' });
    expect(result).toMatchObject({ kind: 'transport', status: null });
    expect(await handlers['logout-pending-count']()).toBe(0);
  });
});
