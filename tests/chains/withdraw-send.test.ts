/**
 * Approved USDT withdrawals sent from the BEP20 hot wallet to a real local EVM node:
 * approve, send, success at the confirmations (the hold posted, the destination paid once); the
 * depth the job sees recorded as the withdrawal's confirmation count for operators; a
 * nonce taken by another transaction of the hot wallet (the withdrawal signed again, paid once);
 * and on PostgreSQL the send job killed with SIGKILL right after recording a transaction and
 * right after broadcasting it: started again, it never sends a withdrawal twice. The ledger's
 * invariants hold after each.
 */
import { getAddress } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { availableTiers, createPostgresDatabase } from '../helpers/database.js';
import { killChildren, runScript } from '../helpers/child-process.js';
import { startTestDevnet, type TestDevnet } from '../helpers/devnet.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { chainWithdrawFixtures } from '../helpers/chain-withdraw.js';
import { withdrawFixtures } from '../helpers/withdraw.js';
import { WithdrawalSender } from '../../server/services/withdrawal-sender.js';
import { createEvmUsdtSender } from '../../server/chains/evm-sender.js';

const tiers = await availableTiers('withdraw-send');

/** A fresh address nobody else pays: its balance is exactly what withdrawals sent it. */
const freshAddress = () => getAddress(privateKeyToAccount(generatePrivateKey()).address);

function suite(tier: 'pglite' | 'postgres', crashes: boolean) {
  let devnet: TestDevnet;
  let t: TestServer;
  let sender: WithdrawalSender;
  let finance: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl = '';
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    devnet = await startTestDevnet();
    const env: Record<string, string> = {
      CHAIN_BEP20_RPC_URL: devnet.info.rpcUrl,
      CHAIN_BEP20_USDT_CONTRACT: devnet.info.contract,
      CHAIN_BEP20_FINALITY: '3',
      CHAIN_BEP20_START_BLOCK: '0',
      HOT_WALLET_BEP20_KEY: devnet.info.hotWalletKey,
    };
    if (crashes) {
      const created = await createPostgresDatabase();
      databaseUrl = created.url;
      dropDatabase = created.drop;
      env['DATABASE_URL'] = created.url;
    }
    t = await startTestServer(tier, env);
    const [first] = t.server.withdrawalSenders;
    if (!first) throw new Error('no BEP20 withdrawal sender');
    sender = first;
    [finance] = await f.operators(`send-${tier}`);
  }, 120_000);
  afterAll(async () => {
    await killChildren();
    await t?.close();
    await dropDatabase?.();
    await devnet?.stop();
  });

  const { balanceOf, units, approvedWithdrawal, stateOf } = chainWithdrawFixtures(
    () => devnet,
    f,
    () => finance,
    (name) => `${name}-${tier}@example.com`,
  );

  test('approve, send on the devnet, success at 3 confirmations: the destination paid once, the hold posted', async () => {
    const to = freshAddress();
    const { user, id } = await approvedWithdrawal('send', to, '123.45');
    expect(await sender.tick()).toMatchObject({ signed: 1 });
    expect(await stateOf(id)).toMatchObject({
      status: 'pending',
      stage: 'sending',
      txHash: expect.stringMatching(/^0x/),
    });
    expect(await sender.tick()).toMatchObject({ waiting: 1, paid: 0 });
    await devnet.mine(2);
    expect(await sender.tick()).toMatchObject({ paid: 1 });
    expect(await stateOf(id)).toMatchObject({ status: 'success', stage: 'paid' });
    expect(await balanceOf(to)).toBe(units('123.45'));
    expect(await f.assets(user)).toMatchObject({ cash: '875.55', held: '0' });
    expect(await sender.tick()).toMatchObject({ signed: 0, paid: 0, rebroadcast: 0 });
    await f.expectLedgerOk(finance);
  });

  test('the send job records the depth it sees as the confirmation count (only when it changed, at most the required 3), and the admin list returns it', async () => {
    const to = freshAddress();
    const { id } = await approvedWithdrawal('count', to, '10');
    const seen = async () => (await stateOf(id))?.confirmations;
    expect(await seen()).toBeNull(); // not sent by the job yet
    expect(await sender.tick()).toMatchObject({ signed: 1, counted: 0 });
    expect(await seen()).toEqual({ required: 3, reached: false, seen: 0 }); // signed: none yet
    // The devnet mines the transaction at once: one confirmation.
    expect(await sender.tick()).toMatchObject({ waiting: 1, counted: 1 });
    expect(await seen()).toEqual({ required: 3, reached: false, seen: 1 });
    // The same depth again writes nothing.
    expect(await sender.tick()).toMatchObject({ waiting: 1, counted: 0 });
    await devnet.mine(1);
    expect(await sender.tick()).toMatchObject({ waiting: 1, counted: 1 });
    expect(await seen()).toEqual({ required: 3, reached: false, seen: 2 });
    // Five deep when the job looks again: it settles, and the count stops at the required 3.
    await devnet.mine(3);
    expect(await sender.tick()).toMatchObject({ paid: 1, counted: 1 });
    expect(await stateOf(id)).toMatchObject({
      stage: 'paid',
      confirmations: { required: 3, reached: true, seen: 3 },
    });
    expect(await balanceOf(to)).toBe(units('10'));
    await f.expectLedgerOk(finance);
  });

  test('a nonce taken by another transaction of the hot wallet: signed again with a new nonce, paid exactly once', async () => {
    const to = freshAddress();
    const { id } = await approvedWithdrawal('nonce', to, '50');
    // Record the transaction but let it never reach the node (the hook stops the tick there) ...
    const stop = new Error('stopped after recording');
    const stopped = new WithdrawalSender(
      t.server.database.db,
      t.clock,
      'BEP20',
      createEvmUsdtSender({
        rpcUrl: devnet.info.rpcUrl,
        contract: devnet.info.contract,
        decimals: devnet.info.decimals,
        hotWalletKey: devnet.info.hotWalletKey,
      }),
      3,
      { afterRecord: () => Promise.reject(stop) },
    );
    await expect(stopped.tick()).rejects.toBe(stop);
    const recorded = await stateOf(id);
    // ... while a payment from the hot wallet takes its nonce.
    await devnet.pay(freshAddress(), '1');
    expect(await sender.tick()).toMatchObject({ resigned: 1, signed: 1 });
    const resigned = await stateOf(id);
    expect(resigned?.nonce).toBeGreaterThan(recorded?.nonce ?? Infinity);
    expect(resigned?.txHash).not.toBe(recorded?.txHash);
    await devnet.mine(3);
    expect(await sender.tick()).toMatchObject({ paid: 1 });
    expect(await balanceOf(to)).toBe(units('50'));
    await f.expectLedgerOk(finance);
  });

  if (crashes) {
    const reportSchema = z.object({ signed: z.number(), paid: z.number(), rebroadcast: z.number() });
    const runChild = async (crashAt: 'record' | 'broadcast' | 'none') => {
      const child = runScript('tests/chains/withdraw-send-child.ts', [], {
        ...process.env,
        DATABASE_URL: databaseUrl,
        RPC_URL: devnet.info.rpcUrl,
        CONTRACT: devnet.info.contract,
        DECIMALS: String(devnet.info.decimals),
        HOT_WALLET_KEY: devnet.info.hotWalletKey,
        CRASH_AT: crashAt,
      });
      const exit = await child.exited;
      const line = child
        .output()
        .split('\n')
        .find((item) => item.startsWith('report '));
      return {
        exit,
        report: line ? reportSchema.parse(JSON.parse(line.slice('report '.length))) : null,
        output: child.output(),
      };
    };

    test.each(['record', 'broadcast'] as const)(
      'killed with SIGKILL right after the %s step, the job started again never sends the withdrawal twice',
      async (crashAt) => {
        const to = freshAddress();
        const { id } = await approvedWithdrawal(`crash-${crashAt}`, to, '77.7');
        const crashed = await runChild(crashAt);
        expect(crashed.exit.signal, crashed.output).toBe('SIGKILL');
        expect(await stateOf(id)).toMatchObject({ stage: 'sending' });
        expect(await balanceOf(to)).toBe(crashAt === 'record' ? 0n : units('77.7'));
        const again = await runChild('none');
        expect(again.exit.code, again.output).toBe(0);
        expect(again.report).toMatchObject({ signed: 0, rebroadcast: crashAt === 'record' ? 1 : 0 });
        await devnet.mine(3);
        const settled = await runChild('none');
        expect(settled.report).toMatchObject({ paid: 1, signed: 0 });
        expect(await stateOf(id)).toMatchObject({ status: 'success', stage: 'paid' });
        expect(await balanceOf(to)).toBe(units('77.7'));
        await f.expectLedgerOk(finance);
      },
      60_000,
    );
  }
}

describe.each(tiers)('withdrawals sent on the devnet on %s', (tier) => suite(tier, false));
describe.skipIf(!tiers.includes('postgres'))('the send job killed with SIGKILL on postgres', () =>
  suite('postgres', true),
);
