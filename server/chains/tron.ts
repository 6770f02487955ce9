/**
 * The TRC20 adapter over TRON's full-node HTTP API (https://developers.tron.network/reference):
 * `/wallet/getnowblock`, `/wallet/getblockbynum` and `/wallet/gettransactioninfobyblocknum`, asked
 * block by block. A transfer is taken only from a `Transfer(address,address,uint256)` log that the
 * configured USDT contract itself emitted in a transaction whose receipt says SUCCESS: a look-alike
 * token, a reverted call or a transfer in some input that emitted no log is never a deposit.
 *
 * Every answer is parsed with zod; anything the API does not promise (HTML, a wrong shape, an
 * `Error` object, an HTTP error status, a timeout) throws ChainAnswerError and the watcher retries.
 * Hex in TRON's answers has no `0x`; the adapter returns the interface's `0x` lower-case forms.
 */
import { z } from 'zod';
import {
  ChainAnswerError,
  type ChainAdapter,
  type Holdings,
  type TokenTransfer,
  type WatchedFilter,
} from './chain.js';
import { tronFromHex, tronToHex } from './addresses.js';

/** keccak256("Transfer(address,address,uint256)"), as TRON writes topics: bare lower-case hex. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface TronAdapterOptions {
  /** The full node's HTTP base, e.g. https://api.trongrid.io. */
  apiUrl: string;
  /** The USDT contract, base58 (`T…`). */
  contract: string;
  /** The token's decimals; 6 for USDT. */
  decimals?: number;
  fetch?: typeof fetch;
  /** Per request; a node slower than this counts as down for the tick. */
  timeoutMs?: number;
  /** Sent as TRON-PRO-API-KEY (TronGrid) when set. */
  apiKey?: string;
}

const hexSchema = z.string().regex(/^[0-9a-fA-F]*$/, 'hex digits');
const hash32Schema = z.string().regex(/^[0-9a-fA-F]{64}$/, '32 bytes of hex');
/** Block numbers are JSON numbers; protobuf's JSON leaves out a zero, so a missing one is block 0. */
const blockNumberSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const blockSchema = z.object({
  blockID: hash32Schema,
  block_header: z.object({
    raw_data: z.object({ number: blockNumberSchema.optional() }),
  }),
  transactions: z.array(z.object({ txID: hash32Schema })).optional(),
});
type Block = z.infer<typeof blockSchema>;

/** Tells a block from TRON's empty answer. */
function isBlock(answer: Block | Record<string, never>): answer is Block {
  return 'blockID' in answer;
}

/** `{}` is TRON's answer for "no such block" (and for "no transaction infos"). */
const emptySchema = z.strictObject({});

const logSchema = z.object({
  address: hexSchema.optional(),
  topics: z.array(hexSchema).optional(),
  data: hexSchema.optional(),
});

const transactionInfoSchema = z.object({
  id: hash32Schema,
  blockNumber: blockNumberSchema.optional(),
  receipt: z.object({ result: z.string().optional() }).optional(),
  log: z.array(logSchema).optional(),
});
type TransactionInfo = z.infer<typeof transactionInfoSchema>;

const transactionInfosSchema = z.union([z.array(transactionInfoSchema), emptySchema]);

/** The emitter of a log: 20 bytes, lower-case; TRON documents it without 41, a 41-prefixed one is accepted too. */
function logAddress(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const lower = address.toLowerCase();
  if (lower.length === 42 && lower.startsWith('41')) return lower.slice(2);
  return lower;
}

/** The 20-byte account in an address topic (12 zero bytes, then the account), or undefined when malformed. */
function topicAccount(topic: string): string | undefined {
  const lower = topic.toLowerCase();
  if (lower.length !== 64 || !/^0{24}/.test(lower)) return undefined;
  return `0x${lower.slice(24)}`;
}

/** The transfers one transaction info carries from `contract`'s own successful Transfer logs. */
function transfersOf(
  info: TransactionInfo,
  contract: string,
  block: { number: bigint; hash: string },
): TokenTransfer[] {
  if (info.receipt?.result !== 'SUCCESS') return [];
  const found: TokenTransfer[] = [];
  (info.log ?? []).forEach((log, logIndex) => {
    const topics = log.topics ?? [];
    if (logAddress(log.address) !== contract) return;
    if (topics.length !== 3 || topics[0]?.toLowerCase() !== TRANSFER_TOPIC) return;
    const from = topicAccount(topics[1] ?? '');
    const to = topicAccount(topics[2] ?? '');
    if (from === undefined || to === undefined || log.data?.length !== 64) return;
    found.push({
      txHash: `0x${info.id.toLowerCase()}`,
      logIndex,
      blockNumber: block.number,
      blockHash: block.hash,
      to,
      from,
      value: BigInt(`0x${log.data}`),
    });
  });
  return found;
}

/** A block number as the JSON number TRON takes; a caller's range beyond it is a bug. */
function numberParameter(number: bigint): number {
  if (number < 0n || number > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`block number out of range: ${number}`);
  }
  return Number(number);
}

/** A constant (read-only) contract call's answer: one 32-byte word. */
const constantCallSchema = z.object({
  result: z.object({ result: z.literal(true) }),
  constant_result: z.tuple([z.string().regex(/^[0-9a-fA-F]{64}$/, 'one 32-byte word')]),
});

/** POSTs a body to a path of the node and parses the JSON answer with a schema; every failure is a ChainAnswerError. */
type Ask = <T>(path: string, body: object, schema: z.ZodType<T>) => Promise<T>;

function tronAsk(options: TronAdapterOptions): Ask {
  const baseUrl = options.apiUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers['TRON-PRO-API-KEY'] = options.apiKey;

  return async function ask<T>(path: string, body: object, schema: z.ZodType<T>): Promise<T> {
    const what = `TRC20 node: ${path} ${JSON.stringify(body)}`;
    let text: string;
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
      if (!response.ok) throw new ChainAnswerError(`${what}: HTTP ${response.status}`);
    } catch (error) {
      if (error instanceof ChainAnswerError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new ChainAnswerError(`${what} failed: ${message}`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ChainAnswerError(`${what}: the answer is not JSON: ${text.slice(0, 80)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const error = z.object({ Error: z.string() }).safeParse(json);
      const reason = error.success ? `the node says: ${error.data.Error}` : z.prettifyError(parsed.error);
      throw new ChainAnswerError(`${what}: unexpected answer: ${reason}`);
    }
    return parsed.data;
  };
}

export function createTronAdapter(options: TronAdapterOptions): ChainAdapter {
  const contractHex = tronToHex(options.contract).slice(2);
  const contract = tronFromHex(contractHex);
  const ask = tronAsk(options);

  /** Block `number`, or null when the node has none; a block with another number is garbage. */
  async function block(number: bigint): Promise<Block | null> {
    const answer = await ask(
      '/wallet/getblockbynum',
      { num: numberParameter(number) },
      z.union([blockSchema, emptySchema]),
    );
    if (!isBlock(answer)) return null;
    const got = BigInt(answer.block_header.raw_data.number ?? 0);
    if (got !== number) throw new ChainAnswerError(`TRC20 node: asked for block ${number}, got ${got}`);
    return answer;
  }

  async function blockHash(number: bigint): Promise<string | null> {
    if (number < 0n || number > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    const found = await block(number);
    return found ? `0x${found.blockID.toLowerCase()}` : null;
  }

  /**
   * The transfers in block `number`. The block (and its hash) is read before its transaction infos:
   * if the chain reorganises in between, the recorded hash is the old one and the watcher's next
   * hash check sees the change. The infos must belong to the block read: an info of another block,
   * or none at all for a block with transactions (a node lagging behind a load balancer, or one
   * that keeps no transaction history), is a ChainAnswerError rather than a block without deposits.
   */
  async function blockTransfers(number: bigint): Promise<TokenTransfer[]> {
    const found = await block(number);
    if (!found) throw new ChainAnswerError(`TRC20 node: block ${number} does not exist yet`);
    const answer = await ask(
      '/wallet/gettransactioninfobyblocknum',
      { num: numberParameter(number) },
      transactionInfosSchema,
    );
    const infos = Array.isArray(answer) ? answer : [];
    const txIds = new Set((found.transactions ?? []).map((transaction) => transaction.txID.toLowerCase()));
    if (txIds.size > 0 && infos.length === 0) {
      throw new ChainAnswerError(`TRC20 node: block ${number} has transactions but no transaction infos`);
    }
    for (const info of infos) {
      if (!txIds.has(info.id.toLowerCase()) || BigInt(info.blockNumber ?? 0) !== number) {
        throw new ChainAnswerError(`TRC20 node: transaction info ${info.id} is not of block ${number}`);
      }
    }
    const where = { number, hash: `0x${found.blockID.toLowerCase()}` };
    return infos.flatMap((info) => transfersOf(info, contractHex, where));
  }

  return {
    chain: 'TRC20',
    decimals: options.decimals ?? 6,
    contract,
    async genesisHash() {
      const hash = await blockHash(0n);
      if (!hash) throw new ChainAnswerError('TRC20 node: no block 0');
      return hash;
    },
    async head() {
      const now = await ask('/wallet/getnowblock', {}, blockSchema);
      return BigInt(now.block_header.raw_data.number ?? 0);
    },
    blockHash,
    async transfers(from: bigint, to: bigint, watched?: WatchedFilter): Promise<TokenTransfer[]> {
      const found: TokenTransfer[] = [];
      for (let number = from; number <= to; number += 1n) found.push(...(await blockTransfers(number)));
      if (!watched || found.length === 0) return found;
      const wanted = await watched([...new Set(found.map((transfer) => transfer.to))]);
      return found.filter((transfer) => wanted.has(transfer.to));
    },
    /**
     * By `/wallet/triggerconstantcontract` calling `balanceOf(address)`. TRON's constant calls
     * read the latest state, not a given block: `block` is the head read just before, so a figure
     * may include a block or two after it.
     */
    async holdings(addresses: readonly string[]): Promise<Holdings> {
      const now = await ask('/wallet/getnowblock', {}, blockSchema);
      let value = 0n;
      for (const address of new Set(addresses.map((item) => item.toLowerCase().replace(/^0x/, '')))) {
        const answer = await ask(
          '/wallet/triggerconstantcontract',
          {
            owner_address: `41${address}`,
            contract_address: `41${contractHex}`,
            function_selector: 'balanceOf(address)',
            parameter: address.padStart(64, '0'),
            visible: false,
          },
          constantCallSchema,
        );
        value += BigInt(`0x${answer.constant_result[0]}`);
      }
      return { value, block: BigInt(now.block_header.raw_data.number ?? 0) };
    },
  };
}
