/**
 * The daily accrual job against independent arithmetic, through the API on PGlite and
 * PostgreSQL, as property tests over random cases (fast-check):
 * - a whole term at one principal pays exactly days × floor(principal × rate), each day's line
 *   floor(principal × rate), whether paid daily or at maturity, and the principal comes back;
 * - with increases and decreases at random minutes, each day pays floor(Σ principal × minutes ×
 *   rate / 1440), the sum counted minute by minute by a plain oracle here.
 * `ledger check` holds after each case.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HostingCommandData } from '../../contract/api/hosting.js';
import { formatMoney, minor, moneyText, parseMoney } from '../../contract/money.js';
import { availableTiers } from '../helpers/database.js';
import { MINUTE_MS, ok, productFixtures, productUsers } from '../helpers/product.js';
import { newKey, startTestServer, useTestServer, type TestServer } from '../helpers/server.js';
import { TRADE_PASSWORD, withdrawFixtures } from '../helpers/withdraw.js';

const tiers = await availableTiers('hosting-accrual');

describe.each(tiers)('the accrual job on %s', (tier) => {
  const t = useTestServer(tier);
  const { f, finance, toNextMidnight, ...users } = productFixtures(() => t, `accrual-${tier}`);

  /** A user with a trade password and `cash` USDT in its main account. */
  const user = (cash: string) => users.user(cash);

  const product = async (fields: Record<string, unknown>) =>
    ok(
      await f.asFinance<{ id: string }>(finance(), '/api/admin/hosting/product/add', {
        name: 'property test',
        minimum: '1',
        maximum: '1000000',
        ...fields,
      }),
    ).id;

  const accrueNow = () =>
    t.server.database.db.transaction((tx) => t.server.services.hostingAccrual.run(tx, t.clock.now()));

  const incomeOf = async (who: { token: string; accountId: string }) => (await users.income(who)).items;

  const cashOf = users.assets;

  test('a whole term at one principal pays days × floor(principal × rate) to the minor unit, daily or at maturity (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 1_000_000 }), // cents (funding above 10000 USDT would wait for review)
        fc.integer({ min: 1, max: 999_999 }), // millionths per day
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('daily', 'at_maturity'),
        fc.integer({ min: 0, max: 1439 }), // when in the day the order is made
        async (cents, rateMillionths, days, payout, minuteOfDay) => {
          const amount = formatMoney(minor(BigInt(cents) * 10_000n));
          const dailyRate = `0.${String(rateMillionths).padStart(6, '0')}`;
          const productId = await product({ days: String(days), dailyRate, payout, earlyExit: 'false' });
          const owner = await user(amount);
          toNextMidnight(minuteOfDay);
          ok(
            await t.call<HostingCommandData>(
              'plain',
              '/api/v1/hosting/create',
              { accountId: owner.accountId, productId, amount, tradePassword: TRADE_PASSWORD },
              { token: owner.token, key: newKey() },
            ),
          );
          for (let day = 0; day <= days; day += 1) toNextMidnight(1); // past maturity, no run on the way
          await accrueNow();
          const principal = parseMoney(amount);
          const daily = (principal * BigInt(rateMillionths)) / 1_000_000n;
          const lines = await incomeOf(owner);
          expect(lines.filter((line) => line.amount !== '0')).toHaveLength(daily > 0n ? days : 0);
          for (const line of lines)
            expect(line).toMatchObject({ type: 'static', amount: moneyText(daily), status: 'arrived' });
          expect(await cashOf(owner)).toEqual(
            expect.objectContaining({ cash: moneyText(principal + daily * BigInt(days)), hosting: '0' }),
          );
          expect(await accrueNow()).toMatchObject({ days: 0, matured: 0 });
        },
      ),
      { numRuns: 8 },
    );
    await f.expectLedgerOk(finance());
  });

  test('increases and decreases at random minutes: each day pays floor(Σ principal × minutes × rate / 1440), counted minute by minute (property)', async () => {
    const change = fc.record({
      minute: fc.integer({ min: 0, max: 3 * 1440 - 1 }), // minutes after the first interest day starts
      cents: fc.integer({ min: 1, max: 50_000 }),
      add: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 99_999 }),
        fc.array(change, { maxLength: 5 }),
        async (rateUnits, rawChanges) => {
          const dailyRate = `0.${String(rateUnits).padStart(5, '0')}`;
          const productId = await product({
            days: '3',
            dailyRate,
            payout: 'daily',
            earlyExit: 'true',
            penaltyRate: '0',
            minimum: '0.01',
          });
          const owner = await user('5000');
          toNextMidnight(600);
          const created = ok(
            await t.call<HostingCommandData>(
              'plain',
              '/api/v1/hosting/create',
              { accountId: owner.accountId, productId, amount: '1000', tradePassword: TRADE_PASSWORD },
              { token: owner.token, key: newKey() },
            ),
          );
          const interestFrom = new Date(created.order.interestFrom).getTime();
          // The principal from each minute of the term on, as the changes leave it.
          const timeline: Array<{ minute: number; principal: bigint }> = [
            { minute: -1, principal: parseMoney('1000') },
          ];
          let principal: bigint = parseMoney('1000');
          for (const step of [...rawChanges].sort((a, b) => a.minute - b.minute)) {
            const target = interestFrom + step.minute * MINUTE_MS + 17_000; // 17 s into the minute
            if (target <= t.clock.now().getTime()) continue;
            t.clock.advance((target - t.clock.now().getTime()) / 1000);
            const amount = BigInt(step.cents) * 10_000n;
            if (!step.add && amount >= principal) continue; // would end the order
            const answer = await t.call<HostingCommandData>(
              'plain',
              step.add ? '/api/v1/hosting/add' : '/api/v1/hosting/sub',
              { orderId: created.order.id, amount: formatMoney(minor(amount)) },
              { token: owner.token, key: newKey() },
            );
            if (answer.code !== 200) continue; // e.g. short cash: no change
            principal = step.add ? principal + amount : principal - amount;
            timeline.push({ minute: step.minute, principal });
          }
          for (let day = 0; day < 4; day += 1) toNextMidnight(1);
          await accrueNow();
          const expected: string[] = [];
          for (let day = 0; day < 3; day += 1) {
            let principalMinutes = 0n;
            for (let minute = day * 1440; minute < (day + 1) * 1440; minute += 1) {
              let now = 0n;
              for (const point of timeline) if (point.minute <= minute) now = point.principal;
              principalMinutes += now;
            }
            const interest = (principalMinutes * BigInt(rateUnits)) / (100_000n * 1440n);
            if (interest > 0n) expected.push(moneyText(interest));
          }
          const lines = await incomeOf(owner);
          expect(lines.map((line) => line.amount).reverse()).toEqual(expected);
        },
      ),
      { numRuns: 8 },
    );
    await f.expectLedgerOk(finance());
  });
});

describe('the accrual job in a time zone with daylight saving (Europe/Berlin, PGlite)', () => {
  let t: TestServer;
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    t = await startTestServer('pglite', { COFFER_TIMEZONE: 'Europe/Berlin' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const to = (iso: string) => t.clock.advance((new Date(iso).getTime() - t.clock.now().getTime()) / 1000);

  test('on the 23-hour day of 29 March 2026 a change halfway through is prorated over 1380 minutes, and the days follow local midnights', async () => {
    const [finance] = await f.operators('dst');
    to('2026-03-28T09:00:00Z'); // Saturday 10:00 CET (sessions are made after the clock's jump)
    const dst = productUsers(
      () => t,
      f,
      'dst',
      () => finance,
    );
    const { token, accountId } = await dst.user('2000');
    const created = await t.call<HostingCommandData>(
      'plain',
      '/api/v1/hosting/create',
      { accountId, productId: '1', amount: '1000', tradePassword: TRADE_PASSWORD },
      { token, key: newKey() },
    );
    expect(created.code, created.message).toBe(200);
    expect(created.data.order.interestFrom).toBe('2026-03-28T23:00:00.000Z'); // Sunday 00:00 CET
    to('2026-03-29T10:30:00Z'); // 12:30 CEST: 690 of the day's 1380 minutes
    const added = await t.call<HostingCommandData>(
      'plain',
      '/api/v1/hosting/add',
      { orderId: created.data.order.id, amount: '1000' },
      { token, key: newKey() },
    );
    expect(added.code, added.message).toBe(200);
    to('2026-03-29T22:05:00Z'); // Monday 00:05 CEST
    expect((await t.server.scheduler.runNow('hosting-accrual')).period).toBe('2026-03-29');
    const lines = await dst.income({ token, accountId });
    // (1000 × 690 + 2000 × 690) × 0.003 / 1380 = 4.5
    expect(lines.items.map((line) => [line.earningsDate, line.amount])).toEqual([['2026-03-29', '4.5']]);
    await f.expectLedgerOk(finance);
  });
});
