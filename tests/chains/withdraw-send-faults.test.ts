/**
 * The withdrawal send job under a misbehaving node ("Faults"), on the devnet behind a
 * faulty JSON-RPC proxy of the test's: a node that answers garbage (nothing is recorded or sent;
 * when it answers again the withdrawal goes once); a node that takes the broadcast and loses the
 * answer, as a time-out after the node acted does (the tick fails, and the next one finds the
 * recorded transaction known and never signs another: paid once); and a reorganisation that
 * drops the mined transaction before its confirmations (the same signed bytes are broadcast
 * again, paid once, never twice; its recorded confirmation count falls back to 0). The
 * destination's balance and the ledger check after each.
 */
import http from 'node:http';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEvmUsdtSender } from '../../server/chains/evm-sender.js';
import { WithdrawalSender } from '../../server/services/withdrawal-sender.js';
import { startTestDevnet, type TestDevnet } from '../helpers/devnet.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { chainWithdrawFixtures } from '../helpers/chain-withdraw.js';
import { withdrawFixtures } from '../helpers/withdraw.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const freshAddress = () => getAddress(privateKeyToAccount(generatePrivateKey()).address);

/**
 * How the proxy treats a request: `ok` forwards it; `garbage` answers 200 with a body that is not
 * JSON-RPC; `lose-broadcast` forwards an `eth_sendRawTransaction` to the node, then cuts the
 * connection without its answer (everything else is forwarded).
 */
type Mode = 'ok' | 'garbage' | 'lose-broadcast';

async function faultyRpc(target: string) {
  let mode: Mode = 'ok';
  const lost: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"jsonrpc":"2.0","id":1,"result":"not a quantity"');
        return;
      }
      void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (answer) => {
          const text = await answer.text();
          if (mode === 'lose-broadcast' && body.includes('eth_sendRawTransaction')) {
            lost.push(body);
            request.socket.destroy();
            return;
          }
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(text);
        },
        () => request.socket.destroy(),
      );
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    lost,
    set: (next: Mode) => {
      mode = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the withdrawal send job under a misbehaving node', () => {
  let devnet: TestDevnet;
  let proxy: Awaited<ReturnType<typeof faultyRpc>>;
  let t: TestServer;
  let sender: WithdrawalSender;
  let finance: string;
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    devnet = await startTestDevnet();
    proxy = await faultyRpc(devnet.info.rpcUrl);
    t = await startTestServer('pglite', {
      CHAIN_BEP20_RPC_URL: devnet.info.rpcUrl,
      CHAIN_BEP20_USDT_CONTRACT: devnet.info.contract,
      CHAIN_BEP20_FINALITY: '3',
      CHAIN_BEP20_START_BLOCK: '0',
      HOT_WALLET_BEP20_KEY: devnet.info.hotWalletKey,
    });
    // The job under test talks to the node through the proxy.
    sender = new WithdrawalSender(
      t.server.database.db,
      t.clock,
      'BEP20',
      createEvmUsdtSender({
        rpcUrl: proxy.url,
        contract: devnet.info.contract,
        decimals: devnet.info.decimals,
        hotWalletKey: devnet.info.hotWalletKey,
      }),
      3,
    );
    [finance] = await f.operators('faults');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await devnet?.stop();
  });

  const { balanceOf, units, approvedWithdrawal, stateOf } = chainWithdrawFixtures(
    () => devnet,
    f,
    () => finance,
    (name) => `${name}@example.com`,
  );

  test('garbage from the node: the tick fails, nothing is recorded or sent; when the node answers again it is paid once', async () => {
    const to = freshAddress();
    const { id } = await approvedWithdrawal('garbage', to, '12.5');
    proxy.set('garbage');
    await expect(sender.tick()).rejects.toThrow();
    expect(await stateOf(id)).toMatchObject({ stage: 'approved', txHash: null });
    proxy.set('ok');
    expect(await sender.tick()).toMatchObject({ signed: 1 });
    await devnet.mine(3);
    expect(await sender.tick()).toMatchObject({ paid: 1 });
    expect(await balanceOf(to)).toBe(units('12.5'));
    await f.expectLedgerOk(finance);
  });

  test('the node takes the broadcast and the answer is lost (a time-out after the node acted): the next tick finds it known and never signs again; paid once', async () => {
    const to = freshAddress();
    const { id } = await approvedWithdrawal('lost', to, '33.3');
    proxy.set('lose-broadcast');
    await expect(sender.tick()).rejects.toThrow();
    expect(proxy.lost).toHaveLength(1);
    const recorded = await stateOf(id);
    expect(recorded).toMatchObject({ stage: 'sending', txHash: expect.stringMatching(/^0x/) });
    proxy.set('ok');
    expect(await sender.tick()).toMatchObject({ signed: 0, rebroadcast: 0, resigned: 0 });
    await devnet.mine(3);
    expect(await sender.tick()).toMatchObject({ paid: 1, signed: 0 });
    expect((await stateOf(id))?.txHash).toBe(recorded?.txHash);
    expect(await balanceOf(to)).toBe(units('33.3'));
    await f.expectLedgerOk(finance);
  });

  test('a reorganisation drops the mined transaction before its confirmations: the same bytes are broadcast again, paid once; the count goes back to 0', async () => {
    const to = freshAddress();
    const { id } = await approvedWithdrawal('reorg', to, '44.4');
    const before = await devnet.snapshot();
    expect(await sender.tick()).toMatchObject({ signed: 1 });
    const sent = await stateOf(id);
    expect(await balanceOf(to)).toBe(units('44.4'));
    expect(await sender.tick()).toMatchObject({ waiting: 1, paid: 0, counted: 1 });
    expect((await stateOf(id))?.confirmations).toMatchObject({ seen: 1 });
    await devnet.revert(before);
    expect(await balanceOf(to)).toBe(0n);
    expect(await sender.tick()).toMatchObject({ rebroadcast: 1, signed: 0, resigned: 0, counted: 1 });
    expect((await stateOf(id))?.confirmations).toMatchObject({ seen: 0, reached: false });
    await devnet.mine(3);
    expect(await sender.tick()).toMatchObject({ paid: 1 });
    expect((await stateOf(id))?.txHash).toBe(sent?.txHash);
    expect((await stateOf(id))?.confirmations).toEqual({ required: 3, reached: true, seen: 3 });
    expect(await balanceOf(to)).toBe(units('44.4'));
    expect(await sender.tick()).toMatchObject({ signed: 0, paid: 0, rebroadcast: 0 });
    await f.expectLedgerOk(finance);
  });
});
