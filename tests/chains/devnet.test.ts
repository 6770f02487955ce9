/**
 * The local EVM devnet (server/chains/devnet.ts): its committed contract artifact, a running
 * node, restarts as new chains, the test helper's moves and the `npm run devnet` CLI.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseEventLogs, parseUnits } from 'viem';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ARTIFACT_PATH, CONTRACT_SOURCE_PATH, compileTestUsdt } from '../../devnet/compile.js';
import {
  DEVNET_INFO_FILE,
  deployTestToken,
  devnetStatus,
  findDevnet,
  payUsdt,
  startDevnet,
  testUsdtAbi,
} from '../../server/chains/devnet.js';
import { useTestDevnet } from '../helpers/devnet.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const ALICE = '0x00000000000000000000000000000000000A11cE';
const BOB = '0x0000000000000000000000000000000000000B0b';

const abiParameterSchema = z.object({ type: z.string(), indexed: z.boolean().optional() });
const abiItemSchema = z.object({
  type: z.string(),
  name: z.string().optional(),
  inputs: z.array(abiParameterSchema).optional(),
  outputs: z.array(abiParameterSchema).optional(),
});

interface AbiParameterShape {
  readonly type: string;
  readonly indexed?: boolean | undefined;
}

/** An ABI item's kind, name and parameter types: what encoding depends on (not parameter names). */
function shapeOf(item: {
  readonly type: string;
  readonly name?: string | undefined;
  readonly inputs?: readonly AbiParameterShape[] | undefined;
  readonly outputs?: readonly AbiParameterShape[] | undefined;
}): string {
  const types = (parameters: readonly AbiParameterShape[] = []) =>
    parameters.map((parameter) => `${parameter.type}${parameter.indexed ? ' indexed' : ''}`).join(',');
  return `${item.type} ${item.name ?? ''}(${types(item.inputs)}) -> (${types(item.outputs)})`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the TestUSDT artifact', () => {
  test('recompiling the source with the solc package gives exactly the committed artifact', () => {
    const committed: unknown = JSON.parse(fs.readFileSync(ARTIFACT_PATH, 'utf8'));
    const source = fs.readFileSync(CONTRACT_SOURCE_PATH);
    const compiled = compileTestUsdt();
    expect(compiled).toEqual(committed);
    expect(compiled.sourceSha256).toBe(crypto.createHash('sha256').update(source).digest('hex'));
  });

  test('every function, event and the constructor the server calls are in the committed ABI', () => {
    const committed = z.array(abiItemSchema).parse(compileTestUsdt().abi).map(shapeOf);
    for (const item of testUsdtAbi) expect(committed).toContain(shapeOf(item));
  });
});

describe('a running devnet', () => {
  const net = useTestDevnet();

  const usdtOf = (owner: string, token = net().info.contract) =>
    net().publicClient.readContract({
      address: token,
      abi: testUsdtAbi,
      functionName: 'balanceOf',
      args: [owner as `0x${string}`],
    });

  test('writes its info file (mode 0600) and findDevnet finds it by answering RPC', async () => {
    const file = path.join(net().dataDir, DEVNET_INFO_FILE);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(net().info);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await findDevnet(net().dataDir)).toEqual(net().info);
    expect(net().info).toMatchObject({ chainId: 31337, decimals: 18 });
    expect(net().info.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await usdtOf(net().info.hotWallet)).toBe(parseUnits('1000000000', 18));
  });

  test('payUsdt moves USDT and devnetStatus reports the height and the hot wallet balance', async () => {
    const before = await devnetStatus(net().info);
    const hash = await payUsdt(net().info, ALICE, '12.345678901234567891');
    const receipt = await net().publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(await usdtOf(ALICE)).toBe(12_345_678_901_234_567_891n);
    const after = await devnetStatus(net().info);
    expect(after).toMatchObject({
      chainId: 31337,
      contract: net().info.contract,
      hotWallet: net().info.hotWallet,
    });
    expect(after.blockNumber).toBe(before.blockNumber + 1n);
    expect(after.hotWalletUsdt).toBe('999999987.654321098765432109');
  });

  test('payUsdt refuses a TRON address, a malformed address and inexact amounts', async () => {
    await expect(payUsdt(net().info, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '1')).rejects.toThrow(
      /TRON address/,
    );
    await expect(payUsdt(net().info, '0x1234', '1')).rejects.toThrow(/not an EVM address/);
    await expect(payUsdt(net().info, ALICE, '1e3')).rejects.toThrow(/not an amount/);
    await expect(payUsdt(net().info, ALICE, '0.1234567890123456789')).rejects.toThrow(/not an amount/);
    await expect(payUsdt(net().info, ALICE, '2000000000')).rejects.toThrow();
  });

  test('payMany pays two recipients in one transaction with one Transfer log each', async () => {
    const hash = await net().payMany([
      { to: ALICE, amount: '1' },
      { to: BOB, amount: '2.5' },
    ]);
    const receipt = await net().publicClient.getTransactionReceipt({ hash });
    const transfers = parseEventLogs({ abi: testUsdtAbi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfers.map((log) => [log.address, log.args.to, log.args.value])).toEqual([
      [net().info.contract.toLowerCase(), ALICE, parseUnits('1', 18)],
      [net().info.contract.toLowerCase(), BOB, parseUnits('2.5', 18)],
    ]);
    expect(new Set(transfers.map((log) => log.transactionHash))).toEqual(new Set([hash]));
  });

  test('sendFailing mines a reverted transfer that emits no log', async () => {
    const hash = await net().sendFailing(ALICE, '5');
    const receipt = await net().publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    expect(receipt.logs).toEqual([]);
  });

  test('mine adds blocks; revert to a snapshot drops what came after it', async () => {
    const start = await net().publicClient.getBlockNumber();
    const id = await net().snapshot();
    await net().mine(3);
    expect(await net().publicClient.getBlockNumber()).toBe(start + 3n);
    const hash = await net().pay(BOB, '1');
    expect(await net().publicClient.getBlockNumber()).toBe(start + 4n);
    await net().revert(id);
    expect(await net().publicClient.getBlockNumber()).toBe(start);
    await expect(net().publicClient.getTransactionReceipt({ hash })).rejects.toThrow();
    expect(await usdtOf(BOB)).toBe(parseUnits('2.5', 18));
  });

  test('deployTestToken makes a look-alike USDT that payUsdt can send', async () => {
    const token = await deployTestToken(net().info, 6);
    expect(token).not.toBe(net().info.contract);
    const read = (functionName: 'symbol' | 'decimals') =>
      net().publicClient.readContract({ address: token, abi: testUsdtAbi, functionName });
    expect(await read('symbol')).toBe('USDT');
    expect(await read('decimals')).toBe(6);
    await net().pay(ALICE, '3.25', token);
    expect(await usdtOf(ALICE, token)).toBe(3_250_000n);
    await expect(payUsdt(net().info, ALICE, '0.0000001', token)).rejects.toThrow(/6 decimals/);
  });
});

describe('restarts', () => {
  test('a restarted devnet is a new chain; stop ends the process and removes the file', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-devnet-restart-'));
    const lines: string[] = [];
    try {
      const first = await startDevnet({ dataDir, port: 0, blockSeconds: 0, log: (line) => lines.push(line) });
      const firstHash = await payUsdt(first.info, ALICE, '1');
      await first.stop();
      expect(processAlive(first.info.pid)).toBe(false);
      expect(fs.existsSync(path.join(dataDir, DEVNET_INFO_FILE))).toBe(false);
      expect(await findDevnet(dataDir)).toBeUndefined();
      await first.stop();

      const second = await startDevnet({
        dataDir,
        port: 0,
        blockSeconds: 0,
        log: (line) => lines.push(line),
      });
      try {
        expect(second.info.genesisHash).not.toBe(first.info.genesisHash);
        expect(second.info.hotWallet).not.toBe(first.info.hotWallet);
        expect(await payUsdt(second.info, ALICE, '1')).not.toBe(firstHash);
      } finally {
        await second.stop();
      }
      expect(lines).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  test('a node that dies on its own is logged and its info file removed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-devnet-dies-'));
    const lines: string[] = [];
    try {
      const devnet = await startDevnet({
        dataDir,
        port: 0,
        blockSeconds: 0,
        log: (line) => lines.push(line),
      });
      process.kill(devnet.info.pid, 'SIGKILL');
      await expect.poll(() => lines.length, { timeout: 5_000 }).toBe(1);
      expect(lines[0]).toMatch(/exited on its own with signal SIGKILL/);
      expect(fs.existsSync(path.join(dataDir, DEVNET_INFO_FILE))).toBe(false);
      await devnet.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('npm run devnet', () => {
  const net = useTestDevnet();

  /** Runs the CLI with DATA_DIR set; its exit code and output. */
  async function cli(dataDir: string, ...args: string[]) {
    try {
      const { stdout, stderr } = await run('npx', ['tsx', 'server/cli/devnet.ts', ...args], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string }; // execFile's error on a non-zero exit
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  test('status prints the height, chain id, contract and hot wallet balance', async () => {
    const height = await net().publicClient.getBlockNumber();
    const result = await cli(net().dataDir, 'status');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`height:          ${height}`);
    expect(result.stdout).toContain('chain id:        31337');
    expect(result.stdout).toContain(net().info.contract);
    expect(result.stdout).toContain('hot wallet USDT: 1000000000');
  }, 30_000);

  test('pay sends USDT and prints the transaction hash', async () => {
    const result = await cli(net().dataDir, 'pay', BOB, '7.5');
    expect(result.code).toBe(0);
    const hash = result.stdout.trim().split('\n').at(-1) as `0x${string}`; // the hash is the last line
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await net().publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const balance = await net().publicClient.readContract({
      address: net().info.contract,
      abi: testUsdtAbi,
      functionName: 'balanceOf',
      args: [BOB],
    });
    expect(balance).toBe(parseUnits('7.5', 18));
  }, 30_000);

  test('wrong arguments and a TRON address exit 1 with a message', async () => {
    const [usage, tron] = await Promise.all([
      cli(net().dataDir, 'pay', BOB),
      cli(net().dataDir, 'pay', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '1'),
    ]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('usage: npm run devnet');
    expect(tron.code).toBe(1);
    expect(tron.stderr).toContain('is a TRON address');
  }, 30_000);

  test('with no devnet running it says to start one with npm start and exits 1', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-devnet-none-'));
    try {
      const result = await cli(empty, 'status');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('no devnet is running');
      expect(result.stderr).toContain('start it with npm start');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  }, 30_000);
});
