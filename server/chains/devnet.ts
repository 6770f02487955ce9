/**
 * The local EVM devnet: with no chain configured and not in production, `npm start` runs Hardhat 2's
 * `hardhat node` as a child process, deploys a test USDT (devnet/TestUSDT.json, compiled from
 * devnet/contracts/TestUSDT.sol) and records where it runs in `<dataDir>/devnet.json`, which the
 * `npm run devnet` CLI and the tests read. Every start uses a fresh mnemonic and genesis time, so a
 * restarted devnet is a new chain (new genesis hash) whose transactions never repeat an old hash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { projectRoot } from '../paths.js';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  formatUnits,
  getAddress,
  http,
  isAddress,
  isHex,
  parseAbi,
  parseUnits,
  toHex,
  type Account,
  type Hex,
  type PublicClient,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import artifact from '../../devnet/TestUSDT.json' with { type: 'json' };

export interface DevnetInfo {
  rpcUrl: string;
  chainId: number;
  /** The test USDT contract, EIP-55. */
  contract: `0x${string}`;
  /** The test USDT's decimals (18, like BEP20 USDT). */
  decimals: number;
  /** Account 0 of the devnet's mnemonic: deployed the contract and holds its whole supply. */
  hotWallet: `0x${string}`;
  hotWalletKey: `0x${string}`;
  /** Block 0's hash: differs on every start. */
  genesisHash: `0x${string}`;
  /** The `hardhat node` process. */
  pid: number;
  /** ISO time of the start. */
  startedAt: string;
}

export interface Devnet {
  info: DevnetInfo;
  /** Ends the node (SIGTERM, SIGKILL after 5 s), waits for its exit and removes the info file. */
  stop(): Promise<void>;
}

export const DEVNET_INFO_FILE = 'devnet.json';
export const DEVNET_CHAIN_ID = 31337;

const TOKEN_NAME = 'Tether USD (devnet)';
const TOKEN_SYMBOL = 'USDT';
const TOKEN_DECIMALS = 18;
const TOKEN_SUPPLY_USDT = 1_000_000_000n;
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
/** How much of the child's output is kept for error messages and the exit log line. */
const OUTPUT_TAIL_CHARS = 8_000;

const repoRoot = projectRoot;
const HARDHAT_CLI = path.join(repoRoot, 'node_modules', 'hardhat', 'internal', 'cli', 'cli.js');
const HARDHAT_CONFIG = path.join(repoRoot, 'devnet', 'hardhat.config.cjs');
/**
 * Preloaded into the node: it exits when its IPC channel to us closes, so a server that crashes
 * or is killed with SIGKILL leaves no orphan devnet holding its port.
 */
const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  "process.on('disconnect', () => process.exit(0));",
)}`;

/** The parts of TestUSDT's ABI Coffer calls (the full ABI is in devnet/TestUSDT.json). */
export const testUsdtAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_, uint256 supply_)',
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferMany(address[] to, uint256[] values) returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

function testUsdtBytecode(): Hex {
  if (!isHex(artifact.bytecode) || artifact.bytecode.length < 4) {
    throw new Error('devnet/TestUSDT.json holds no bytecode: run npm run devnet:compile');
  }
  return artifact.bytecode;
}

/** The viem chain object of a devnet at `rpcUrl` (chain id 31337). */
export function devnetChain(rpcUrl: string) {
  return defineChain({
    id: DEVNET_CHAIN_ID,
    name: 'Coffer devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    // Blocks come as fast as transactions; viem derives its polling interval from this.
    blockTime: 1_000,
  });
}

/** Clients for a devnet: no caching (a confirmation counter must see every new block at once). */
function clientsOf(rpcUrl: string, account: Account) {
  const chain = devnetChain(rpcUrl);
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient: PublicClient = createPublicClient({
    chain,
    transport,
    cacheTime: 0,
    pollingInterval: 100,
  });
  const walletClient = createWalletClient({ chain, transport, account, cacheTime: 0, pollingInterval: 100 });
  return { publicClient, walletClient };
}

/** A port on 127.0.0.1 that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not pick a free port'));
      });
    });
  });
}

/** One JSON-RPC call with a deadline; throws on any failure. */
async function rpc(rpcUrl: string, method: string, params: unknown[], timeoutMs: number): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = z
    .object({ result: z.unknown().optional(), error: z.object({ message: z.string() }).optional() })
    .parse(await response.json());
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keeps the last OUTPUT_TAIL_CHARS of what the child printed. */
class OutputTail {
  private text = '';
  append(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  }
  toString(): string {
    return this.text.trim();
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

/** Resolves once the child has exited (at once if it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Waits until the node answers eth_chainId; throws with its output if it exits or times out. */
async function waitUntilAnswering(rpcUrl: string, child: ChildProcess, output: OutputTail): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the devnet (hardhat node) exited during start-up with ${describeExit(child.exitCode, child.signalCode)}:\n${output}`,
      );
    }
    try {
      await rpc(rpcUrl, 'eth_chainId', [], 1_000);
      return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the devnet (hardhat node) did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`,
      );
    }
    await sleep(100);
  }
}

/** Deploys a TestUSDT from `account` and returns its EIP-55 address once mined. */
async function deployToken(rpcUrl: string, account: Account, decimals: number): Promise<`0x${string}`> {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new Error(`decimals must be an integer from 0 to 77, not ${decimals}`);
  }
  const { publicClient, walletClient } = clientsOf(rpcUrl, account);
  const hash = await walletClient.deployContract({
    abi: testUsdtAbi,
    bytecode: testUsdtBytecode(),
    args: [TOKEN_NAME, TOKEN_SYMBOL, decimals, TOKEN_SUPPLY_USDT * 10n ** BigInt(decimals)],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deploying TestUSDT failed (transaction ${hash})`);
  }
  return getAddress(receipt.contractAddress);
}

/** Writes the info file atomically with mode 0600 (a rename, so a reader never sees half a file). */
function writeInfoFile(dataDir: string, info: DevnetInfo): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DEVNET_INFO_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** Removes the info file if it still describes the devnet of process `pid`. */
function removeInfoFile(dataDir: string, pid: number): void {
  const file = path.join(dataDir, DEVNET_INFO_FILE);
  const recorded = readInfoFile(dataDir);
  if (recorded && recorded.pid !== pid) return;
  fs.rmSync(file, { force: true });
}

/**
 * Starts `hardhat node` on 127.0.0.1:port (0 = a free port) with a fresh random mnemonic, waits
 * until it answers (60 s at most; the error carries the node's output), deploys TestUSDT (18
 * decimals, 1,000,000,000 USDT to the hot wallet, account 0), writes `<dataDir>/devnet.json`
 * (mode 0600) and returns. The node's output is kept, not printed. If the node dies on its own,
 * one line goes to `log` and the info file is removed.
 */
export async function startDevnet(options: {
  dataDir: string;
  port: number;
  blockSeconds: number;
  log: (line: string) => void;
}): Promise<Devnet> {
  if (!Number.isFinite(options.blockSeconds) || options.blockSeconds < 0) {
    throw new Error(`blockSeconds must be a number >= 0, not ${options.blockSeconds}`);
  }
  const port = options.port === 0 ? await freePort() : options.port;
  const rpcUrl = `http://127.0.0.1:${port}`;
  const mnemonic = generateMnemonic(wordlist);
  const startedAt = new Date();
  const child = spawn(
    process.execPath,
    [
      `--import=${EXIT_WITH_PARENT}`,
      HARDHAT_CLI,
      '--config',
      HARDHAT_CONFIG,
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
        // Plain output: it only ends up in error messages and log lines.
        FORCE_COLOR: '0',
        DEVNET_MNEMONIC: mnemonic,
        DEVNET_BLOCK_SECONDS: String(options.blockSeconds),
        DEVNET_INITIAL_DATE: startedAt.toISOString(),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const output = new OutputTail();
  child.stdout?.on('data', (chunk: Buffer) => output.append(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.append(chunk));
  const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
  spawnError.catch(() => {});

  let stopping = false;
  let info: DevnetInfo | undefined;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    options.log(
      `devnet: hardhat node (pid ${child.pid}) exited on its own with ${describeExit(code, signal)}; last output: ${output.toString().split('\n').slice(-3).join(' | ')}`,
    );
    if (info) removeInfoFile(options.dataDir, info.pid);
  });

  const kill = async (): Promise<void> => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited(child);
      clearTimeout(timer);
    }
    if (child.connected) child.disconnect();
  };

  try {
    await Promise.race([waitUntilAnswering(rpcUrl, child, output), spawnError]);
    const hotAccount = mnemonicToAccount(mnemonic, { addressIndex: 0 });
    const hotWalletKey = hotAccount.getHdKey().privateKey;
    if (!hotWalletKey) throw new Error('the mnemonic gave no private key');
    const contract = await deployToken(rpcUrl, hotAccount, TOKEN_DECIMALS);
    const { publicClient } = clientsOf(rpcUrl, hotAccount);
    const genesis = await publicClient.getBlock({ blockNumber: 0n });
    if (!genesis.hash) throw new Error('the devnet has no genesis hash');
    if (child.pid === undefined) throw new Error('the devnet process has no pid');
    info = {
      rpcUrl,
      chainId: DEVNET_CHAIN_ID,
      contract,
      decimals: TOKEN_DECIMALS,
      hotWallet: getAddress(hotAccount.address),
      hotWalletKey: toHex(hotWalletKey),
      genesisHash: genesis.hash,
      pid: child.pid,
      startedAt: startedAt.toISOString(),
    };
    writeInfoFile(options.dataDir, info);
  } catch (error) {
    await kill();
    throw error;
  }

  const started = info;
  let stopped: Promise<void> | undefined;
  return {
    info: started,
    stop() {
      stopped ??= kill().then(() => removeInfoFile(options.dataDir, started.pid));
      return stopped;
    },
  };
}

const hexSchema = z.string().regex(/^0x[0-9a-fA-F]+$/);
const devnetInfoSchema = z.object({
  rpcUrl: z.string().url(),
  chainId: z.number().int(),
  contract: hexSchema.length(42),
  decimals: z.number().int().min(0).max(77),
  hotWallet: hexSchema.length(42),
  hotWalletKey: hexSchema.length(66),
  genesisHash: hexSchema.length(66),
  pid: z.number().int(),
  startedAt: z.string(),
});

/** The info file's content, or undefined when it is missing or not a devnet's info. */
function readInfoFile(dataDir: string): DevnetInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, DEVNET_INFO_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = devnetInfoSchema.parse(JSON.parse(text));
    // The schema checked the 0x hex shape the template literal types promise.
    return parsed as DevnetInfo;
  } catch {
    return undefined;
  }
}

/**
 * The info of the devnet running from `dataDir`, or undefined if none is: the file is missing or
 * unreadable, or its RPC does not answer with the recorded chain (same chain id and genesis hash).
 */
export async function findDevnet(dataDir: string): Promise<DevnetInfo | undefined> {
  const info = readInfoFile(dataDir);
  if (!info) return undefined;
  try {
    const genesis = z
      .object({ hash: z.string() })
      .parse(await rpc(info.rpcUrl, 'eth_getBlockByNumber', ['0x0', false], 2_000));
    const chainId = z.string().parse(await rpc(info.rpcUrl, 'eth_chainId', [], 2_000));
    if (Number(chainId) !== info.chainId || genesis.hash.toLowerCase() !== info.genesisHash.toLowerCase()) {
      return undefined;
    }
    return info;
  } catch {
    return undefined;
  }
}

const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const DECIMAL_AMOUNT = /^(0|[1-9]\d*)(\.\d{1,18})?$/;

/** Checks a recipient: an EVM 0x address (any case that passes EIP-55) and nothing else. */
function evmRecipient(to: string): `0x${string}` {
  if (TRON_ADDRESS.test(to)) {
    throw new Error(`${to} is a TRON address; the devnet is an EVM chain: pay a 0x address`);
  }
  if (!isAddress(to)) throw new Error(`${to} is not an EVM address (0x and 40 hex digits)`);
  return getAddress(to);
}

/**
 * Sends `amount` (a decimal string, up to 18 decimals, parsed exactly) of the devnet USDT, or of
 * `token`, from the hot wallet to the EVM address `to`; waits for the receipt and returns the
 * transaction's hash. Throws on a TRON or malformed address, a malformed amount (or more decimals
 * than the token has) and a reverted transaction.
 */
export async function payUsdt(
  info: DevnetInfo,
  to: string,
  amount: string,
  token?: `0x${string}`,
): Promise<`0x${string}`> {
  const recipient = evmRecipient(to);
  if (!DECIMAL_AMOUNT.test(amount)) {
    throw new Error(`${amount} is not an amount (a decimal such as 12.5, at most 18 decimals)`);
  }
  const { publicClient, walletClient } = clientsOf(info.rpcUrl, privateKeyToAccount(info.hotWalletKey));
  const contract = token ?? info.contract;
  const decimals =
    token === undefined
      ? info.decimals
      : await publicClient.readContract({ address: contract, abi: testUsdtAbi, functionName: 'decimals' });
  const fraction = amount.split('.')[1] ?? '';
  if (fraction.length > decimals) throw new Error(`${amount} has more than the token's ${decimals} decimals`);
  const hash = await walletClient.writeContract({
    address: contract,
    abi: testUsdtAbi,
    functionName: 'transfer',
    args: [recipient, parseUnits(amount, decimals)],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`the transfer ${hash} reverted`);
  return hash;
}

/** Height, chain id, contract, hot wallet and its USDT balance, for `npm run devnet -- status`. */
export async function devnetStatus(info: DevnetInfo): Promise<{
  blockNumber: bigint;
  chainId: number;
  contract: string;
  hotWallet: string;
  hotWalletUsdt: string;
}> {
  const { publicClient } = clientsOf(info.rpcUrl, privateKeyToAccount(info.hotWalletKey));
  const [blockNumber, chainId, balance] = await Promise.all([
    publicClient.getBlockNumber(),
    publicClient.getChainId(),
    publicClient.readContract({
      address: info.contract,
      abi: testUsdtAbi,
      functionName: 'balanceOf',
      args: [info.hotWallet],
    }),
  ]);
  return {
    blockNumber,
    chainId,
    contract: info.contract,
    hotWallet: info.hotWallet,
    hotWalletUsdt: formatUnits(balance, info.decimals),
  };
}

/**
 * Deploys another TestUSDT (same bytecode, name and symbol USDT) from the hot wallet, which holds
 * its whole supply: a look-alike token whose transfers a watcher must ignore. Returns its address.
 */
export async function deployTestToken(
  info: DevnetInfo,
  decimals: number = TOKEN_DECIMALS,
): Promise<`0x${string}`> {
  return deployToken(info.rpcUrl, privateKeyToAccount(info.hotWalletKey), decimals);
}
