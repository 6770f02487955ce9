/**
 * The BEP20 deposit watcher killed mid-tick, on PostgreSQL (skipped, with a line saying so, when
 * no server answers): the real server (`server/main.ts`) watches a devnet that mines a block a
 * second while deposits stream in (single transfers and two-log transferMany transactions); it
 * scans one block per tick, so ticks and their transactions follow each other closely. It is
 * killed with SIGKILL three times while the watcher holds its lock inside a transaction (seen
 * in pg_locks), and started again on the same database each time. At the end every payment is
 * one deposit, credited; each account's cash is what was paid to it; each deposit has exactly
 * one `deposit:` and one `deposit_final:` ledger transfer; and the ledger's invariants hold.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { formatMoney, minor, parseMoney } from '../../contract/money.js';
import { openDatabase, type OpenDatabase } from '../../server/db/database.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { accountBalances } from '../../server/ledger/ledger.js';
import { killChildren, runScript, type Child } from '../helpers/child-process.js';
import { createPostgresDatabase, postgresOrSkipNote, rowsOf } from '../helpers/database.js';
import { startTestDevnet, type TestDevnet } from '../helpers/devnet.js';
import { answerSchema, type Answer } from '../helpers/http.js';

const SERVER_APP = 'coffer-watcher-crash';
const BANNER = /Coffer is serving on (http:\/\/localhost:(\d+))/;
const ROOT_INVITE = 'WATCHCRASH1';
const FINALITY = 4;
const USERS = 4;
const KILLS = 3;

const reachable = await postgresOrSkipNote('watcher crash', 'the crash test needs one');

/** What the poll loop (server/jobs/poll-loop.ts) logs after a tick that did something: `BEP20 watcher: {...}`. */
const reportSchema = z.object({
  status: z.string(),
  found: z.number(),
  held: z.number(),
  credited: z.number(),
  reversed: z.number(),
});
type Report = z.infer<typeof reportSchema>;
const logLineSchema = z.object({ level: z.number(), msg: z.string() });

const cleanups: Array<() => Promise<void>> = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomBetween = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

afterEach(async () => {
  await killChildren();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One payment transaction: one recipient (transfer) or two (transferMany: two logs). */
interface Payment {
  recipients: Array<{ user: number; amount: string }>;
  hash?: `0x${string}`;
}

/** 20 single transfers and 5 two-log transactions (30 deposits) over the users, shuffled. */
function paymentPlan(): Payment[] {
  const amount = () => `${randomBetween(1, 40)}.${String(randomBetween(0, 999_999)).padStart(6, '0')}`;
  const plan: Payment[] = [];
  for (let index = 0; index < 20; index += 1) {
    plan.push({ recipients: [{ user: index % USERS, amount: amount() }] });
  }
  for (let index = 0; index < 5; index += 1) {
    // Two to one user (two deposits of one account in one transaction) or to two users.
    const first = index % USERS;
    const second = index % 2 === 0 ? first : (first + 1) % USERS;
    plan.push({
      recipients: [
        { user: first, amount: amount() },
        { user: second, amount: amount() },
      ],
    });
  }
  for (let index = plan.length - 1; index > 0; index -= 1) {
    const other = randomBetween(0, index);
    [plan[index], plan[other]] = [plan[other] as Payment, plan[index] as Payment]; // both in range
  }
  return plan;
}

describe.skipIf(!reachable)('the deposit watcher killed mid-tick on PostgreSQL', () => {
  test('the server killed with SIGKILL three times while the watcher applies ticks, restarted each time on the same database: every payment is one deposit, credited once, and the books hold', async () => {
    const devnet: TestDevnet = await startTestDevnet({ blockSeconds: 1 });
    cleanups.push(() => devnet.stop());
    const created = await createPostgresDatabase();
    const database: OpenDatabase = await openDatabase({ databaseUrl: created.url });
    cleanups.push(async () => {
      await database.close();
      await created.drop();
    });
    const { db } = database;
    const observer = new pg.Client({ connectionString: created.url });
    await observer.connect();
    cleanups.push(() => observer.end());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-watcher-crash-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

    const serverUrl = new URL(created.url);
    serverUrl.searchParams.set('application_name', SERVER_APP);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      DATABASE_URL: serverUrl.toString(),
      DATA_DIR: dataDir,
      COFFER_DEVNET: 'off',
      COFFER_JOBS: 'on',
      CHAIN_BEP20_RPC_URL: devnet.info.rpcUrl,
      CHAIN_BEP20_USDT_CONTRACT: devnet.info.contract,
      CHAIN_BEP20_START_BLOCK: '0',
      CHAIN_BEP20_FINALITY: String(FINALITY),
      CHAIN_POLL_SECONDS: '0.1', // the configuration's minimum
      CHAIN_SCAN_RANGE: '1', // a block per tick: many ticks, many transactions to be killed in
      COFFER_SCRYPT_COST: '4',
      COFFER_RATE_LIMIT: '0',
      COFFER_CLIENT_BUILD: 'off',
      COFFER_ROOT_INVITE: ROOT_INVITE,
      LOG_LEVEL: 'info',
      NODE_ENV: undefined,
      HOST: undefined,
      SMTP_URL: undefined,
      REDIS_URL: undefined,
      COFFER_NOW: undefined,
      CHAIN_TRC20_API_URL: undefined,
    };

    /** One start of the server: its base URL and the watcher reports it logged. */
    interface Run {
      child: Child;
      base: string;
      reports: Report[];
      failedTicks: number;
    }
    const startServer = async (): Promise<Run> => {
      const child = runScript('server/main.ts', [], env);
      const started: Run = { child, base: '', reports: [], failedTicks: 0 };
      child.onLine((line) => {
        if (!line.startsWith('{')) return; // the banner and other plain lines
        const parsed = logLineSchema.safeParse(JSON.parse(line));
        if (!parsed.success) return;
        const { msg } = parsed.data;
        if (msg.startsWith('BEP20 watcher: {')) {
          started.reports.push(reportSchema.parse(JSON.parse(msg.slice('BEP20 watcher: '.length))));
        } else if (msg.startsWith('BEP20 watcher: tick failed')) started.failedTicks += 1;
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the server did not start in 60 s:\n${child.output().slice(-3000)}`)),
          60_000,
        );
        child.onLine((line) => {
          const match = BANNER.exec(line);
          if (!match) return;
          started.base = `http://127.0.0.1:${match[2] ?? ''}`;
          clearTimeout(timer);
          resolve();
        });
        void child.exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`the server exited (${String(code)} ${String(signal)}):\n${child.output()}`));
        });
      });
      return started;
    };
    const post = async (
      base: string,
      uri: string,
      params: Record<string, unknown>,
      token?: string,
    ): Promise<Answer> => {
      const response = await fetch(`${base}${uri}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(20_000),
      });
      const answer = answerSchema.parse(await response.json());
      if (answer.code !== 200) throw new Error(`${uri} answered ${JSON.stringify(answer)}`);
      return answer;
    };

    let server = await startServer();
    const runs = [server];

    // Users registered with the code from the dev mailbox, each with a BEP20 deposit address.
    const mailbox = path.join(dataDir, 'mailbox');
    const users: Array<{ token: string; accountId: number; address: string }> = [];
    for (let index = 0; index < USERS; index += 1) {
      const email = `watch-${index}-${crypto.randomBytes(4).toString('hex')}@example.com`;
      await post(server.base, '/api/v1/sso/sendRegisterCode', { email });
      const mailFile = fs.readdirSync(mailbox).find((name) => name.endsWith(`-${email}.eml`));
      const mail = await simpleParser(fs.readFileSync(path.join(mailbox, mailFile ?? 'missing.eml')));
      const code = (mail.text ?? '').match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
      const registered = await post(server.base, '/api/v1/sso/register', {
        email,
        code,
        inviteCode: ROOT_INVITE,
        password: 'secret123',
        confirmPassword: 'secret123',
      });
      const token = z.string().parse(registered.data?.['token']);
      const answer = await post(server.base, '/api/v1/recharge/address', { chain: 'BEP20' }, token);
      const { accountId, address } = z
        .object({ accountId: z.string(), address: z.string() })
        .parse(answer.data);
      users.push({ token, accountId: Number(accountId), address });
    }
    const userOf = (index: number) => {
      const user = users[index];
      if (!user) throw new Error(`no user ${index}`);
      return user;
    };

    // The payments, in one segment per run of the server; a segment starts once its run serves
    // and goes on (while the server is dead too) until it is done.
    const plan = paymentPlan();
    const segments = Array.from({ length: KILLS + 1 }, (_, index) =>
      plan.slice(
        Math.round((index * plan.length) / (KILLS + 1)),
        Math.round(((index + 1) * plan.length) / (KILLS + 1)),
      ),
    );
    const runStarted: Array<() => void> = [];
    const runsStarted = segments.map(
      (_, index) => new Promise<void>((resolve) => (runStarted[index] = resolve)),
    );
    let sent = 0;
    const sentOfSegment = segments.map(() => 0);
    const paying = (async () => {
      for (const [index, segment] of segments.entries()) {
        await runsStarted[index];
        for (const payment of segment) {
          const [only, ...more] = payment.recipients;
          if (!only) continue;
          payment.hash =
            more.length === 0
              ? await devnet.pay(userOf(only.user).address, only.amount)
              : await devnet.payMany(
                  payment.recipients.map((recipient) => ({
                    to: userOf(recipient.user).address,
                    amount: recipient.amount,
                  })),
                );
          sent += payment.recipients.length;
          sentOfSegment[index] = (sentOfSegment[index] ?? 0) + payment.recipients.length;
          await sleep(randomBetween(50, 300));
        }
      }
    })();
    let payingFailed: unknown;
    paying.catch((error: unknown) => (payingFailed = error)); // awaited below too

    /** The cursor as committed: a watcher transaction that commits changes at least its updated_at. */
    const CURSOR_STAMP = `(select next_block || ' ' || updated_at from chain_cursors where chain = 'BEP20')`;
    /**
     * The server's connection holding the watcher's lock, its latest statement, and the cursor in
     * the same statement's snapshot (taken before pg_locks is read, so without the holder's work).
     */
    const lockHolder = async () => {
      const { rows } = await observer.query<{ query: string; state: string; stamp: string | null }>(
        `select a.query, a.state, ${CURSOR_STAMP} as stamp
           from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted and l.objsubid = 1
            and l.classid::bigint = ((hashtext('coffer-watcher:BEP20')::bigint >> 32) & 4294967295)
            and l.objid::bigint = (hashtext('coffer-watcher:BEP20')::bigint & 4294967295)
            and a.application_name = $1`,
        [SERVER_APP],
      );
      return rows[0];
    };
    const cursorStamp = async () =>
      (await observer.query<{ stamp: string | null }>(`select ${CURSOR_STAMP} as stamp`)).rows[0]?.stamp;
    const committedState = async () => {
      const rows = rowsOf(
        await db.execute(
          sql`select status, count(*)::int as n from deposits group by status order by status`,
        ),
      );
      const cursor = rowsOf(
        await db.execute(sql`select next_block from chain_cursors where chain = 'BEP20'`),
      );
      return `cursor at block ${String(cursor[0]?.['next_block'])}, deposits ${
        rows.map((row) => `${String(row['status'])} ${String(row['n'])}`).join(', ') || 'none'
      }`;
    };
    const waitForNoSessions = async () => {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const { rows } = await observer.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where application_name = $1',
          [SERVER_APP],
        );
        if (rows[0]?.n === 0) return;
        await sleep(50);
      }
      throw new Error('sessions of the killed server are still open');
    };

    // Each run is killed at a random moment of its segment: once the watcher holds its lock in a
    // transaction (the second run waits for a ledger statement: a credit in flight).
    const summaries: string[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      runStarted[kill]?.();
      const segmentSize = segments[kill]?.reduce((sum, payment) => sum + payment.recipients.length, 0) ?? 0;
      const threshold = randomBetween(1, Math.max(1, segmentSize - 2));
      while ((sentOfSegment[kill] ?? 0) < threshold) {
        if (payingFailed !== undefined) await paying; // throws the payer's error
        await sleep(10);
      }
      await sleep(randomBetween(0, 400));
      const wanted = kill === 1 ? /ledger/ : /./;
      const deadline = Date.now() + 10_000;
      let caught: { query: string; state: string; stamp: string | null } | undefined;
      while (Date.now() < deadline) {
        const holder = await lockHolder();
        if (holder && wanted.test(holder.query)) {
          server.child.process.kill('SIGKILL');
          caught = holder;
          break;
        }
      }
      if (!caught) server.child.process.kill('SIGKILL');
      expect((await server.child.exited).signal).toBe('SIGKILL');
      await waitForNoSessions();
      const rolledBack = caught ? (await cursorStamp()) === caught.stamp : false;
      const totals = server.reports.reduce(
        (sum, report) => ({
          found: sum.found + report.found,
          held: sum.held + report.held,
          credited: sum.credited + report.credited,
        }),
        { found: 0, held: 0, credited: 0 },
      );
      summaries.push(
        `kill ${kill + 1} after ${sent} of 30 deposits paid; this run logged ${server.reports.length} ticks that moved something ` +
          `(found ${totals.found}, held ${totals.held}, credited ${totals.credited}), ${server.failedTicks} failed; ` +
          (caught
            ? `killed inside a watcher transaction (${caught.state}, last statement: ${caught.query.replace(/\s+/g, ' ').slice(0, 70)}), ` +
              (rolledBack ? 'which was rolled back' : 'which had just committed')
            : 'no watcher transaction caught open in 10 s') +
          `; committed: ${await committedState()}`,
      );
      expect(caught, summaries.at(-1)).toBeDefined();
      server = await startServer();
      runs.push(server);
    }
    runStarted[KILLS]?.();
    await paying;

    // Past finality; the last run catches up on everything.
    await devnet.mine(FINALITY + 1);
    const head = await devnet.publicClient.getBlockNumber();
    const expected = new Map<string, { accountId: number; value: bigint }>();
    const paidTo = new Map<number, bigint>();
    const accountOfHex = new Map(users.map((user) => [user.address.toLowerCase(), user.accountId]));
    for (const payment of plan) {
      for (const recipient of payment.recipients) {
        const { accountId } = userOf(recipient.user);
        paidTo.set(accountId, (paidTo.get(accountId) ?? 0n) + parseMoney(recipient.amount));
      }
      if (!payment.hash) throw new Error('a payment was not sent');
      const receipt = await devnet.publicClient.getTransactionReceipt({ hash: payment.hash });
      const logs = receipt.logs.filter(
        (log) => log.address.toLowerCase() === devnet.info.contract.toLowerCase(),
      );
      expect(logs).toHaveLength(payment.recipients.length);
      for (const log of logs) {
        const to = `0x${(log.topics[2] ?? '').slice(26)}`.toLowerCase();
        expected.set(`${payment.hash.toLowerCase()}:${log.logIndex}`, {
          accountId: accountOfHex.get(to) ?? -1,
          value: BigInt(log.data),
        });
      }
    }
    expect(expected.size).toBe(30);

    const settled = async () => {
      const [row] = rowsOf(
        await db.execute(sql`
          select (select count(*)::int from deposits where status = 'credited') as credited,
                 (select next_block from chain_cursors where chain = 'BEP20') as next_block`),
      );
      return Number(row?.['credited']) === expected.size && BigInt(String(row?.['next_block'])) > head;
    };
    const settleBy = Date.now() + 45_000;
    while (!(await settled())) {
      if (Date.now() > settleBy) {
        throw new Error(
          `not settled in 45 s (${await committedState()}; head ${head}):\n${server.child.output().slice(-3000)}`,
        );
      }
      await sleep(200);
    }

    // Every payment is one deposit, in the account paid, for the value paid, credited.
    const deposits = rowsOf(
      await db.execute(
        sql`select tx_hash, log_index, account_id, value, status, attempt, count(*) over (partition by tx_hash, log_index)::int as copies from deposits`,
      ),
    ).map((row) => ({
      key: `${String(row['tx_hash']).toLowerCase()}:${String(row['log_index'])}`,
      accountId: Number(row['account_id']),
      value: BigInt(String(row['value'])),
      status: String(row['status']),
      attempt: Number(row['attempt']),
      copies: Number(row['copies']),
    }));
    expect(deposits).toHaveLength(expected.size);
    for (const deposit of deposits) {
      expect(deposit, deposit.key).toEqual({ ...deposit, status: 'credited', attempt: 0, copies: 1 });
      expect(expected.get(deposit.key), deposit.key).toEqual({
        accountId: deposit.accountId,
        value: deposit.value,
      });
    }

    // One `deposit:` and one `deposit_final:` transfer per deposit; nothing reversed.
    const duplicated = rowsOf(
      await db.execute(
        sql`select key, count(*)::int as n from ledger_transfers where key like 'deposit%' group by key having count(*) > 1`,
      ),
    );
    expect(duplicated).toEqual([]);
    const steps = rowsOf(
      await db.execute(
        sql`select split_part(key, ':', 1) as step, count(*)::int as n from ledger_transfers where key like 'deposit%' group by 1 order by 1`,
      ),
    ).map((row) => `${String(row['step'])} ${String(row['n'])}`);
    expect(steps).toEqual([`deposit ${expected.size}`, `deposit_final ${expected.size}`]);
    const keys = rowsOf(
      await db.execute(sql`select key from ledger_transfers where key like 'deposit:%'`),
    ).map((row) => String(row['key']).toLowerCase());
    expect(keys.sort()).toEqual([...expected.keys()].map((key) => `deposit:bep20:${key}`).sort());

    // Each account's cash is what was paid to it, in the ledger and through the API.
    const balances = await accountBalances(
      db,
      users.map((user) => user.accountId),
    );
    for (const user of users) {
      const paid = minor(paidTo.get(user.accountId) ?? 0n);
      expect(balances.get(user.accountId)?.USDT).toMatchObject({ cash: paid, held: 0n });
      const assets = await post(server.base, '/api/v1/user/assets', {}, user.token);
      expect(assets.data).toMatchObject({ cash: formatMoney(paid), held: '0' });
    }
    expect((await checkLedger(db, new Date())).violations).toEqual([]);

    server.child.process.kill('SIGTERM');
    await server.child.exited;
    console.info(
      `[watcher crash] ${plan.length} transactions, ${expected.size} deposits to ${USERS} accounts, ${KILLS} kills:\n  ` +
        summaries
          .map((summary, kill) => {
            const redo = runs[kill + 1]?.reports[0];
            return `${summary}; the next run's first tick that moved something: ${redo ? JSON.stringify(redo) : 'none'}\n  `;
          })
          .join('') +
        `after the last restart: ${expected.size} deposits credited once each, ${expected.size} deposit: and ` +
        `${expected.size} deposit_final: transfers, balances match, checkLedger clean`,
    );
  }, 180_000);
});
