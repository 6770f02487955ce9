/**
 * Sending USDT from the BEP20 hot wallet (withdrawals). Signing and broadcasting are two steps,
 * so the caller can record a transaction's nonce and hash before it can reach the chain: after a
 * crash the same signed bytes are sent again (the same hash, the same nonce), never a second
 * transfer. The hot wallet's key stays in this module.
 */
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  type Hash,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { minor, toTokenUnits } from '../../contract/money.js';

export interface SignedTransfer {
  raw: Hex;
  hash: Hash;
}

export interface SentState {
  /** Mined: its block and whether it succeeded. */
  receipt: { status: 'success' | 'reverted'; blockNumber: bigint } | null;
  /** Known to the node (in its pool or mined). */
  known: boolean;
}

/** What the withdrawal job needs of a chain; tests may give their own. */
export interface UsdtSender {
  /** The hot wallet's address (EIP-55). */
  readonly from: string;
  head(): Promise<bigint>;
  /** The number of the hot wallet's transactions mined so far (the next nonce a block can take). */
  minedNonce(): Promise<number>;
  /** The nonce after the hot wallet's pending ones too. */
  pendingNonce(): Promise<number>;
  /** Signs a transfer of `amount` (6-decimal minor units) to `to`; sends nothing. */
  sign(input: { to: string; amount: bigint; nonce: number }): Promise<SignedTransfer>;
  /** Sends signed bytes; a node that already knows them is not an error. */
  broadcast(raw: Hex): Promise<void>;
  state(hash: Hash): Promise<SentState>;
}

/** A transfer's gas limit when the node cannot estimate it (a token transfer takes about 50,000). */
const FALLBACK_GAS = 100_000n;
const GAS_MARGIN_PERCENT = 130n;

/** Errors a node gives for bytes it has already seen: the transaction is on its way, all is well. */
const ALREADY_SENT =
  /already known|known transaction|nonce too low|already imported|replacement transaction underpriced/i;

/** Builds the sender without calling the node (a node down at start only delays the first send). */
export function createEvmUsdtSender(options: {
  rpcUrl: string;
  contract: string;
  decimals: number;
  hotWalletKey: `0x${string}`;
}): UsdtSender {
  const transport = http(options.rpcUrl, { timeout: 30_000, retryCount: 0 });
  const client: PublicClient = createPublicClient({ transport, cacheTime: 0 });
  let chainId: number | undefined;
  const hot = privateKeyToAccount(options.hotWalletKey);
  const token = getAddress(options.contract);

  return {
    from: hot.address,
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    minedNonce: () => client.getTransactionCount({ address: hot.address, blockTag: 'latest' }),
    pendingNonce: () => client.getTransactionCount({ address: hot.address, blockTag: 'pending' }),
    async sign({ to, amount, nonce }) {
      const args = [getAddress(to), toTokenUnits(minor(amount), options.decimals)] as const;
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args });
      const gas = await client
        .estimateContractGas({ account: hot, address: token, abi: erc20Abi, functionName: 'transfer', args })
        .then((estimate) => (estimate * GAS_MARGIN_PERCENT) / 100n)
        .catch(() => FALLBACK_GAS);
      const gasPrice = await client.getGasPrice();
      chainId ??= await client.getChainId();
      const raw = await hot.signTransaction({
        chainId,
        type: 'legacy',
        to: token,
        data,
        gas,
        gasPrice,
        nonce,
      });
      return { raw, hash: keccak256(raw) };
    },
    async broadcast(raw) {
      try {
        await client.sendRawTransaction({ serializedTransaction: raw });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!ALREADY_SENT.test(message)) throw error;
      }
    },
    async state(hash) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt)
        return { receipt: { status: receipt.status, blockNumber: receipt.blockNumber }, known: true };
      const pending = await client.getTransaction({ hash }).catch(() => null);
      return { receipt: null, known: pending !== null };
    },
  };
}
