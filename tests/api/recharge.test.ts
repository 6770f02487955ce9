/**
 * Deposit addresses and deposit records through the API (issue "Money core 2"), on PGlite and
 * PostgreSQL: an address per account and chain from the chain's extended public key, stable and
 * distinct between accounts and users, another's account refused, the chains users must check in
 * common/config, and the deposits collection pulled by sync.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { depositAddress, isEvmAddress, isTronAddress } from '../../server/chains/addresses.js';
import { loadDepositKeys } from '../../server/chains/keys.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('recharge-api');

interface AddressData {
  accountId: string;
  chain: string;
  address: string;
  contract: string;
  minimum: string;
  confirmations: number;
  finality: number;
}

describe.each(tiers)('recharge addresses on %s', (tier) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(tier);
  });
  afterAll(async () => t?.close());

  const address = (token: string, chain: string, accountId?: string) =>
    t.call<AddressData>(
      'plain',
      '/api/v1/recharge/address',
      { chain, ...(accountId ? { accountId } : {}) },
      { token },
    );

  test('each account gets one address per chain, derived from the chain key at index = account id: stable, distinct between accounts and users', async () => {
    const alice = await t.register('plain', `alice-${tier}@example.com`);
    const bob = await t.register('plain', `bob-${tier}@example.com`);
    const sub = await t.call<{ id: string }>(
      'plain',
      '/api/v1/account/createSubAccount',
      { name: 'Savings' },
      { token: alice.token, key: newKey() },
    );
    expect(sub.code).toBe(200);
    const xpubs = loadDepositKeys({
      production: false,
      dataDir: t.server.config.dataDir,
      warn: () => undefined,
    });
    const seen = new Set<string>();
    for (const chain of ['BEP20', 'TRC20'] as const) {
      const aliceMain = await address(alice.token, chain);
      expect(aliceMain.code).toBe(200);
      expect(aliceMain.data).toMatchObject({ chain, minimum: '1', confirmations: 3 });
      const again = await address(alice.token, chain, aliceMain.data.accountId);
      expect(again.data.address).toBe(aliceMain.data.address);
      const aliceSub = await address(alice.token, chain, sub.data.id);
      const bobMain = await address(bob.token, chain);
      for (const answer of [aliceMain, aliceSub, bobMain]) {
        const expected = depositAddress(chain, xpubs[chain], Number(answer.data.accountId)).address;
        expect(answer.data.address).toBe(expected);
        expect(chain === 'BEP20' ? isEvmAddress(expected) : isTronAddress(expected)).toBe(true);
        seen.add(answer.data.address);
      }
    }
    expect(seen.size).toBe(6);
  });

  test("another user's account is refused with 403; an unknown chain is a field error; no token is 401", async () => {
    const carol = await t.register('plain', `carol-${tier}@example.com`);
    const dave = await t.register('plain', `dave-${tier}@example.com`);
    const daves = await address(dave.token, 'BEP20');
    expect((await address(carol.token, 'BEP20', daves.data.accountId)).code).toBe(BodyCode.forbidden);
    const bad = await address(carol.token, 'ERC20');
    expect(bad.code).toBe(BodyCode.invalidInput);
    const anonymous = await t.call('plain', '/api/v1/recharge/address', { chain: 'BEP20' });
    expect(anonymous.code).toBe(BodyCode.notLoggedIn);
  });

  test('common/config lists both chains with their USDT contract, minimum, confirmations and finality', async () => {
    const config = await t.call<{ chains: Array<Record<string, unknown>> }>('plain', '/api/v1/common/config');
    expect(config.data.chains).toEqual([
      {
        chain: 'BEP20',
        contract: '0x55d398326f99059fF775485246999027B3197955',
        decimals: 18,
        minimum: '1',
        confirmations: 3,
        finality: 15,
      },
      {
        chain: 'TRC20',
        contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        decimals: 6,
        minimum: '1',
        confirmations: 3,
        finality: 20,
      },
    ]);
  });

  test('recharge/list is empty for a new account and pages by cursor', async () => {
    const erin = await t.register('plain', `erin-${tier}@example.com`);
    const list = await t.call<{ items: unknown[]; nextCursor: string | null }>(
      'plain',
      '/api/v1/recharge/list',
      { limit: 5 },
      { token: erin.token },
    );
    expect(list.data).toEqual({ items: [], nextCursor: null });
  });
});
