/**
 * The README's run command (`npm start`, i.e. `node --import tsx server/main.ts`) as a user runs it: a real
 * process on a fresh DATA_DIR, PORT=0 for any free port, the banner, health, the dev mailbox,
 * a restart on the same data, and the production guard.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { answerSchema, call } from '../helpers/http.js';
import { httpAdminClient, setUpOperator } from '../helpers/operator.js';
import { afterAll, describe, expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
const START_TIMEOUT_MS = 60_000;
const BANNER = /Coffer is serving on (http:\/\/localhost:(\d+))/;

interface Started {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved as they came. */
  output: () => string;
  /** Resolves when the process has exited and its output is closed. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  startedAt: number;
}

const children: Started[] = [];
const tmpDirs: string[] = [];

function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-start-'));
  tmpDirs.push(dir);
  return dir;
}

/** Runs the start command in its own process group (so afterAll can end the server and its devnet). */
function start(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const started: Started = { child, output: () => output, closed, startedAt: Date.now() };
  children.push(started);
  return started;
}

/** The start environment: the caller's, minus anything that would change what is tested. */
function startEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    DATA_DIR: dataDir,
    COFFER_SCRYPT_COST: '4',
    // The end-to-end test builds dist/ itself; two builds into one folder at once would race.
    COFFER_CLIENT_BUILD: 'off',
    NODE_ENV: undefined,
    HOST: undefined,
    DATABASE_URL: undefined,
    SMTP_URL: undefined,
    REDIS_URL: undefined,
    COFFER_ROOT_INVITE: undefined,
    COFFER_NOW: undefined,
    // The devnet on any free port, a block a second: a deposit reaches finality within a minute.
    COFFER_DEVNET: undefined,
    DEVNET_PORT: '0',
    DEVNET_BLOCK_SECONDS: '1',
    CHAIN_BEP20_RPC_URL: undefined,
    CHAIN_TRC20_API_URL: undefined,
    ...extra,
  };
}

/** Waits until the output matches `pattern`; fails on timeout or when the process exits first. */
function waitForOutput(
  started: Started,
  pattern: RegExp,
  timeoutMs = START_TIMEOUT_MS,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = started.output().match(pattern);
      if (!match) return;
      done();
      resolve(match);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${started.output()}`));
    }, timeoutMs);
    const onClose = () => {
      check();
      done();
      reject(new Error(`the process exited before printing ${pattern}; output:\n${started.output()}`));
    };
    const done = () => {
      clearTimeout(timer);
      started.child.stdout?.off('data', check);
      started.child.stderr?.off('data', check);
      started.child.off('close', onClose);
    };
    started.child.stdout?.on('data', check);
    started.child.stderr?.on('data', check);
    started.child.once('close', onClose);
    check();
  });
}

/** Stops a start with SIGTERM to tsx (which hands it to the server) and waits for the exit. */
async function stop(started: Started) {
  started.child.kill('SIGTERM');
  return started.closed;
}

afterAll(async () => {
  for (const started of children) {
    if (
      started.child.exitCode !== null ||
      started.child.signalCode !== null ||
      started.child.pid === undefined
    )
      continue;
    try {
      process.kill(-started.child.pid, 'SIGKILL'); // the group this test created: the server and its devnet
    } catch {
      // already gone
    }
    await Promise.race([started.closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start (node --import tsx server/main.ts)', () => {
  const dataDir = freshDataDir();
  const address = 'first.user@example.com';
  let first: Started;
  let base = '';
  let rootInvite = '';

  test(
    'the first start on an empty DATA_DIR prints the real URL for PORT=0, the dev mailbox and a new root invite, and health answers 200 within a minute',
    { timeout: 90_000 },
    async () => {
      first = start(startEnv(dataDir));
      const banner = await waitForOutput(first, BANNER);
      base = banner[1] ?? '';
      expect(Number(banner[2])).toBeGreaterThan(0);
      rootInvite = (await waitForOutput(first, /Root invite code \(first start\): ([A-Z0-9]{8})\b/))[1] ?? '';
      expect(rootInvite).toMatch(/^[A-Z0-9]{8}$/);
      // The operator console's line: its URL and the first operator's one-time password, once.
      const consoleLine = await waitForOutput(
        first,
        /Operator console: (http:\/\/localhost:\d+)\/admin \(first operator root@coffer\.local, one-time password (\S+)\)/,
      );
      expect(consoleLine[1]).toBe(base);
      const operator = await call(base, '/api/admin/auth/login', {
        email: 'root@coffer.local',
        password: consoleLine[2] ?? '',
      });
      expect(operator.data).toMatchObject({
        role: 'superadmin',
        mustChangePassword: true,
        authenticatorBound: false,
      });
      expect(first.output()).toContain('Mail goes to the dev mailbox');
      const health = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(10_000) });
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' });
      expect(Date.now() - first.startedAt).toBeLessThan(START_TIMEOUT_MS);
      // Not started as production (that would refuse the dev mailbox), and nothing logged at error level.
      expect(first.child.exitCode).toBeNull();
      expect(first.output()).not.toMatch(/"level":(50|60)/);
    },
  );

  test(
    'in development a code mail lands as an .eml file under DATA_DIR/mailbox, and registering with its code works',
    { timeout: 30_000 },
    async () => {
      const sent = await call(base, '/api/v1/sso/sendRegisterCode', { email: address }, { lang: 'EN' });
      expect(sent).toMatchObject({ code: 200, data: { resendAfter: 60 } });
      const mailbox = path.join(dataDir, 'mailbox');
      const files = fs.readdirSync(mailbox).filter((name) => name.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const mail = await simpleParser(fs.readFileSync(path.join(mailbox, files[0] ?? '')));
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe(address);
      const code = (mail.text ?? '').match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const registered = await call(base, '/api/v1/sso/register', {
        email: address,
        code,
        inviteCode: rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      });
      expect(registered.code).toBe(200);
    },
  );

  test(
    "the devnet started with it: `npm run devnet -- pay` to the account's BEP20 address is credited once, confirming then held then cash, and the devnet stops with the server",
    { timeout: 120_000 },
    async () => {
      expect(first.output()).toMatch(/BEP20 devnet .* at http:\/\/127\.0\.0\.1:\d+/);
      const login = await call(base, '/api/v1/sso/emailLogin', { email: address, password: 'secret123' });
      const token = String(login.data?.['token']);
      const authed = async (uri: string, params: Record<string, unknown>) =>
        answerSchema.parse(
          await (
            await fetch(`${base}${uri}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(params),
              signal: AbortSignal.timeout(10_000),
            })
          ).json(),
        );
      const deposit = await authed('/api/v1/recharge/address', { chain: 'BEP20' });
      const depositAddress = String(deposit.data?.['address']);
      expect(depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const paid = spawnSync(tsx, ['server/cli/devnet.ts', 'pay', depositAddress, '12.5'], {
        cwd: repoRoot,
        env: startEnv(dataDir),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(paid.status, paid.stderr).toBe(0);
      const statuses = new Set<string>();
      const deadline = Date.now() + 90_000;
      let last: Record<string, unknown> | undefined;
      while (Date.now() < deadline) {
        const list = await authed('/api/v1/recharge/list', {});
        const items = (list.data?.['items'] ?? []) as Array<Record<string, unknown>>;
        last = items[0];
        if (last) statuses.add(String(last['status']));
        if (last?.['status'] === 'credited') break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(last).toMatchObject({ amount: '12.5', status: 'credited', chain: 'BEP20' });
      expect(statuses.has('held') || statuses.has('confirming')).toBe(true);
      const assets = await authed('/api/v1/user/assets', {});
      expect(assets.data).toMatchObject({ cash: '12.5', held: '0' });
    },
  );

  test(
    'SIGTERM shuts it down cleanly; a second start on the same DATA_DIR keeps the data and prints no new root invite',
    { timeout: 120_000 },
    async () => {
      const exit = await stop(first);
      expect(exit.code).toBe(0);
      expect(first.output()).toContain('SIGTERM: shutting down');
      // The devnet stopped with it (its info file is gone), and the books the deposit moved are whole.
      expect(fs.existsSync(path.join(dataDir, 'devnet.json'))).toBe(false);
      const check = spawnSync(tsx, ['server/cli/admin.ts', 'ledger', 'check'], {
        cwd: repoRoot,
        env: startEnv(dataDir),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(check.status, check.stdout + check.stderr).toBe(0);

      const second = start(startEnv(dataDir));
      const banner = await waitForOutput(second, BANNER);
      const secondBase = banner[1] ?? '';
      await waitForOutput(second, /Root invite code: created on the first start/);
      expect(second.output()).not.toContain('Root invite code (first start)');
      const login = await call(secondBase, '/api/v1/sso/emailLogin', {
        email: address,
        password: 'secret123',
      });
      expect(login.code).toBe(200);
      const token = String(login.data?.['token']);
      const info = await fetch(`${secondBase}/api/v1/user/info`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      expect(answerSchema.parse(await info.json())).toMatchObject({ code: 200, data: { email: address } });
      expect((await stop(second)).code).toBe(0);
    },
  );

  test(
    'NODE_ENV=production without SMTP_URL exits non-zero with a message naming SMTP_URL',
    { timeout: 90_000 },
    async () => {
      const production = start(startEnv(freshDataDir(), { NODE_ENV: 'production' }));
      const exit = await Promise.race([
        production.closed,
        new Promise<never>((_resolve, reject) =>
          setTimeout(() => reject(new Error(`still running:\n${production.output()}`)), START_TIMEOUT_MS),
        ),
      ]);
      expect(exit.code).not.toBe(0);
      expect(exit.code).not.toBeNull();
      expect(production.output()).toContain('SMTP_URL');
      expect(production.output()).not.toMatch(BANNER);
    },
  );
});

/** The caller's token (answers in English), and a new Idempotency-Key for a command. */
const as = (token: string, command = false): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  lang: 'EN',
  ...(command ? { 'idempotency-key': crypto.randomUUID() } : {}),
});

/**
 * A session of the CLI's finance operator `fin@example.com` (password `secret123`), set up as the
 * console does, on a server whose clock started at `now` when its process started.
 */
async function financeOf(base: string, now: string, startedAt: number): Promise<string> {
  const clock = () => new Date(Date.parse(now) + (Date.now() - startedAt));
  const finance = await setUpOperator(httpAdminClient(base, clock), 'fin@example.com', 'finance');
  return finance.token();
}

/**
 * A DATA_DIR run as the black-box check runs it: the server started at `now` (COFFER_NOW, no
 * devnet) and stopped, and the operator CLI in between (the embedded database is one process's).
 */
function restartable(dataDir: string) {
  const env = (now: string) => startEnv(dataDir, { COFFER_NOW: now, COFFER_DEVNET: 'off' });
  const admin = (args: string[], now: string) =>
    spawnSync(tsx, ['server/cli/admin.ts', ...args], {
      cwd: repoRoot,
      env: env(now),
      encoding: 'utf8',
      timeout: 60_000,
    });
  /** The newest code mailed to `address` in the dev mailbox. */
  const codeFor = async (address: string) => {
    const folder = path.join(dataDir, 'mailbox');
    for (const name of fs
      .readdirSync(folder)
      .filter((file) => file.endsWith('.eml'))
      .sort()
      .reverse()) {
      const mail = await simpleParser(fs.readFileSync(path.join(folder, name)));
      const to = mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined;
      if (to === address) return (mail.text ?? '').match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
    }
    throw new Error(`no mail to ${address}`);
  };
  /**
   * The CLI creates the finance operator `fin@example.com` (password `secret123`) at `now`, the
   * data folder's first start; the root invite code it printed ('' when none).
   */
  const createFinance = (now: string): string => {
    const created = admin(
      ['operator', 'create', '--email', 'fin@example.com', '--role', 'finance', '--password', 'secret123'],
      now,
    );
    expect(created.status, created.stdout + created.stderr).toBe(0);
    return created.stdout.match(/Root invite code \(first start\): ([A-Z0-9]{8})/)?.[1] ?? '';
  };
  const serve = async (now: string) => {
    const started = start(env(now));
    return { started, base: (await waitForOutput(started, BANNER))[1] ?? '' };
  };
  return {
    admin,
    serve,
    /** The data folder's first start at `now`: the finance operator created, the server started, a finance session. */
    firstStart: async (now: string) => {
      const rootInvite = createFinance(now);
      const first = await serve(now);
      return { rootInvite, first, finance: await financeOf(first.base, now, first.started.startedAt) };
    },
    /**
     * A customer registered at `base` through `invite` (the code read from the dev mailbox), given
     * `usdt` by the finance operator and a trade password `trade123`.
     */
    customer: async (base: string, finance: string, address: string, invite: string, usdt: string) => {
      await call(base, '/api/v1/sso/sendRegisterCode', { email: address });
      const registered = await call(base, '/api/v1/sso/register', {
        email: address,
        code: await codeFor(address),
        inviteCode: invite,
        password: 'secret123',
        confirmPassword: 'secret123',
      });
      expect(registered.code, registered.message).toBe(200);
      const token = String(registered.data?.['token']);
      const info = await call(base, '/api/v1/user/info', {}, as(token));
      const accountId = String(info.data?.['defaultAccountId']);
      const adjusted = await call(
        base,
        '/api/admin/ledger/adjust',
        { accountId, asset: 'USDT', amount: usdt, reason: 'opening balance' },
        as(finance, true),
      );
      expect(adjusted.code, adjusted.message).toBe(200);
      const bound = await call(
        base,
        '/api/v1/user/bindTradePassword',
        { tradePassword: 'trade123', confirmPassword: 'trade123' },
        as(token, true),
      );
      expect(bound.code, bound.message).toBe(200);
      return { token, accountId, inviteCode: String(info.data?.['inviteCode']) };
    },
  };
}

describe('hosting across restarts with COFFER_NOW (as the black-box check runs it)', () => {
  const dataDir = freshDataDir();
  const address = 'hoster@example.com';

  const { admin, serve, firstStart, customer } = restartable(dataDir);

  test(
    'an order made from an adjusted balance on a Wednesday earns floor(1000 x 0.003) for each day that ended while the server was down, paid once, after a restart three days later',
    { timeout: 180_000 },
    async () => {
      // Wednesday 25 November 2026, 10:00 in Asia/Shanghai.
      const { rootInvite, first, finance } = await firstStart('2026-11-25T02:00:00Z');
      const { token, accountId } = await customer(first.base, finance, address, rootInvite, '1000');
      const config = await call(first.base, '/api/v1/hosting/hosting-config', {}, as(token));
      const product = (
        config.data?.['products'] as Array<{ id: string; days: number; dailyRate: string }>
      ).find((item) => item.days === 7);
      expect(product?.dailyRate).toBe('0.003');
      const order = await call(
        first.base,
        '/api/v1/hosting/create',
        { accountId, productId: product?.id, amount: '1000', tradePassword: 'trade123' },
        as(token, true),
      );
      expect(order.code, order.message).toBe(200);
      expect((await stop(first.started)).code).toBe(0);

      // Saturday 28 November, 10:00: Thursday and Friday ended while the server was down.
      const second = await serve('2026-11-28T02:00:00Z');
      const deadline = Date.now() + 60_000;
      let lines: Array<{ type: string; amount: string; earningsDate: string; status: string }> = [];
      while (Date.now() < deadline) {
        const log = await call(second.base, '/api/v1/income/log', { accountId }, as(token));
        lines = (log.data?.['items'] ?? []) as typeof lines;
        if (lines.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(lines.map((line) => [line.type, line.amount, line.earningsDate, line.status]).sort()).toEqual([
        ['static', '3', '2026-11-26', 'arrived'],
        ['static', '3', '2026-11-27', 'arrived'],
      ]);
      const assets = await call(second.base, '/api/v1/user/assets', { accountId }, as(token));
      expect(assets.data).toMatchObject({ cash: '6', hosting: '1000' });
      expect((await stop(second.started)).code).toBe(0);

      // Started again the same day: nothing is paid twice.
      const third = await serve('2026-11-28T03:00:00Z');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const again = await call(third.base, '/api/v1/income/log', { accountId }, as(token));
      expect(again.data?.['items']).toHaveLength(2);
      expect((await stop(third.started)).code).toBe(0);
      const check = admin(['ledger', 'check'], '2026-11-28T03:00:00Z');
      expect(check.status, check.stdout + check.stderr).toBe(0);
    },
  );
});

describe('team income across restarts with COFFER_NOW (as the black-box check runs it)', () => {
  const dataDir = freshDataDir();
  const { admin, serve, firstStart, customer } = restartable(dataDir);

  test(
    'A ── B ── C register through each other’s invite codes and host on a Wednesday; restarted on Saturday, the team job pays Thursday’s and Friday’s promotion and management lines once, after the accrual',
    { timeout: 240_000 },
    async () => {
      const { rootInvite, first, finance } = await firstStart('2026-11-25T02:00:00Z');
      const member = async (address: string, invite: string, hosting: string) => {
        const { token, accountId, inviteCode } = await customer(
          first.base,
          finance,
          address,
          invite,
          hosting,
        );
        const order = await call(
          first.base,
          '/api/v1/hosting/create',
          { accountId, productId: '1', amount: hosting, tradePassword: 'trade123' },
          as(token, true),
        );
        expect(order.code, order.message).toBe(200);
        return { token, accountId, inviteCode };
      };
      const a = await member('team.a@example.com', rootInvite, '1000');
      const b = await member('team.b@example.com', a.inviteCode, '2000');
      const c = await member('team.c@example.com', b.inviteCode, '800');
      expect((await stop(first.started)).code).toBe(0);

      // Saturday 28 November, 10:00: Thursday and Friday ended while the server was down.
      const second = await serve('2026-11-28T02:00:00Z');
      type Line = {
        type: string;
        amount: string;
        earningsDate: string;
        source: { generation: number } | null;
      };
      let base = second.base;
      const teamLines = async (who: typeof a) => {
        const lines: Line[] = [];
        for (const type of ['promotion', 'management']) {
          const log = await call(
            base,
            '/api/v1/income/log',
            { accountId: who.accountId, type },
            as(who.token),
          );
          lines.push(...((log.data?.['items'] ?? []) as Line[]));
        }
        return lines
          .map(
            (line) => `${line.earningsDate} ${line.type} ${line.amount} g${line.source?.generation ?? '?'}`,
          )
          .sort();
      };
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline && (await teamLines(b)).length < 4)
        await new Promise((resolve) => setTimeout(resolve, 500));
      // Static income a day: A 3, B 6, C 2.4. A and B are V1, C has no level.
      expect(await teamLines(a)).toEqual([
        '2026-11-26 promotion 0.12 g2',
        '2026-11-26 promotion 0.6 g1',
        '2026-11-27 promotion 0.12 g2',
        '2026-11-27 promotion 0.6 g1',
      ]);
      expect(await teamLines(b)).toEqual([
        '2026-11-26 management 0.048 g1',
        '2026-11-26 promotion 0.24 g1',
        '2026-11-27 management 0.048 g1',
        '2026-11-27 promotion 0.24 g1',
      ]);
      expect(await teamLines(c)).toEqual([]);
      const info = await call(second.base, '/api/v1/user/teamInfo', {}, as(a.token));
      expect(info.data).toMatchObject({
        level: 1,
        teamPerformance: '2800',
        directPerformance: '2000',
        indirectPerformance: '800',
        directCount: 1,
        teamCount: 2,
        smallAreaPerformance: '0',
      });
      expect((await stop(second.started)).code).toBe(0);

      // Started again the same day, and the job run by hand: nothing is paid twice.
      const third = await serve('2026-11-28T03:00:00Z');
      base = third.base;
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      expect(await teamLines(a)).toHaveLength(4);
      expect((await stop(third.started)).code).toBe(0);
      const rerun = admin(['team', 'run', '--day', '2026-11-27'], '2026-11-28T03:00:00Z');
      expect(rerun.stdout, rerun.stderr).toContain('0 promotion line(s)');
      const check = admin(['ledger', 'check'], '2026-11-28T03:00:00Z');
      expect(check.status, check.stdout + check.stderr).toBe(0);
    },
  );
});
