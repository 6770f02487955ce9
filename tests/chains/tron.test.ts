/**
 * The TRC20 adapter against a local node:http server that answers TRON's full-node HTTP API in its
 * documented shapes (https://developers.tron.network/reference): hex without 0x, log addresses
 * without the 41 prefix, `{}` for a missing block, `{"Error": …}` for a failure.
 */
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ChainAnswerError, type ChainAdapter } from '../../server/chains/chain.js';
import { createTronAdapter } from '../../server/chains/tron.js';
import {
  SENDER,
  USDT,
  USDT_HEX,
  block,
  blockId,
  transactionInfo,
  transferLog,
  trxTransferInfo,
  txId,
  word,
} from '../helpers/tron-node.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/** USDC on TRON: a real TRC20 token emitting the same Transfer event, so a look-alike here. */
const LOOK_ALIKE_HEX = '3487b63d30b5b2c87fb7ffa8bcfade38eaac1abe';
const APPROVAL_TOPIC = '8c5be1e5ebec7d5bd14b71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
const USER = 'c8599111f29c1e1e061265b4af93ea1f274ad78a';
const OTHER_USER = '9858effd232b4033e47d90003d41ec34ecaeda94';

// ---- the chain the fake node serves ----

type Answer = { status?: number; body: string } | 'hang';
interface FakeChain {
  blocks: Map<number, ReturnType<typeof block>>;
  /** USDT balances by 20-byte hex (no 41, no 0x), as balanceOf answers them. */
  balances: Map<string, bigint>;
  infos: Map<number, unknown>;
  head: number;
  /** Per-path overrides, for garbage answers. */
  override: Map<string, Answer>;
  requests: { path: string; body: string; apiKey: string | undefined }[];
}
let chain: FakeChain;

const USER_TX = txId(1);
const LOOK_ALIKE_TX = txId(2);
const REVERTED_TX = txId(3);
const DOUBLE_TX = txId(4);
const APPROVAL_TX = txId(5);
const TRX_TX = txId(6);

function freshChain(): FakeChain {
  const infos = new Map<number, unknown>([
    [
      101,
      [
        transactionInfo({
          id: USER_TX,
          blockNumber: 101,
          log: [transferLog({ to: USER, value: 25_000_000n })],
        }),
        transactionInfo({
          id: LOOK_ALIKE_TX,
          blockNumber: 101,
          log: [transferLog({ contract: LOOK_ALIKE_HEX, to: USER, value: 1_000_000_000n })],
        }),
        transactionInfo({
          id: REVERTED_TX,
          blockNumber: 101,
          result: 'REVERT',
          log: [transferLog({ to: USER, value: 9_000_000n })],
        }),
        trxTransferInfo(TRX_TX, 101),
      ],
    ],
    [102, {}],
    [
      103,
      [
        transactionInfo({
          id: DOUBLE_TX,
          blockNumber: 103,
          log: [
            transferLog({ to: USER, value: 1_500_000n }),
            transferLog({ to: OTHER_USER, value: 2_000_000n }),
          ],
        }),
        transactionInfo({
          id: APPROVAL_TX,
          blockNumber: 103,
          log: [
            { ...transferLog({ to: USER, value: 5n }), topics: [APPROVAL_TOPIC, word(SENDER), word(USER)] },
          ],
        }),
      ],
    ],
  ]);
  return {
    blocks: new Map([
      [0, block(0, [])],
      [101, block(101, [USER_TX, LOOK_ALIKE_TX, REVERTED_TX, TRX_TX])],
      [102, block(102, [])],
      [103, block(103, [DOUBLE_TX, APPROVAL_TX])],
    ]),
    infos,
    balances: new Map([
      [USER, 25_000_000n],
      [OTHER_USER, 2_000_000n],
    ]),
    head: 103,
    override: new Map(),
    requests: [],
  };
}

function answer(path: string, body: string): Answer {
  const overridden = chain.override.get(path);
  if (overridden) return overridden;
  if (path === '/wallet/triggerconstantcontract') return constantCall(body);
  const num = path === '/wallet/getnowblock' ? chain.head : (JSON.parse(body) as { num: number }).num; // `as`: our own client's body
  if (path === '/wallet/getnowblock' || path === '/wallet/getblockbynum') {
    return { body: JSON.stringify(chain.blocks.get(num) ?? {}) };
  }
  if (path === '/wallet/gettransactioninfobyblocknum')
    return { body: JSON.stringify(chain.infos.get(num) ?? []) };
  return { status: 404, body: 'Not Found' };
}

/** `balanceOf(address)` on the USDT contract, as a node answers a constant call; anything else fails as TRON does. */
function constantCall(body: string): Answer {
  const call = JSON.parse(body) as Record<string, unknown>; // `as`: our own client's body
  const address = typeof call['parameter'] === 'string' ? call['parameter'].slice(24) : '';
  if (call['contract_address'] !== `41${USDT_HEX}` || call['function_selector'] !== 'balanceOf(address)') {
    return { body: JSON.stringify({ result: { code: 'CONTRACT_VALIDATE_ERROR', message: '' } }) };
  }
  const balance = chain.balances.get(address) ?? 0n;
  return {
    body: JSON.stringify({ result: { result: true }, constant_result: [word(balance.toString(16))] }),
  };
}

let server: http.Server;
let apiUrl: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '';
      const apiKey = request.headers['tron-pro-api-key'];
      chain.requests.push({ path, body, apiKey: typeof apiKey === 'string' ? apiKey : undefined });
      const reply = answer(path, body);
      if (reply === 'hang') return;
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      response.end(reply.body);
    });
  });
  apiUrl = `http://127.0.0.1:${await listenOnLoopback(server)}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  chain = freshChain();
});

const adapter = (extra: { timeoutMs?: number; apiKey?: string } = {}): ChainAdapter =>
  createTronAdapter({ apiUrl, contract: USDT, ...extra });

describe('the TRC20 adapter', () => {
  test('identity: TRC20, 6 decimals by default, the contract in base58', () => {
    const tron = adapter();
    expect([tron.chain, tron.decimals, tron.contract]).toEqual(['TRC20', 6, USDT]);
    expect(createTronAdapter({ apiUrl, contract: USDT, decimals: 18 }).decimals).toBe(18);
    expect(() => createTronAdapter({ apiUrl, contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' })).toThrow();
  });

  test('head is the newest block number; blockHash is 0x + blockID; genesis is block 0’s blockID', async () => {
    const tron = adapter();
    expect(await tron.head()).toBe(103n);
    expect(await tron.blockHash(101n)).toBe(`0x${blockId(101)}`);
    expect(await tron.blockHash(5000n)).toBeNull();
    expect(await tron.genesisHash()).toBe(`0x${blockId(0)}`);
    chain.blocks.set(0, block(0, [], 'cd'));
    expect(await tron.genesisHash()).toBe(`0x${blockId(0, 'cd')}`);
  });

  test('the API key goes out as TRON-PRO-API-KEY only when set', async () => {
    await adapter({ apiKey: 'secret-key' }).head();
    await adapter().head();
    expect(chain.requests.map((request) => request.apiKey)).toEqual(['secret-key', undefined]);
  });

  test('a real USDT transfer to a user is found, with the block’s hash and the log’s index', async () => {
    const transfers = await adapter().transfers(101n, 101n);
    expect(transfers).toEqual([
      {
        txHash: `0x${USER_TX}`,
        logIndex: 0,
        blockNumber: 101n,
        blockHash: `0x${blockId(101)}`,
        to: `0x${USER}`,
        from: `0x${SENDER}`,
        value: 25_000_000n,
      },
    ]);
  });

  test('a look-alike contract’s Transfer, a REVERT receipt and a TRX transfer are ignored', async () => {
    const txHashes = (await adapter().transfers(101n, 101n)).map((transfer) => transfer.txHash);
    expect(txHashes).not.toContain(`0x${LOOK_ALIKE_TX}`);
    expect(txHashes).not.toContain(`0x${REVERTED_TX}`);
    expect(txHashes).not.toContain(`0x${TRX_TX}`);
  });

  test('two Transfer logs in one transaction are both returned, logIndex 0 and 1; an Approval is not', async () => {
    const transfers = await adapter().transfers(103n, 103n);
    expect(transfers.map(({ txHash, logIndex, to, value }) => ({ txHash, logIndex, to, value }))).toEqual([
      { txHash: `0x${DOUBLE_TX}`, logIndex: 0, to: `0x${USER}`, value: 1_500_000n },
      { txHash: `0x${DOUBLE_TX}`, logIndex: 1, to: `0x${OTHER_USER}`, value: 2_000_000n },
    ]);
  });

  test('a range is asked block by block; an empty block ({}) has no transfers', async () => {
    const transfers = await adapter().transfers(101n, 103n);
    expect(transfers.map((transfer) => [transfer.blockNumber, transfer.logIndex])).toEqual([
      [101n, 0],
      [103n, 0],
      [103n, 1],
    ]);
    expect(await adapter().transfers(102n, 102n)).toEqual([]);
    const infoAsks = chain.requests.filter(
      (request) => request.path === '/wallet/gettransactioninfobyblocknum',
    );
    expect(infoAsks.map((request) => JSON.parse(request.body) as unknown)).toEqual([
      { num: 101 },
      { num: 102 },
      { num: 103 },
      { num: 102 },
    ]);
  });

  test('with a watched filter only transfers to watched addresses come back', async () => {
    const asked: string[][] = [];
    const transfers = await adapter().transfers(101n, 103n, async (accounts) => {
      asked.push([...accounts]);
      return new Set([`0x${OTHER_USER}`]);
    });
    expect(asked).toEqual([[`0x${USER}`, `0x${OTHER_USER}`]]);
    expect(transfers.map((transfer) => transfer.to)).toEqual([`0x${OTHER_USER}`]);
  });

  test('upper-case hex from the node is returned lower-case', async () => {
    const upper = transactionInfo({
      id: USER_TX.toUpperCase(),
      blockNumber: 101,
      log: [
        {
          ...transferLog({ to: USER.toUpperCase(), value: 7n }),
          address: USDT_HEX.toUpperCase(),
        },
      ],
    });
    chain.infos.set(101, [upper]);
    chain.blocks.set(101, block(101, [USER_TX]));
    const [transfer] = await adapter().transfers(101n, 101n);
    expect(transfer?.txHash).toBe(`0x${USER_TX}`);
    expect(transfer?.to).toBe(`0x${USER}`);
  });

  test('a malformed USDT log (wrong topic count, short data) is skipped, not returned', async () => {
    const good = transferLog({ to: USER, value: 1n });
    chain.infos.set(101, [
      transactionInfo({
        id: USER_TX,
        blockNumber: 101,
        log: [{ ...good, topics: good.topics.slice(0, 2) }, { ...good, data: 'ff' }, good],
      }),
    ]);
    chain.blocks.set(101, block(101, [USER_TX]));
    const transfers = await adapter().transfers(101n, 101n);
    expect(transfers.map((transfer) => transfer.logIndex)).toEqual([2]);
  });
});

describe('what Coffer’s TRC20 addresses hold (the proof of reserves and the dashboard)', () => {
  test('holdings sums balanceOf over the addresses, each counted once, at the head read before', async () => {
    const held = await adapter().holdings([
      `0x${USER}`,
      `0x${OTHER_USER}`,
      `0x${USER.toUpperCase()}`,
      `0x${SENDER}`,
    ]);
    expect(held).toEqual({ value: 27_000_000n, block: 103n });
    const calls = chain.requests.filter((request) => request.path === '/wallet/triggerconstantcontract');
    expect(calls).toHaveLength(3);
  });

  test('no addresses hold nothing; a failed constant call is a ChainAnswerError, never a zero', async () => {
    expect(await adapter().holdings([])).toEqual({ value: 0n, block: 103n });
    chain.override.set('/wallet/triggerconstantcontract', {
      body: JSON.stringify({ result: { code: 'CONTRACT_VALIDATE_ERROR', message: '' } }),
    });
    await expect(adapter().holdings([`0x${USER}`])).rejects.toBeInstanceOf(ChainAnswerError);
  });
});

describe('garbage answers throw ChainAnswerError (the watcher retries)', () => {
  const html: Answer = { status: 200, body: '<html><body>502 Bad Gateway</body></html>' };
  test.each<[string, string, Answer]>([
    ['an HTML page for the head', '/wallet/getnowblock', html],
    ['an HTTP 500', '/wallet/getnowblock', { status: 500, body: '{"Error":"boom"}' }],
    [
      'a head without a block header',
      '/wallet/getnowblock',
      { body: JSON.stringify({ blockID: blockId(1) }) },
    ],
    [
      'a head number as a string',
      '/wallet/getnowblock',
      {
        body: JSON.stringify({ ...block(5, []), block_header: { raw_data: { number: '5' } } }),
      },
    ],
    [
      'a node Error object',
      '/wallet/getnowblock',
      { body: '{"Error":"class java.lang.NullPointerException : null"}' },
    ],
  ])('%s', async (_name, path, reply) => {
    chain.override.set(path, reply);
    await expect(adapter().head()).rejects.toThrow(ChainAnswerError);
  });

  test('a blockID that is not 32 bytes of hex, or a block of another number', async () => {
    chain.override.set('/wallet/getblockbynum', {
      body: JSON.stringify({ ...block(101, []), blockID: 'xyz' }),
    });
    await expect(adapter().blockHash(101n)).rejects.toThrow(ChainAnswerError);
    chain.override.set('/wallet/getblockbynum', { body: JSON.stringify(block(7, [])) });
    await expect(adapter().blockHash(101n)).rejects.toThrow(/asked for block 101, got 7/);
  });

  test('transaction infos of the wrong shape', async () => {
    const tron = adapter();
    for (const body of [
      '{"Error":"no such block"}',
      JSON.stringify([{ id: USER_TX, log: 'nope' }]),
      JSON.stringify([{ ...transactionInfo({ id: USER_TX, blockNumber: 101 }), log: [{ topics: ['zz'] }] }]),
      JSON.stringify([{ blockNumber: 101 }]),
      'null',
      '<html></html>',
    ]) {
      chain.override.set('/wallet/gettransactioninfobyblocknum', { body });
      await expect(tron.transfers(101n, 101n), body).rejects.toThrow(ChainAnswerError);
    }
  });

  test('infos that do not belong to the block read, or none for a block with transactions', async () => {
    const tron = adapter();
    chain.infos.set(101, [transactionInfo({ id: txId(99), blockNumber: 101 })]);
    await expect(tron.transfers(101n, 101n)).rejects.toThrow(/not of block 101/);
    chain.infos.set(101, [transactionInfo({ id: USER_TX, blockNumber: 100 })]);
    await expect(tron.transfers(101n, 101n)).rejects.toThrow(/not of block 101/);
    chain.infos.set(101, []);
    await expect(tron.transfers(101n, 101n)).rejects.toThrow(/no transaction infos/);
  });

  test('a block the node does not have yet, inside the asked range', async () => {
    await expect(adapter().transfers(103n, 104n)).rejects.toThrow(/does not exist/);
  });

  test('a node that hangs past timeoutMs', async () => {
    chain.override.set('/wallet/getnowblock', 'hang');
    const started = Date.now();
    await expect(adapter({ timeoutMs: 200 }).head()).rejects.toThrow(ChainAnswerError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('an unreachable node', async () => {
    const tron = createTronAdapter({ apiUrl: 'http://127.0.0.1:1', contract: USDT, timeoutMs: 2_000 });
    await expect(tron.head()).rejects.toThrow(ChainAnswerError);
  });
});
