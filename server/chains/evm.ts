/**
 * The BEP20 adapter: any EVM JSON-RPC node (BSC, or the local devnet) through viem. Transfers
 * come from the USDT contract's own `Transfer` logs, fetched with the contract's address as the
 * filter and checked again on each log, and each transfer to a watched address is kept only when
 * its transaction's receipt says it succeeded: a look-alike token, a reverted transaction or a
 * transfer call in some input that emitted no log is never a deposit.
 */
import {
  BlockNotFoundError,
  createPublicClient,
  erc20Abi,
  getAddress,
  http,
  parseAbiItem,
  type Hash,
  type PublicClient,
} from 'viem';
import {
  ChainAnswerError,
  type ChainAdapter,
  type Holdings,
  type TokenTransfer,
  type WatchedFilter,
} from './chain.js';

const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

export interface EvmAdapterOptions {
  rpcUrl: string;
  /** The USDT contract (any case). */
  contract: string;
  decimals: number;
  /** Per request; a node slower than this counts as down for the tick. */
  timeoutMs?: number;
}

/** Runs `call`; any failure (network, garbage, a node error) becomes a ChainAnswerError. */
async function asked<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ChainAnswerError) throw error;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ChainAnswerError(`BEP20 node: ${what} failed: ${message}`, { cause: error });
  }
}

export function createEvmAdapter(options: EvmAdapterOptions): ChainAdapter {
  const contract = getAddress(options.contract);
  const client: PublicClient = createPublicClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: 0 }),
    cacheTime: 0,
  });

  const blockHash = (number: bigint) =>
    asked(`block ${number}`, async () => {
      try {
        const block = await client.getBlock({ blockNumber: number });
        if (!block.hash) throw new ChainAnswerError(`BEP20 node: block ${number} has no hash`);
        return block.hash.toLowerCase();
      } catch (error) {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      }
    });

  async function succeeded(hashes: readonly string[]): Promise<Set<string>> {
    const ok = new Set<string>();
    for (const hash of hashes) {
      const receipt = await asked(`receipt ${hash}`, () =>
        client.getTransactionReceipt({ hash: hash as Hash }),
      );
      if (receipt.status === 'success') ok.add(hash);
    }
    return ok;
  }

  return {
    chain: 'BEP20',
    decimals: options.decimals,
    contract,
    async genesisHash() {
      const hash = await blockHash(0n);
      if (!hash) throw new ChainAnswerError('BEP20 node: no block 0');
      return hash;
    },
    head: () => asked('block number', () => client.getBlockNumber({ cacheTime: 0 })),
    blockHash,
    async transfers(from: bigint, to: bigint, watched?: WatchedFilter): Promise<TokenTransfer[]> {
      const logs = await asked(`logs ${from}-${to}`, () =>
        client.getLogs({
          address: contract,
          event: TRANSFER_EVENT,
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      );
      const found: TokenTransfer[] = [];
      for (const log of logs) {
        if (log.removed || getAddress(log.address) !== contract) continue;
        if (log.blockNumber === null || log.blockHash === null || log.transactionHash === null) continue;
        if (log.logIndex === null) continue;
        found.push({
          txHash: log.transactionHash.toLowerCase(),
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash.toLowerCase(),
          to: log.args.to.toLowerCase(),
          from: log.args.from.toLowerCase(),
          value: log.args.value,
        });
      }
      const wanted = watched ? await watched([...new Set(found.map((transfer) => transfer.to))]) : undefined;
      const kept = wanted ? found.filter((transfer) => wanted.has(transfer.to)) : found;
      const ok = await succeeded([...new Set(kept.map((transfer) => transfer.txHash))]);
      return kept.filter((transfer) => ok.has(transfer.txHash));
    },
    /** Read at one block, so the figures belong together. */
    async holdings(addresses: readonly string[]): Promise<Holdings> {
      const block = await asked('block number', () => client.getBlockNumber({ cacheTime: 0 }));
      let value = 0n;
      for (const address of new Set(addresses.map((item) => item.toLowerCase()))) {
        value += await asked(`balance of ${address}`, () =>
          client.readContract({
            address: contract,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [getAddress(address)],
            blockNumber: block,
          }),
        );
      }
      return { value, block };
    },
  };
}
