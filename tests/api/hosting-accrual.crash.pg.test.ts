/**
 * The hosting accrual job killed mid-run, on PostgreSQL (skipped, with a line saying so, when no
 * server answers): three orders miss two interest days; the job runs in a process of its own
 * (tests/api/hosting-accrual-child.ts) and is killed with SIGKILL right after the second order's
 * accruals were written, inside its transaction. Nothing of that run remains (no accrual, no line,
 * no transfer, no job_runs row); run again, the job pays every order each missed day exactly once;
 * a third run pays nothing more. The ledger's invariants hold after each step.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { HostingCommandData } from '../../contract/api/hosting.js';
import type { IncomeRecord } from '../../contract/api/income.js';
import { formatMoney, minor, parseMoney } from '../../contract/money.js';
import { killChildren } from '../helpers/child-process.js';
import { createPostgresDatabase, postgresOrSkipNote } from '../helpers/database.js';
import { productUsers } from '../helpers/product.js';
import { runJobChildScript } from '../helpers/job-crash.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { TRADE_PASSWORD, withdrawFixtures } from '../helpers/withdraw.js';

const reachable = await postgresOrSkipNote('hosting accrual crash', 'the crash test needs one');

const reportSchema = z.object({
  status: z.string(),
  period: z.string(),
  detail: z.object({ orders: z.number(), days: z.number(), paid: z.string() }).optional(),
});

describe.skipIf(!reachable)('the accrual job killed with SIGKILL inside its run on postgres', () => {
  let t: TestServer;
  let finance: string;
  let databaseUrl = '';
  let dropDatabase: (() => Promise<void>) | undefined;
  const f = withdrawFixtures(() => t);
  const users = productUsers(
    () => t,
    f,
    'crash',
    () => finance,
  );

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
    t = await startTestServer('postgres', { DATABASE_URL: created.url });
    [finance] = await f.operators('accrual-crash');
  });
  afterAll(async () => {
    await killChildren();
    await t?.close();
    await dropDatabase?.();
  });

  const runChild = async (crashAfter: number) => {
    const run = await runJobChildScript('tests/api/hosting-accrual-child.ts', {
      databaseUrl,
      now: t.clock.now(),
      crashAfter,
      stepPrefix: 'order ',
      reportSchema,
    });
    return { ...run, orders: run.steps };
  };

  const count = async (table: 'income' | 'hosting_accruals' | 'job_runs') => {
    const result = await t.server.database.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} ${table === 'job_runs' ? sql`where job = 'hosting-accrual'` : sql``}`,
    );
    return z.object({ rows: z.array(z.object({ n: z.number() })) }).parse(result).rows[0]?.n;
  };

  test('killed after the second of three orders, the run leaves nothing; run again it pays each order each missed day once', async () => {
    // Monday 10:00 in Shanghai (the test clock's start): three orders of the 7-day product at 0.003.
    const owners: Array<{ token: string; accountId: string; amount: string }> = [];
    for (const amount of ['1000', '2000.5', '3333.33']) {
      const { token, accountId } = await users.user(amount);
      const created = await t.call<HostingCommandData>(
        'plain',
        '/api/v1/hosting/create',
        { accountId, productId: '1', amount, tradePassword: TRADE_PASSWORD },
        { token, key: newKey() },
      );
      expect(created.code, created.message).toBe(200);
      owners.push({ token, accountId, amount });
    }
    // Thursday 00:05: the interest days Tuesday and Wednesday went by with no run, two whole days due.
    t.clock.advance(2 * 86_400 + 14 * 3600 + 5 * 60);

    const crashed = await runChild(2);
    expect(crashed.exit.signal, crashed.output).toBe('SIGKILL');
    expect(crashed.orders).toBe(2);
    expect(crashed.report).toBeNull();
    expect(await count('income')).toBe(0);
    expect(await count('hosting_accruals')).toBe(0);
    expect(await count('job_runs')).toBe(0);
    for (const owner of owners) {
      const assets = await t.call<{ cash: string; hosting: string }>(
        'plain',
        '/api/v1/user/assets',
        { accountId: owner.accountId },
        { token: owner.token },
      );
      expect(assets.data).toMatchObject({ cash: '0', hosting: owner.amount });
    }
    await f.expectLedgerOk(finance);

    const again = await runChild(0);
    expect(again.exit.code, again.output).toBe(0);
    expect(again.report).toMatchObject({ status: 'done', detail: { orders: 3, days: 6 } });
    for (const owner of owners) {
      const daily = (parseMoney(owner.amount) * 3n) / 1000n;
      const lines = await t.call<{ items: IncomeRecord[] }>(
        'plain',
        '/api/v1/income/log',
        { accountId: owner.accountId },
        { token: owner.token },
      );
      expect(lines.data.items.map((line) => line.amount)).toEqual(
        [daily, daily].map((value) => formatMoney(minor(value))),
      );
      expect(new Set(lines.data.items.map((line) => line.earningsDate)).size).toBe(2);
      const assets = await t.call<{ cash: string }>(
        'plain',
        '/api/v1/user/assets',
        { accountId: owner.accountId },
        { token: owner.token },
      );
      expect(assets.data.cash).toBe(formatMoney(minor(daily * 2n)));
    }
    expect(await count('income')).toBe(6);
    await f.expectLedgerOk(finance);

    const third = await runChild(0);
    expect(third.report).toMatchObject({ status: 'already_done' });
    const direct = await t.server.database.db.transaction((tx) =>
      t.server.services.hostingAccrual.run(tx, t.clock.now()),
    );
    expect(direct).toMatchObject({ days: 0, paid: '0' });
    expect(await count('income')).toBe(6);
    await f.expectLedgerOk(finance);
  }, 120_000);
});
