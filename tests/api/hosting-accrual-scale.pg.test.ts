/**
 * The hosting accrual on a day of 2 000 orders, on PostgreSQL (skipped, with a line saying so,
 * when no server answers). On stock PostgreSQL (max_locks_per_transaction = 64) the shared lock
 * table holds about 64 × max_connections entries; a job that took one advisory lock per transfer
 * in its one transaction held one per order, and failed with "out of shared memory" past about
 * 10 000 orders. Here the job's transaction, counted just before it commits, holds no advisory
 * lock at all, so the count cannot grow with the orders (2 000 keeps the test short; the rule is
 * the same at any number). At maturity, the interest lines pending arrival are paid in a batch
 * too: a maturing order holds one advisory lock (its principal's transfer), however many days it
 * pays. The users, accounts, hosting books and orders are inserted with set-based SQL; the job
 * itself runs as in production.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { localMidnightAfter } from '../../server/services/hosting/days.js';
import { postgresReachable } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { creditHosting, insertTree } from '../helpers/team.js';
import { withdrawFixtures } from '../helpers/withdraw.js';

const reachable = await postgresReachable();
if (!reachable) console.warn('[hosting accrual scale] SKIPPED: no PostgreSQL server at TEST_DATABASE_URL');

const ORDERS = 2_000;
const PRINCIPAL = 1_000_000_000n; // 1000 USDT
const RATE = '0.003';
const DAY_INTEREST = (PRINCIPAL * 3n) / 1000n; // floor(1000 × 0.003) = 3 USDT
/** The orders' first day of interest: Tuesday 6 January 2026 in Asia/Shanghai (UTC+8). */
const DAY = '2026-01-06';
const INTEREST_FROM = new Date('2026-01-05T16:00:00Z');
const END_AT = new Date('2026-01-12T16:00:00Z'); // 7 days
/** Orders of an at_maturity product of 3 days that mature together. */
const MATURING = 300;
const TERM_DAYS = 3;

const countSchema = z.object({ rows: z.array(z.object({ n: z.union([z.string(), z.number()]) })) });
const count = (result: unknown) => Number(countSchema.parse(result).rows[0]?.n ?? -1);

describe.skipIf(!reachable)('the hosting accrual on 2 000 orders on postgres', () => {
  let t: TestServer;
  let finance = '';
  const f = withdrawFixtures(() => t);

  const productIds = { daily: 0, atMaturity: 0 };

  const addProduct = async (payout: 'daily' | 'at_maturity', days: number) => {
    const product = await f.asFinance<{ id: string }>(finance, '/api/admin/hosting/product/add', {
      name: `scale ${payout}`,
      days: String(days),
      dailyRate: RATE,
      minimum: '1',
      maximum: '1000000',
      payout,
      earlyExit: 'false',
    });
    expect(product.code, product.message).toBe(200);
    return Number(product.data.id);
  };

  /**
   * `count` new users, each with one order in progress of PRINCIPAL (in its hosting book, as
   * `hosting/create` would have moved it) under the product, made by `interestFrom` at the latest
   * and earning from it, not accrued yet.
   */
  const seedOrders = async (input: {
    tag: string;
    count: number;
    payout: 'daily' | 'at_maturity';
    interestFrom: Date;
    endAt: Date;
  }) => {
    const db = t.server.database.db;
    const at = t.clock.now();
    const users = await insertTree(db, {
      shape: 'fan',
      count: input.count,
      parentId: null,
      tag: input.tag,
      at,
    });
    const first = users[0] ?? 0;
    const last = users[users.length - 1] ?? 0;
    const accounts = z
      .object({ rows: z.array(z.object({ id: z.union([z.string(), z.number()]) })) })
      .parse(
        await db.execute(sql`select id from accounts where user_id between ${first} and ${last} order by id`),
      )
      .rows.map((row) => Number(row.id));
    expect(accounts.length).toBe(input.count);
    await creditHosting(
      db,
      accounts.map((accountId) => ({
        key: `accrual-scale:${accountId}`,
        accountId,
        amount: PRINCIPAL,
        refId: String(accountId),
      })),
      at,
    );
    const productId = input.payout === 'daily' ? productIds.daily : productIds.atMaturity;
    const days = input.payout === 'daily' ? 7 : TERM_DAYS;
    await db.execute(sql`insert into hosting_orders (user_id, account_id, product_id, days, daily_rate, minimum,
        maximum, payout, early_exit, penalty_rate, principal, initial_amount, status, start_at, end_at,
        interest_from, interest_until, accrued_until, created_at, updated_at)
      select a.user_id, a.id, ${productId}, ${days}, ${RATE}, 1000000, 1000000000000, ${input.payout}, false, '0',
             ${String(PRINCIPAL)}::bigint, ${String(PRINCIPAL)}::bigint, 'in_progress', least(${at}::timestamptz, ${input.interestFrom}::timestamptz),
             ${input.endAt}::timestamptz, ${input.interestFrom}::timestamptz, ${input.endAt}::timestamptz,
             ${input.interestFrom}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
        from accounts a where a.user_id between ${first} and ${last}`);
    await db.execute(sql`insert into hosting_order_changes (order_id, account_id, kind, amount, principal_after, at)
      select o.id, o.account_id, 'create', o.principal, o.principal, o.start_at from hosting_orders o
       where o.user_id between ${first} and ${last}`);
    await db.execute(sql`analyze`);
    return accounts;
  };

  /** One run of the job at the clock's time, and the locks its transaction holds just before it commits. */
  const runCountingLocks = () =>
    t.server.database.db.transaction(async (tx) => {
      const report = await t.server.services.hostingAccrual.run(tx, t.clock.now());
      const advisory = count(
        await tx.execute(sql`select count(*) as n from pg_locks
          where pid = pg_backend_pid() and locktype = 'advisory'`),
      );
      const locks = count(
        await tx.execute(sql`select count(*) as n from pg_locks where pid = pg_backend_pid()`),
      );
      return { report, advisory, locks };
    });

  beforeAll(async () => {
    t = await startTestServer('postgres');
    [finance] = await f.operators('accrual-scale');
    productIds.daily = await addProduct('daily', 7);
    productIds.atMaturity = await addProduct('at_maturity', TERM_DAYS);
    await seedOrders({
      tag: 'daily',
      count: ORDERS,
      payout: 'daily',
      interestFrom: INTEREST_FROM,
      endAt: END_AT,
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  test('a day of 2 000 orders takes no advisory lock per order: the lock table does not grow with the orders, and each (order, day) is paid once', async () => {
    const db = t.server.database.db;
    // Wednesday 00:05 in Shanghai: Tuesday is due.
    t.clock.advance((Date.parse('2026-01-06T16:05:00Z') - t.clock.now().getTime()) / 1000);
    const { report, advisory, locks } = await runCountingLocks();
    expect(report).toMatchObject({ orders: ORDERS, days: ORDERS, matured: 0, pending: '0' });
    expect(advisory).toBe(0);
    // Relation and transaction locks only: a few per table the job touches, none per order.
    expect(locks).toBeLessThan(100);

    const lines = z
      .object({
        rows: z.array(
          z.object({
            n: z.union([z.string(), z.number()]),
            total: z.string(),
            named: z.union([z.string(), z.number()]),
          }),
        ),
      })
      .parse(
        await db.execute(sql`select count(*) as n, coalesce(sum(i.amount), 0)::text as total,
            count(*) filter (where a.income_id = i.id) as named
          from income i join hosting_accruals a on a.order_id::text = i.source_id and a.day = i.earnings_date
          where i.type = 'static' and i.status = 'arrived' and i.key = 'hosting:' || a.order_id || ':interest:' || a.day
            and i.transfer_key = i.key and a.day = ${DAY}`),
      ).rows[0];
    expect(Number(lines?.n)).toBe(ORDERS);
    expect(Number(lines?.named)).toBe(ORDERS);
    expect(BigInt(lines?.total ?? '0')).toBe(DAY_INTEREST * BigInt(ORDERS));
    expect(
      count(
        await db.execute(sql`select count(*) as n from ledger_transfers t join income i on i.transfer_key = t.key
          where t.kind = 'static' and t.credit_book = 'cash' and t.debit_book = 'interest_expense'
            and t.amount = i.amount and t.credit_owner = i.account_id`),
      ),
    ).toBe(ORDERS);

    // The job through the scheduler for the same day: nothing is due, nothing is paid again.
    const again = await t.server.scheduler.runNow('hosting-accrual');
    expect(again).toMatchObject({ status: 'done', detail: { orders: 0, days: 0, paid: '0' } });
    expect(count(await db.execute(sql`select count(*) as n from income where type = 'static'`))).toBe(ORDERS);
    await f.expectLedgerOk(finance);
  }, 180_000);

  test('at maturity an order’s interest lines pending arrival are paid with no lock per line: a maturing order holds one advisory lock (its principal’s), however many days it pays', async () => {
    const db = t.server.database.db;
    const endAt = localMidnightAfter(t.clock.now(), 'Asia/Shanghai', 0); // the last local midnight
    const interestFrom = new Date(endAt.getTime() - TERM_DAYS * 86_400_000); // UTC+8 all year
    const accounts = await seedOrders({
      tag: 'maturing',
      count: MATURING,
      payout: 'at_maturity',
      interestFrom,
      endAt,
    });
    const { report, advisory } = await runCountingLocks();
    expect(report).toMatchObject({
      orders: MATURING,
      days: MATURING * TERM_DAYS,
      matured: MATURING,
      paid: '0',
    });
    expect(advisory).toBe(MATURING);

    const cash = z
      .object({ rows: z.array(z.object({ n: z.union([z.string(), z.number()]), total: z.string() })) })
      .parse(
        await db.execute(sql`select count(*) as n, sum(balance)::text as total from ledger_balances
          where book = 'cash' and asset = 'USDT' and slot = 0
            and owner between ${accounts[0] ?? 0} and ${accounts[accounts.length - 1] ?? 0}`),
      ).rows[0];
    expect(Number(cash?.n)).toBe(MATURING);
    expect(BigInt(cash?.total ?? '0')).toBe(
      (PRINCIPAL + DAY_INTEREST * BigInt(TERM_DAYS)) * BigInt(MATURING),
    );
    expect(
      count(
        await db.execute(sql`select count(*) as n from income i join ledger_transfers t on t.key = i.transfer_key
          where i.status = 'arrived' and i.type = 'static' and t.amount = i.amount
            and i.account_id between ${accounts[0] ?? 0} and ${accounts[accounts.length - 1] ?? 0}`),
      ),
    ).toBe(MATURING * TERM_DAYS);
    const again = await runCountingLocks();
    expect(again.report).toMatchObject({ orders: 0, days: 0, matured: 0 });
    await f.expectLedgerOk(finance);
  }, 120_000);
});
