/**
 * One interface for every chain Coffer watches (CONTRACT.md "Chains"): the watcher asks an
 * adapter for the chain's identity, its head, a block's hash and the USDT contract's transfers in
 * a range of blocks, and nothing else. BEP20 (any EVM JSON-RPC node, viem) and TRC20 (TRON's
 * HTTP API) implement it; the watcher, the ledger side and the tests never see which.
 */
import type { Chain } from '../../contract/constants.js';

/**
 * A transfer of the configured USDT contract, as the chain recorded it: taken from the log the
 * contract itself emitted in a successful transaction, never from a transaction's input.
 */
export interface TokenTransfer {
  /** The transaction's hash, lower-case hex with 0x (TRON ids get 0x too). */
  txHash: string;
  /** The log's index: in the block (EVM) or in the transaction (TRON); unique with txHash. */
  logIndex: number;
  blockNumber: bigint;
  /** The hash of the block that holds the log, lower-case hex with 0x. */
  blockHash: string;
  /** The 20-byte account the tokens went to, lower-case hex with 0x (TRON without its 0x41 prefix). */
  to: string;
  /** The 20-byte account they came from, same form. */
  from: string;
  /** The amount in the token's own units (10^decimals per USDT). */
  value: bigint;
}

/** Which of `accounts` (20-byte lower-case hex) are deposit addresses. */
export type WatchedFilter = (accounts: readonly string[]) => Promise<ReadonlySet<string>>;

export interface ChainAdapter {
  readonly chain: Chain;
  /** The token's decimals (18 on BEP20 by default, 6 on TRC20). */
  readonly decimals: number;
  /** The USDT contract address as users see it (EIP-55 on BEP20, base58 on TRC20). */
  readonly contract: string;
  /** The hash of block 0: a different answer means a new chain (a restarted devnet). */
  genesisHash(): Promise<string>;
  /** The number of the newest block. */
  head(): Promise<bigint>;
  /** The hash of block `number` on the chain as it is now; null when there is no such block. */
  blockHash(number: bigint): Promise<string | null>;
  /**
   * The USDT contract's successful Transfer logs in blocks `from` to `to` (inclusive): the caller
   * bounds the range. Logs of other contracts, of reverted transactions and malformed logs are
   * not returned. With `watched` (which of these recipients are Coffer's addresses), an adapter
   * may return only the transfers to watched addresses, and check only their receipts.
   */
  transfers(from: bigint, to: bigint, watched?: WatchedFilter): Promise<TokenTransfer[]>;
  /**
   * What `addresses` (20-byte hex, `0x` lower-case, as deposit addresses are stored) hold in the
   * USDT contract, by its `balanceOf`, each counted once: the console's dashboard and the proof of
   * reserves compare it with what customers are owed.
   */
  holdings(addresses: readonly string[]): Promise<Holdings>;
}

export interface Holdings {
  /** In the token's own units (10^decimals per USDT). */
  value: bigint;
  /** The block the figures belong to (see each adapter for how exactly). */
  block: bigint;
}

/** An adapter's answer was not what the chain's API promises (garbage, a wrong shape). */
export class ChainAnswerError extends Error {}
