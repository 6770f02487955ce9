/**
 * A local EVM devnet for tests (server/chains/devnet.ts on a free port, in a temporary data dir),
 * with the moves a deposit test needs: mine blocks, snapshot and revert (a reorganisation), pay
 * one or several addresses (several in one transaction) and mine a reverted transfer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  parseUnits,
  type Hex,
  type PublicClient,
  createPublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll } from 'vitest';
import {
  devnetChain,
  payUsdt,
  startDevnet,
  testUsdtAbi,
  type Devnet,
  type DevnetInfo,
} from '../../server/chains/devnet.js';
import type { DepositWatcher } from '../../server/services/deposit-watcher.js';
import type { TestServer } from './server.js';

export interface TestDevnet {
  info: DevnetInfo;
  devnet: Devnet;
  /** The temporary data dir holding devnet.json (removed by stop). */
  dataDir: string;
  /** No caching: every call sees the newest block. */
  publicClient: PublicClient;
  /** The test USDT balance of `address`, in the token's units (as the contract reads now). */
  usdtOf(address: string): Promise<bigint>;
  /** Mines `blocks` empty blocks at once. */
  mine(blocks: number): Promise<void>;
  /** Saves the chain's state; `revert(id)` returns to it (once per id), dropping later blocks. */
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  /** payUsdt from the hot wallet: `amount` is a decimal string; returns the mined tx's hash. */
  pay(to: string, amount: string, token?: `0x${string}`): Promise<Hex>;
  /** One transferMany transaction paying every recipient (one Transfer log each); its hash. */
  payMany(recipients: Array<{ to: string; amount: string }>): Promise<Hex>;
  /**
   * A USDT transfer from a second funded account that holds no USDT, sent with a fixed gas limit
   * so it is mined and reverts; the hash of that mined, reverted transaction.
   */
  sendFailing(to: string, amount: string): Promise<Hex>;
  /** Stops the devnet and removes the data dir; calling it again does nothing. */
  stop(): Promise<void>;
}

const FAILING_GAS = 200_000n;

/** Starts a devnet (blockSeconds 0 by default: a block per transaction only). */
export async function startTestDevnet(options: { blockSeconds?: number } = {}): Promise<TestDevnet> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-devnet-'));
  let devnet: Devnet;
  try {
    devnet = await startDevnet({
      dataDir,
      port: 0,
      blockSeconds: options.blockSeconds ?? 0,
      log: (line) => console.warn(line),
    });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { info } = devnet;
  const chain = devnetChain(info.rpcUrl);
  const transport = http(info.rpcUrl, { retryCount: 0 });
  const publicClient: PublicClient = createPublicClient({
    chain,
    transport,
    cacheTime: 0,
    pollingInterval: 50,
  });
  const testClient = createTestClient({ chain, transport, mode: 'hardhat', cacheTime: 0 });
  const hotWallet = createWalletClient({
    chain,
    transport,
    account: privateKeyToAccount(info.hotWalletKey),
    cacheTime: 0,
  });

  let stopped: Promise<void> | undefined;
  return {
    info,
    devnet,
    dataDir,
    publicClient,
    usdtOf: (address) =>
      publicClient.readContract({
        address: info.contract,
        abi: testUsdtAbi,
        functionName: 'balanceOf',
        args: [getAddress(address)],
      }),
    async mine(blocks) {
      await testClient.mine({ blocks });
    },
    snapshot: () => testClient.snapshot(),
    async revert(id) {
      // viem's revert takes the id as Quantity hex, which evm_snapshot returned.
      await testClient.revert({ id: id as Hex });
    },
    pay: (to, amount, token) => payUsdt(info, to, amount, token),
    async payMany(recipients) {
      const hash = await hotWallet.writeContract({
        address: info.contract,
        abi: testUsdtAbi,
        functionName: 'transferMany',
        args: [
          recipients.map((recipient) => getAddress(recipient.to)),
          recipients.map((recipient) => parseUnits(recipient.amount, info.decimals)),
        ],
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`transferMany ${hash} reverted`);
      return hash;
    },
    async sendFailing(to, amount) {
      // Hardhat's node signs for its own accounts; account 1 has ETH and never gets USDT.
      const [, sender] = await createWalletClient({ chain, transport }).getAddresses();
      if (!sender) throw new Error('the devnet has no second account');
      const wallet = createWalletClient({ chain, transport, account: sender, cacheTime: 0 });
      const hash = await wallet.writeContract({
        address: info.contract,
        abi: testUsdtAbi,
        functionName: 'transfer',
        args: [getAddress(to), parseUnits(amount, info.decimals)],
        gas: FAILING_GAS,
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'reverted') throw new Error(`the transfer ${hash} meant to fail succeeded`);
      return hash;
    },
    stop() {
      stopped ??= devnet.stop().finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      return stopped;
    },
  };
}

/**
 * A devnet for the calling file: started before its tests, stopped after them. The getter throws
 * when called before the devnet started (e.g. from a hook registered earlier).
 */
export function useTestDevnet(): () => TestDevnet {
  let devnet: TestDevnet | undefined;
  beforeAll(async () => {
    devnet = await startTestDevnet();
  }, 120_000);
  afterAll(async () => devnet?.stop());
  return () => {
    if (!devnet) throw new Error('no devnet');
    return devnet;
  };
}

/**
 * Coffer's environment for a BEP20 chain on `devnet`: its node and USDT contract, watched from
 * block 0 and final after `finality` blocks, with the devnet's hot wallet when `hotWallet`.
 */
export function bep20Env(devnet: TestDevnet, finality: number, hotWallet = false): Record<string, string> {
  return {
    CHAIN_BEP20_RPC_URL: devnet.info.rpcUrl,
    CHAIN_BEP20_USDT_CONTRACT: devnet.info.contract,
    CHAIN_BEP20_START_BLOCK: '0',
    CHAIN_BEP20_FINALITY: String(finality),
    ...(hotWallet ? { HOT_WALLET_BEP20_KEY: devnet.info.hotWalletKey } : {}),
  };
}

/** The BEP20 deposit watcher of a server started with bep20Env; throws when it has none. */
export function bep20Watcher(t: TestServer): DepositWatcher {
  const [first] = t.server.watchers;
  if (!first) throw new Error('no BEP20 watcher: the devnet was not configured');
  return first;
}
