/**
 * TRC20 deposits end to end against a local server answering TRON's documented HTTP API (no TRON
 * node runs here), on PGlite and PostgreSQL: a USDT transfer to an account's TRON address is
 * confirming, then held at 3 confirmations, then cash at the finality depth; a look-alike token
 * and a failed receipt are ignored; below 1 USDT is recorded only. The ledger stays whole.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tronToHex } from '../../server/chains/addresses.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import type { DepositWatcher } from '../../server/services/deposit-watcher.js';
import { availableTiers } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { USDT, block, transactionInfo, transferLog, txId } from '../helpers/tron-node.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const tiers = await availableTiers('tron-watcher');
const FINALITY = 5;
/** USDC on TRON: the same Transfer event from another contract. */
const LOOK_ALIKE_HEX = '3487b63d30b5b2c87fb7ffa8bcfade38eaac1abe';

/** A fake TRON node: blocks 0..head, some with USDT transaction infos. */
class FakeTron {
  head = 0;
  readonly infos = new Map<number, ReturnType<typeof transactionInfo>[]>();
  #server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const num =
        request.url === '/wallet/getnowblock' ? this.head : (JSON.parse(body) as { num: number }).num; // `as`: the adapter's own body
      const infos = this.infos.get(num) ?? [];
      const answer =
        num > this.head
          ? {}
          : request.url === '/wallet/gettransactioninfobyblocknum'
            ? infos
            : block(
                num,
                infos.map((info) => info.id),
              );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  url = '';

  async start() {
    this.url = `http://127.0.0.1:${await listenOnLoopback(this.#server)}`;
  }
  async close() {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
  /** A new block holding `infos`; answers its number. */
  mine(infos: ReturnType<typeof transactionInfo>[] = []): number {
    this.head += 1;
    this.infos.set(
      this.head,
      infos.map((info) => ({ ...info, blockNumber: this.head })),
    );
    return this.head;
  }
}

let seed = 100;
const usdtTo = (hex: string, value: bigint, options: { contract?: string; result?: string } = {}) =>
  transactionInfo({
    id: txId((seed += 1)),
    blockNumber: 0,
    ...(options.result ? { result: options.result } : {}),
    log: [transferLog({ to: hex, value, ...(options.contract ? { contract: options.contract } : {}) })],
  });

describe.each(tiers)('TRC20 deposits on %s', (tier) => {
  const tron = new FakeTron();
  let t: TestServer;
  let watcher: DepositWatcher;

  beforeAll(async () => {
    await tron.start();
    t = await startTestServer(tier, {
      CHAIN_TRC20_API_URL: tron.url,
      CHAIN_TRC20_FINALITY: String(FINALITY),
      CHAIN_TRC20_START_BLOCK: '0',
    });
    const found = t.server.watchers.find((candidate) => candidate.chain === 'TRC20');
    if (!found) throw new Error('no TRC20 watcher');
    watcher = found;
  });
  afterAll(async () => {
    await t?.close();
    await tron.close();
  });

  const statusOf = async (token: string) =>
    (
      await t.call<{ items: Array<{ amount: string; status: string; confirmations: number }> }>(
        'plain',
        '/api/v1/recharge/list',
        {},
        { token },
      )
    ).data.items;
  const assets = async (token: string) =>
    (await t.call<{ cash: string; held: string }>('plain', '/api/v1/user/assets', {}, { token })).data;
  const tick = async () => {
    for (let i = 0; i < 5; i += 1) await watcher.tick();
  };

  test('a USDT transfer to the account’s TRON address: confirming, held at 3, cash at finality; look-alikes, failed receipts and dust-sized sends are not credited', async () => {
    const { token } = await t.register('plain', `tron-${tier}@example.com`);
    const address = await t.call<{ address: string; contract: string }>(
      'plain',
      '/api/v1/recharge/address',
      { chain: 'TRC20' },
      { token },
    );
    expect(address.data.contract).toBe(USDT);
    const hex = tronToHex(address.data.address).slice(2);
    tron.mine([
      usdtTo(hex, 42_500_000n),
      usdtTo(hex, 500_000_000n, { contract: LOOK_ALIKE_HEX }),
      usdtTo(hex, 600_000_000n, { result: 'REVERT' }),
      usdtTo(hex, 999_999n),
    ]);
    await tick();
    expect(await statusOf(token)).toMatchObject([
      { amount: '0.999999', status: 'below_minimum' },
      { amount: '42.5', status: 'confirming', confirmations: 1 },
    ]);
    tron.mine();
    tron.mine();
    await tick();
    expect((await statusOf(token))[1]).toMatchObject({ status: 'held', confirmations: 3 });
    expect(await assets(token)).toMatchObject({ cash: '0', held: '42.5' });
    tron.mine();
    tron.mine();
    await tick();
    expect((await statusOf(token))[1]).toMatchObject({ status: 'credited', confirmations: FINALITY });
    expect(await assets(token)).toMatchObject({ cash: '42.5', held: '0' });
    expect((await checkLedger(t.server.database.db, new Date())).violations).toEqual([]);
  });
});
