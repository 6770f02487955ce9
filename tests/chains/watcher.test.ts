/**
 * The BEP20 deposit watcher against a real local EVM node (Hardhat 2, started here on a free
 * port, a block per transaction; the test mines the rest), on PGlite and PostgreSQL: credited
 * exactly once at 3 confirmations into held, cash at finality, a log delivered again and a
 * watcher restarted mid-way, below the minimum, 18-to-6 decimals and dust, a look-alike token, a
 * reverted transaction, two logs in one transaction, a reorganisation before finality, a new
 * genesis, the node going away and coming back, two watchers racing. After every step the
 * ledger's invariants hold and the account's records explain its balances.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ChainAnswerError, type ChainAdapter } from '../../server/chains/chain.js';
import { createWalletClient, encodeFunctionData, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployTestToken, devnetChain, testUsdtAbi } from '../../server/chains/devnet.js';
import { createEvmAdapter } from '../../server/chains/evm.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { DepositWatcher } from '../../server/services/deposit-watcher.js';
import { availableTiers } from '../helpers/database.js';
import { bep20Env, bep20Watcher, startTestDevnet, useTestDevnet } from '../helpers/devnet.js';
import { useTestServer } from '../helpers/server.js';

const tiers = await availableTiers('deposit-watcher');
const FINALITY = 6;

interface Deposit {
  id: string;
  amount: string;
  status: string;
  confirmations: number;
  txHash: string;
  logIndex: number;
}
interface Assets {
  cash: string;
  held: string;
}
interface WalletRecord {
  kind: string;
  book: string;
  amount: string;
}

describe.each(tiers)('the BEP20 deposit watcher on %s', (tier) => {
  const chain = useTestDevnet();
  const t = useTestServer(tier, () => bep20Env(chain(), FINALITY));
  const watcher = () => bep20Watcher(t);

  /** A user with a BEP20 deposit address of its main account. */
  async function customer(name: string) {
    const { token } = await t.register('plain', `${name}-${tier}-${Date.now()}@example.com`);
    const answer = await t.call<{ accountId: string; address: string }>(
      'plain',
      '/api/v1/recharge/address',
      { chain: 'BEP20' },
      { token },
    );
    expect(answer.code).toBe(200);
    return { token, ...answer.data };
  }
  const deposits = async (token: string) =>
    (await t.call<{ items: Deposit[] }>('plain', '/api/v1/recharge/list', {}, { token })).data.items;
  const assets = async (token: string) =>
    (await t.call<Assets>('plain', '/api/v1/user/assets', {}, { token })).data;
  const records = async (token: string) =>
    (await t.call<{ items: WalletRecord[] }>('plain', '/api/v1/wallet/records', { limit: 100 }, { token }))
      .data.items;
  /** Ticks until the watcher has scanned to the head (a few ticks at most here). */
  async function catchUp(w: DepositWatcher = watcher()) {
    for (let i = 0; i < 20; i += 1) {
      const report = await w.tick();
      if (report.status === 'scanned' && (report.to === undefined || report.to === report.head))
        return report;
    }
    throw new Error('the watcher did not catch up in 20 ticks');
  }
  const expectBooksWhole = async () =>
    expect((await checkLedger(t.server.database.db, new Date())).violations).toEqual([]);

  /** A second watcher of the devnet's chain from block 0 over the same database, as a restart or a twin instance makes. */
  const anotherWatcher = (scanRange: number) =>
    new DepositWatcher(t.server.database.db, t.server.clock, {
      adapter: createEvmAdapter({
        rpcUrl: chain().info.rpcUrl,
        contract: chain().info.contract,
        decimals: 18,
      }),
      finality: FINALITY,
      startBlock: 0n,
      scanRange,
    });
  /** Pays `amount` to `address`, mines it past finality and lets the watcher catch up. */
  async function payFinal(address: string, amount: string) {
    await chain().pay(address, amount);
    await chain().mine(FINALITY + 1);
    await catchUp();
  }

  test('a deposit is confirming, then held at 3 confirmations, then cash at finality; credited once though the watcher restarts and sees its log again', async () => {
    const user = await customer('once');
    const hash = await chain().pay(user.address, '25.5'); // its own block: 1 confirmation
    await catchUp();
    let [deposit] = await deposits(user.token);
    expect(deposit).toMatchObject({ amount: '25.5', status: 'confirming', confirmations: 1, txHash: hash });
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '0' });

    await chain().mine(1);
    await catchUp();
    expect((await deposits(user.token))[0]).toMatchObject({ status: 'confirming', confirmations: 2 });

    await chain().mine(1);
    await catchUp();
    [deposit] = await deposits(user.token);
    expect(deposit).toMatchObject({ status: 'held', confirmations: 3 });
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '25.5' });

    // A restarted watcher (a new object over the same database) scans the same blocks again:
    // the cursor is rewound by hand, so every log is delivered a second time.
    await t.server.database.db.execute(sql`update chain_cursors set next_block = 0, tip_hash = null`);
    const restarted = anotherWatcher(2); // bounded ranges: several ticks to reach the head
    await catchUp(restarted);
    expect(await deposits(user.token)).toHaveLength(1);
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '25.5' });

    await chain().mine(FINALITY - 3);
    await catchUp();
    [deposit] = await deposits(user.token);
    expect(deposit).toMatchObject({ status: 'credited', confirmations: FINALITY });
    expect(await assets(user.token)).toMatchObject({ cash: '25.5', held: '0' });
    // The records explain it: into held, out of held, into cash; all `recharge`.
    const lines = (await records(user.token)).map((line) => `${line.kind} ${line.book} ${line.amount}`);
    expect(lines.sort()).toEqual(['recharge cash 25.5', 'recharge held -25.5', 'recharge held 25.5'].sort());
    await chain().mine(3);
    await catchUp();
    expect(await assets(user.token)).toMatchObject({ cash: '25.5', held: '0' });
    // Devices get it through the account's `deposits` collection.
    const pulled = await t.call<{ changes: { deposits?: { upserts: Array<Record<string, unknown>> } } }>(
      'plain',
      '/api/v1/sync/pull',
      { accountId: user.accountId, cursors: {} },
      { token: user.token },
    );
    expect(pulled.data.changes.deposits?.upserts).toMatchObject([
      { id: deposit?.id, amount: '25.5', status: 'credited', confirmations: FINALITY, txHash: hash },
    ]);
    await expectBooksWhole();
  }, 60_000);

  test('below 1 USDT: recorded as below_minimum, never credited', async () => {
    const user = await customer('small');
    await payFinal(user.address, '0.99');
    expect(await deposits(user.token)).toMatchObject([{ amount: '0.99', status: 'below_minimum' }]);
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '0' });
    await expectBooksWhole();
  }, 60_000);

  test('18 decimals to 6: the amount is truncated and the remainder kept as dust', async () => {
    const user = await customer('dust');
    await payFinal(user.address, '3.123456789012345678');
    expect(await deposits(user.token)).toMatchObject([{ amount: '3.123456', status: 'credited' }]);
    expect(await assets(user.token)).toMatchObject({ cash: '3.123456' });
    const dust = z
      .object({ rows: z.array(z.object({ dust: z.string(), value: z.string() })) })
      .parse(
        await t.server.database.db.execute(
          sql`select dust, value from deposits where amount = 3123456 and chain = 'BEP20'`,
        ),
      ).rows;
    expect(dust).toEqual([{ dust: '789012345678', value: '3123456789012345678' }]);
    await expectBooksWhole();
  }, 60_000);

  test('a look-alike token (another contract called USDT) and a reverted transaction are never deposits', async () => {
    const user = await customer('fake');
    const lookAlike = await deployTestToken(chain().info);
    await chain().pay(user.address, '500', lookAlike);
    const failed = await chain().sendFailing(user.address, '700');
    const receipt = await chain().publicClient.getTransactionReceipt({ hash: failed });
    expect(receipt.status).toBe('reverted');
    await chain().mine(FINALITY + 1);
    await catchUp();
    expect(await deposits(user.token)).toEqual([]);
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '0' });
  }, 60_000);

  test('two transfers in one transaction (two logs) are two deposits, both credited', async () => {
    const a = await customer('many-a');
    const b = await customer('many-b');
    await chain().payMany([
      { to: a.address, amount: '10' },
      { to: b.address, amount: '20' },
    ]);
    await chain().payMany([
      { to: a.address, amount: '1' },
      { to: a.address, amount: '2' },
    ]);
    await chain().mine(FINALITY + 1);
    await catchUp();
    const mine = await deposits(a.token);
    expect(mine.map((deposit) => deposit.amount).sort()).toEqual(['1', '10', '2']);
    expect(new Set(mine.map((deposit) => `${deposit.txHash}:${deposit.logIndex}`)).size).toBe(3);
    expect(await assets(a.token)).toMatchObject({ cash: '13' });
    expect(await assets(b.token)).toMatchObject({ cash: '20' });
    await expectBooksWhole();
  }, 60_000);

  test('a reorganisation before finality reverses a held deposit by a new transfer, no balance goes negative, and a transaction the new chain includes again stays one deposit, credited once', async () => {
    const user = await customer('reorg');
    const other = await customer('reorg-other');
    await catchUp();
    const rpcUrl = chain().info.rpcUrl;
    const wallet = createWalletClient({
      account: privateKeyToAccount(chain().info.hotWalletKey),
      chain: devnetChain(rpcUrl),
      transport: http(rpcUrl),
    });
    const before = await chain().snapshot();
    await chain().pay(user.address, '40');
    // The payment to `other` as a signed transaction, to broadcast again on the new chain.
    const raw = await wallet.signTransaction(
      await wallet.prepareTransactionRequest({
        to: chain().info.contract,
        data: encodeFunctionData({
          abi: testUsdtAbi,
          functionName: 'transfer',
          args: [other.address as `0x${string}`, parseUnits('15', 18)],
        }),
      }),
    );
    const otherHash = await chain().publicClient.sendRawTransaction({ serializedTransaction: raw });
    await chain().mine(2);
    await catchUp();
    expect(await assets(user.token)).toMatchObject({ held: '40' });
    expect(await assets(other.token)).toMatchObject({ held: '15' });

    // The chain forgets those blocks. A longer chain replaces them: without the payment to
    // `user` (its nonce goes to a payment elsewhere), with the same transaction to `other` in
    // another block.
    await chain().revert(before);
    await chain().mine(1);
    await chain().pay('0x000000000000000000000000000000000000dEaD', '1');
    expect(await chain().publicClient.sendRawTransaction({ serializedTransaction: raw })).toBe(otherHash);
    await chain().mine(4);
    await catchUp();
    expect(await deposits(user.token)).toMatchObject([{ status: 'reversed' }]);
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '0' });
    const lines = (await records(user.token)).map((line) => `${line.book} ${line.amount}`).sort();
    expect(lines).toEqual(['held -40', 'held 40']);
    expect(await deposits(other.token)).toMatchObject([{ status: 'held', txHash: otherHash }]);
    expect(await assets(other.token)).toMatchObject({ held: '15' });

    await chain().mine(FINALITY);
    await catchUp();
    expect(await assets(user.token)).toMatchObject({ cash: '0', held: '0' });
    expect(await deposits(other.token)).toMatchObject([{ status: 'credited', amount: '15' }]);
    expect(await assets(other.token)).toMatchObject({ cash: '15', held: '0' });
    await expectBooksWhole();
  }, 90_000);

  test('the node going away: a tick fails with a ChainAnswerError and applies nothing; when it answers again the watcher goes on', async () => {
    const user = await customer('down');
    await chain().pay(user.address, '7');
    const down: ChainAdapter = createEvmAdapter({
      rpcUrl: 'http://127.0.0.1:9/', // nothing listens on the discard port
      contract: chain().info.contract,
      decimals: 18,
      timeoutMs: 2000,
    });
    const offline = new DepositWatcher(t.server.database.db, t.server.clock, {
      adapter: down,
      finality: FINALITY,
      startBlock: 0n,
      scanRange: 500,
    });
    await expect(offline.tick()).rejects.toBeInstanceOf(ChainAnswerError);
    await chain().mine(FINALITY + 1);
    await catchUp();
    expect(await assets(user.token)).toMatchObject({ cash: '7' });
    await expectBooksWhole();
  }, 60_000);

  test('two watchers ticking at once move money once', async () => {
    const user = await customer('race');
    await chain().pay(user.address, '9');
    await chain().mine(FINALITY + 1);
    const twin = anotherWatcher(500);
    for (let i = 0; i < 5; i += 1) await Promise.all([watcher().tick(), twin.tick()]);
    await catchUp();
    expect(await deposits(user.token)).toMatchObject([{ amount: '9', status: 'credited' }]);
    expect(await assets(user.token)).toMatchObject({ cash: '9', held: '0' });
    await expectBooksWhole();
  }, 60_000);

  test('a restarted devnet is a new chain: the watcher notices the new genesis, reverses what was not final and scans the new chain from its first block', async () => {
    const user = await customer('genesis');
    await chain().pay(user.address, '12');
    await chain().mine(3);
    await catchUp();
    expect(await assets(user.token)).toMatchObject({ held: '12' });

    const restarted = await startTestDevnet();
    try {
      const onNewChain = new DepositWatcher(t.server.database.db, t.server.clock, {
        adapter: createEvmAdapter({
          rpcUrl: restarted.info.rpcUrl,
          contract: restarted.info.contract,
          decimals: 18,
        }),
        finality: FINALITY,
        startBlock: 'head',
        scanRange: 500,
      });
      expect(await onNewChain.tick()).toMatchObject({ status: 'new_chain', reversed: 1 });
      expect(await deposits(user.token)).toMatchObject([{ status: 'reversed' }]);
      expect(await assets(user.token)).toMatchObject({ cash: '0', held: '0' });
      await restarted.pay(user.address, '5');
      await restarted.mine(FINALITY);
      await catchUp(onNewChain);
      expect((await deposits(user.token))[0]).toMatchObject({ status: 'credited', amount: '5' });
      expect(await assets(user.token)).toMatchObject({ cash: '5', held: '0' });
      await expectBooksWhole();
    } finally {
      await restarted.stop();
    }
  }, 90_000);
});
