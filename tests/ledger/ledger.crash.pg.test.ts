/**
 * Crashes while money moves, on PostgreSQL (skipped, with a line saying so, when no server answers):
 * - a writer process (tests/ledger/crash-writer.ts) streaming events of two or three transfers
 *   each is killed with SIGKILL mid-stream: every event is whole or absent, every event it saw
 *   committed is there, and the invariants hold;
 * - the real server (`server/main.ts`) streaming account transfers over HTTP is killed with
 *   SIGKILL, started again, and the transfers whose answer was lost are retried with their
 *   Idempotency-Key: each moved money exactly once, and `ledger check` (the admin CLI) is clean.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { minor, parseMoney } from '../../contract/money.js';
import { openDatabase, type Database, type OpenDatabase } from '../../server/db/database.js';
import { customerBook, platformBook } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { accountBalances, transfer } from '../../server/ledger/ledger.js';
import { killChildren, runScript, type Child } from '../helpers/child-process.js';
import { createPostgresDatabase, postgresOrSkipNote, rowsOf } from '../helpers/database.js';
import { answerSchema } from '../helpers/http.js';

const WRITER_APP = 'coffer-crash-writer';
const BANNER = /Coffer is serving on (http:\/\/localhost:(\d+))/;

const reachable = await postgresOrSkipNote('ledger crash', 'the crash tests need one');

const cleanups: Array<() => Promise<void>> = [];

/** Resolves when `ready` turns true (checked on each line); fails on timeout or when the child exits first. */
function until(child: Child, ready: (line: string) => boolean, timeoutMs: number, what: string) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what}: not within ${timeoutMs} ms:\n${child.output().slice(-3000)}`)),
      timeoutMs,
    );
    child.onLine((line) => {
      if (ready(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void child.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${what}: exited first (${String(code)} ${String(signal)}):\n${child.output().slice(-3000)}`,
        ),
      );
    });
  });
}

afterEach(async () => {
  await killChildren();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated scratch database, dropped after the test. */
async function scratchDatabase(): Promise<{ url: string; database: OpenDatabase }> {
  const created = await createPostgresDatabase();
  const database = await openDatabase({ databaseUrl: created.url });
  cleanups.push(async () => {
    await database.close();
    await created.drop();
  });
  return { url: created.url, database };
}

async function waitForNoSessions(db: Database, application: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const rows = rowsOf(
      await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where application_name = ${application}`,
      ),
    );
    if (Number(rows[0]?.['n']) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`sessions of ${application} are still open`);
}

describe.skipIf(!reachable)('ledger crashes on PostgreSQL', () => {
  test('a writer killed with SIGKILL mid-stream leaves every event of two or three transfers whole or absent, and the invariants hold', async () => {
    const { url, database } = await scratchDatabase();
    const accounts = 20;
    await database.db.transaction((tx) =>
      transfer(
        tx,
        Array.from({ length: accounts }, (_, index) => ({
          key: `fund:${index + 1}`,
          kind: 'data_adjustment' as const,
          asset: 'USDT' as const,
          from: platformBook('adjustments'),
          to: customerBook(index + 1, 'cash'),
          amount: parseMoney('1000000'),
          ref: { table: 'crash', id: 'fund' },
        })),
        new Date(),
      ),
    );
    const writerUrl = new URL(url);
    writerUrl.searchParams.set('application_name', WRITER_APP);
    const writer = runScript('tests/ledger/crash-writer.ts', [], {
      ...process.env,
      DATABASE_URL: writerUrl.toString(),
      ACCOUNTS: String(accounts),
      WRITERS: '6',
    });
    const begun = new Set<number>();
    const committed = new Set<number>();
    writer.onLine((line) => {
      const [word, number] = line.split(' ');
      if (word === 'begin') begun.add(Number(number));
      if (word === 'commit') committed.add(Number(number));
    });
    await until(writer, () => committed.size >= 400, 60_000, 'the writer committing 400 events');
    writer.process.kill('SIGKILL');
    const inFlight = [...begun].filter((number) => !committed.has(number));
    const exit = await writer.exited;
    expect(exit.signal).toBe('SIGKILL');
    await waitForNoSessions(database.db, WRITER_APP); // the server has rolled back what the writer left open

    const events = rowsOf(
      await database.db.execute(sql`
        select split_part(key, ':', 2)::int as event, split_part(key, ':', 3)::int as size, count(*)::int as found
          from ledger_transfers where key like 'crash:%' group by 1, 2`),
    ).map((row) => ({ event: Number(row['event']), size: Number(row['size']), found: Number(row['found']) }));
    const partial = events.filter((event) => event.found !== event.size);
    expect(partial).toEqual([]);
    const present = new Set(events.map((event) => event.event));
    expect([...committed].filter((number) => !present.has(number))).toEqual([]);
    expect((await checkLedger(database.db, new Date())).violations).toEqual([]);
    const landed = inFlight.filter((number) => present.has(number)).length;
    console.info(
      `[ledger crash] writer killed after ${committed.size} events seen committed; ${events.length} in the database, ` +
        `${inFlight.length} in flight at the kill (${landed} of them landed whole, ${inFlight.length - landed} left no trace); no partial event`,
    );
  }, 120_000);

  test('the server killed with SIGKILL while account transfers stream over HTTP, then restarted: retried commands move money exactly once, and `ledger check` is clean', async () => {
    const { url, database } = await scratchDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-crash-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      PORT: '0',
      COFFER_JOBS: 'off',
      COFFER_RATE_LIMIT: '0',
      COFFER_SCRYPT_COST: '4',
      COFFER_CLIENT_BUILD: 'off',
      COFFER_ROOT_INVITE: 'CRASHROOT1',
      NODE_ENV: undefined,
      HOST: undefined,
      SMTP_URL: undefined,
      REDIS_URL: undefined,
      COFFER_NOW: undefined,
    };
    const startServer = async () => {
      const server = runScript('server/main.ts', [], env);
      let base = '';
      await until(
        server,
        (line) => {
          const match = BANNER.exec(line);
          if (match) base = `http://127.0.0.1:${match[2] ?? ''}`;
          return match !== null;
        },
        60_000,
        'the server starting',
      );
      return { server, base };
    };
    const post = async (
      base: string,
      uri: string,
      params: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${base}${uri}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(20_000),
      });
      return answerSchema.parse(await response.json());
    };

    let { server, base } = await startServer();
    // A user with a main account and a sub-account, registered with the code from the dev mailbox.
    const email = `crash-${crypto.randomBytes(4).toString('hex')}@example.com`;
    expect((await post(base, '/api/v1/sso/sendRegisterCode', { email })).code).toBe(200);
    const mailbox = path.join(dataDir, 'mailbox');
    const [mailFile] = fs.readdirSync(mailbox).filter((name) => name.endsWith('.eml'));
    const mail = await simpleParser(fs.readFileSync(path.join(mailbox, mailFile ?? '')));
    const code = (mail.text ?? '').match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
    const registered = await post(base, '/api/v1/sso/register', {
      email,
      code,
      inviteCode: 'CRASHROOT1',
      password: 'secret123',
      confirmPassword: 'secret123',
    });
    expect(registered.code).toBe(200);
    const auth = { authorization: `Bearer ${String(registered.data?.['token'])}` };
    expect((await post(base, '/api/v1/account/createSubAccount', { name: 'crash' }, auth)).code).toBe(200);
    const list = await post(base, '/api/v1/account/list', {}, auth);
    const items = z.array(z.object({ id: z.string(), kind: z.string() })).parse(list.data?.['items']);
    const main = Number(items.find((item) => item.kind === 'main')?.id);
    const sub = Number(items.find((item) => item.kind === 'sub')?.id);
    await database.db.transaction((tx) =>
      transfer(
        tx,
        [main, sub].map((accountId) => ({
          key: `fund:${accountId}`,
          kind: 'data_adjustment' as const,
          asset: 'USDT' as const,
          from: platformBook('adjustments'),
          to: customerBook(accountId, 'cash'),
          amount: parseMoney('1000'),
          ref: { table: 'crash', id: 'fund' },
        })),
        new Date(),
      ),
    );

    // Stream transfers both ways from 8 clients until the server dies under them.
    interface Command {
      key: string;
      params: { fromAccountId: string; toAccountId: string; asset: 'USDT'; amount: string };
      answered: 'ok' | 'lost';
    }
    const commands: Command[] = [];
    let answeredOk = 0;
    let killed = false;
    const client = async (index: number) => {
      while (!killed) {
        const command: Command = {
          key: crypto.randomUUID(),
          params:
            index % 2 === 0
              ? { fromAccountId: String(main), toAccountId: String(sub), asset: 'USDT', amount: '0.01' }
              : { fromAccountId: String(sub), toAccountId: String(main), asset: 'USDT', amount: '0.02' },
          answered: 'lost',
        };
        commands.push(command);
        try {
          const answer = await post(base, '/api/v1/account/transfer', command.params, {
            ...auth,
            'idempotency-key': command.key,
          });
          if (answer.code !== 200) throw new Error(`transfer answered ${answer.code} ${answer.message}`);
          command.answered = 'ok';
          answeredOk += 1;
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 8 }, (_, index) => client(index)));
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (answeredOk >= 300) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
      clients.catch((error: unknown) => {
        clearInterval(poll);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
    killed = true;
    server.process.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await clients;
    const lost = commands.filter((command) => command.answered === 'lost');

    const countTransfers = async () =>
      Number(
        rowsOf(
          await database.db.execute(
            sql`select count(*)::int as n from ledger_transfers where kind = 'account_transfer'`,
          ),
        )[0]?.['n'],
      );
    const landedUnanswered = (await countTransfers()) - answeredOk;

    // Restarted on the same database: each lost command is retried with its key; a few answered ones too.
    ({ server, base } = await startServer());
    const retried = [...lost, ...commands.filter((command) => command.answered === 'ok').slice(0, 20)];
    for (const command of retried) {
      const answer = await post(base, '/api/v1/account/transfer', command.params, {
        ...auth,
        'idempotency-key': command.key,
      });
      expect(answer.code).toBe(200);
    }

    const toSub = commands.filter((command) => command.params.fromAccountId === String(main)).length;
    const toMain = commands.length - toSub;
    expect(await countTransfers()).toBe(commands.length);
    const balances = await accountBalances(database.db, [main, sub]);
    const cent = parseMoney('0.01');
    expect(balances.get(main)?.USDT.cash).toBe(
      minor(parseMoney('1000') - cent * BigInt(toSub) + 2n * cent * BigInt(toMain)),
    );
    expect(balances.get(sub)?.USDT.cash).toBe(
      minor(parseMoney('1000') + cent * BigInt(toSub) - 2n * cent * BigInt(toMain)),
    );

    const check = runScript('server/cli/admin.ts', ['ledger', 'check'], env);
    const checked = await check.exited;
    expect(checked.code, check.output()).toBe(0);
    expect((await checkLedger(database.db, new Date())).violations).toEqual([]);
    server.process.kill('SIGTERM');
    await server.exited;
    console.info(
      `[ledger crash] server killed after ${answeredOk} transfers answered; ${lost.length} lost their answer (${landedUnanswered} of them had committed) ` +
        `and were retried after the restart with 20 answered ones: ${commands.length} commands, ${commands.length} ledger transfers; ` +
        `ledger check exit 0 (${/"ok":\s*(true|false)/.exec(check.output())?.[0] ?? 'no ok field'})`,
    );
  }, 180_000);
});
