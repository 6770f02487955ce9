/**
 * Withdrawal methods through the API (issue "Money core 3"), on PGlite and PostgreSQL: USDT
 * addresses checked as real addresses of their network (EIP-55 when mixed-case, TRON
 * base58check), bank cards Luhn-checked, every required field of spec section 5, the cooldown
 * before a method is usable, duplicates, another user's method, exactly once per key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { isCardNumber } from '../../server/services/payment.service.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('payment-api');

const EVM = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const TRON = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const CARD = '4111 1111 1111 1111';

interface Method {
  id: string;
  kind: string;
  address: string | null;
  cardNumber: string | null;
  createdAt: string;
  usableAt: string;
}

test('the Luhn check (ISO/IEC 7812): test cards pass, a changed digit fails, lengths 12 to 19', () => {
  expect(isCardNumber('4111111111111111')).toBe(true);
  expect(isCardNumber('5555555555554444')).toBe(true);
  expect(isCardNumber('6212345678901265')).toBe(true);
  expect(isCardNumber('4111111111111112')).toBe(false);
  expect(isCardNumber('41111111111')).toBe(false);
  expect(isCardNumber('4111 1111 1111 1111')).toBe(false); // the service drops spaces first
});

describe.each(tiers)('withdrawal methods on %s', (tier) => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer(tier);
    token = (await t.register('plain', `methods-${tier}@example.com`)).token;
  });
  afterAll(async () => t?.close());

  const add = (
    path: 'add-chain-payment' | 'add-bank-payment',
    params: Record<string, unknown>,
    key = newKey(),
    as = token,
  ) => t.call<Method>('plain', `/api/v1/user/${path}`, params, { token: as, key, lang: 'EN' });
  const list = async (as = token) =>
    (await t.call<{ items: Method[] }>('plain', '/api/v1/user/payment-list', {}, { token: as })).data.items;

  test('a BEP20 address (checksummed or all lower-case) and a TRON address are saved, usable after the 24-hour cooldown', async () => {
    const bep20 = await add('add-chain-payment', { currency: 'USDT', network: 'BEP20', address: EVM });
    expect(bep20.code, bep20.message).toBe(200);
    expect(Date.parse(bep20.data.usableAt) - Date.parse(bep20.data.createdAt)).toBe(24 * 3_600_000);
    const lower = await add('add-chain-payment', {
      currency: 'USDT',
      network: 'BEP20',
      address: '0x' + 'ab'.repeat(20),
    });
    expect(lower.code).toBe(200);
    const trc20 = await add('add-chain-payment', { currency: 'USDT', network: 'TRC20', address: TRON });
    expect(trc20.code).toBe(200);
    expect((await list()).map((method) => method.address)).toEqual([TRON, '0x' + 'ab'.repeat(20), EVM]); // newest first
  });

  test('a wrong EIP-55 checksum, a TRON address on BEP20, a bad base58 checksum and another currency are refused, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ currency: 'USDT', network: 'BEP20', address: EVM.replace('Ef', 'eF') }, 'address'],
      [{ currency: 'USDT', network: 'BEP20', address: TRON }, 'address'],
      [{ currency: 'USDT', network: 'TRC20', address: TRON.slice(0, -1) + 'J' }, 'address'],
      [{ currency: 'USDT', network: 'TRC20', address: EVM }, 'address'],
      [{ currency: 'BTC', network: 'BEP20', address: EVM }, 'currency'],
      [{ currency: 'USDT', network: 'ERC20', address: EVM }, 'network'],
      [{ currency: 'USDT', network: 'BEP20', address: '' }, 'address'],
    ];
    for (const [params, field] of cases) {
      const answer = await add('add-chain-payment', params);
      expect(answer.code, JSON.stringify(params)).toBe(BodyCode.invalidInput);
      expect(answer.data).toMatchObject({ field });
    }
    const bad = await add('add-chain-payment', {
      currency: 'USDT',
      network: 'BEP20',
      address: EVM.replace('Ef', 'eF'),
    });
    expect(bad.message).toBe('Receiving address is not a valid BEP20 address');
  });

  test('a bank card: every field required, the number Luhn-checked and shown by its last four digits', async () => {
    const card = { bankName: 'Bank of Test', cardNumber: CARD, holderName: 'Li Lei', branch: 'Main street' };
    for (const field of Object.keys(card)) {
      const answer = await add('add-bank-payment', { ...card, [field]: '' });
      expect(answer.code).toBe(BodyCode.invalidInput);
      expect(answer.data).toMatchObject({ field });
    }
    const wrong = await add('add-bank-payment', { ...card, cardNumber: '4111 1111 1111 1112' });
    expect(wrong).toMatchObject({
      code: BodyCode.invalidInput,
      message: 'Card number is not a valid card number',
    });
    const saved = await add('add-bank-payment', card);
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({ kind: 'bank', cardNumber: '•••• 1111' });
    expect(JSON.stringify(await list())).not.toContain('4111111111111111');
  });

  test('the same method twice is 409; the same Idempotency-Key twice answers the first answer and saves one', async () => {
    const key = newKey();
    const params = { currency: 'USDT', network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' };
    const first = await add('add-chain-payment', params, key);
    const again = await add('add-chain-payment', params, key);
    expect(again).toEqual(first);
    expect((await add('add-chain-payment', params)).code).toBe(BodyCode.conflict);
    expect((await list()).filter((method) => method.address === params.address)).toHaveLength(1);
  });

  test("deleting: one's own goes from the list; another user's, or one already gone, is 404", async () => {
    const other = (await t.register('plain', `methods-other-${tier}@example.com`)).token;
    const theirs = await add(
      'add-chain-payment',
      { currency: 'USDT', network: 'BEP20', address: EVM },
      newKey(),
      other,
    );
    const remove = (id: string, as = token) =>
      t.call('plain', '/api/v1/user/payment-delete', { id }, { token: as, key: newKey() });
    expect((await remove(theirs.data.id)).code).toBe(BodyCode.notFound);
    const [mine] = await list();
    if (!mine) throw new Error('no method to delete');
    expect((await remove(mine.id)).code).toBe(200);
    expect((await list()).map((method) => method.id)).not.toContain(mine.id);
    expect((await remove(mine.id)).code).toBe(BodyCode.notFound);
    expect(await list(other)).toHaveLength(1);
  });
});
