/**
 * Moving deposits from users' BEP20 addresses to the hot wallet, on chain (CONTRACT.md "Chains":
 * an operator command that takes the deposit key at run time and never stores it). For each
 * address: its whole USDT balance, after topping up its gas from the hot wallet when it has too
 * little. The deposit keys are derived here from the secret the operator gives and dropped after.
 */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  getAddress,
  http,
  type Hash,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bytesToHex } from 'viem/utils';
import { depositPrivateKey } from './addresses.js';

export interface SweepTarget {
  accountId: number;
  derivationIndex: number;
  /** The 20-byte address, lower-case hex: the derived key must give exactly this. */
  hex: string;
}

export interface SweepOutcome {
  accountId: number;
  address: string;
  /** Token units moved; 0 when the address held nothing (nothing was sent). */
  value: bigint;
  gasTxHash: Hash | null;
  txHash: Hash | null;
  ok: boolean;
}

export interface SweepOptions {
  rpcUrl: string;
  contract: string;
  hotWalletKey: `0x${string}`;
  /** The deposit key's mnemonic or root xprv, given at run time. */
  secret: string;
  targets: readonly SweepTarget[];
  log: (line: string) => void;
}

/** Head room over the estimated gas cost, in percent. */
const GAS_MARGIN_PERCENT = 130n;

export async function sweepBep20(options: SweepOptions): Promise<SweepOutcome[]> {
  const transport = http(options.rpcUrl, { timeout: 30_000 });
  const probe = createPublicClient({ transport, cacheTime: 0 });
  const chain = defineChain({
    id: await probe.getChainId(),
    name: 'BEP20 node',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const client: PublicClient = createPublicClient({ chain, transport, cacheTime: 0 });
  const hot = privateKeyToAccount(options.hotWalletKey);
  const hotWallet = createWalletClient({ account: hot, chain, transport });
  const token = getAddress(options.contract);
  const outcomes: SweepOutcome[] = [];

  for (const target of options.targets) {
    const key = depositPrivateKey(options.secret, 'BEP20', target.derivationIndex);
    const account = privateKeyToAccount(bytesToHex(key));
    key.fill(0);
    if (account.address.toLowerCase() !== target.hex) {
      throw new Error(
        `the key given does not derive account ${target.accountId}'s address ${target.hex}: wrong mnemonic or xprv`,
      );
    }
    const value = await client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account.address],
    });
    if (value === 0n) {
      outcomes.push({
        accountId: target.accountId,
        address: account.address,
        value,
        gasTxHash: null,
        txHash: null,
        ok: true,
      });
      continue;
    }
    const gas = await client.estimateContractGas({
      account,
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [hot.address, value],
    });
    const gasPrice = await client.getGasPrice();
    const needed = (gas * gasPrice * GAS_MARGIN_PERCENT) / 100n;
    const native = await client.getBalance({ address: account.address });
    let gasTxHash: Hash | null = null;
    if (native < needed) {
      gasTxHash = await hotWallet.sendTransaction({ to: account.address, value: needed - native });
      const funded = await client.waitForTransactionReceipt({ hash: gasTxHash });
      if (funded.status !== 'success')
        throw new Error(`gas top-up ${gasTxHash} for ${account.address} reverted`);
    }
    const wallet = createWalletClient({ account, chain, transport });
    const txHash = await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [hot.address, value],
      gas: (gas * GAS_MARGIN_PERCENT) / 100n,
      gasPrice,
    });
    const receipt = await client.waitForTransactionReceipt({ hash: txHash });
    const ok = receipt.status === 'success';
    options.log(
      `${ok ? 'swept' : 'FAILED'} ${value} token units from ${account.address} (account ${target.accountId}): ${txHash}`,
    );
    outcomes.push({ accountId: target.accountId, address: account.address, value, gasTxHash, txHash, ok });
  }
  return outcomes;
}
