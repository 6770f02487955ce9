/**
 * The team on large trees, on PostgreSQL (skipped, with a line saying so, when no server answers):
 * a fan of 10 000 direct members and a chain of 500, inserted with set-based SQL
 * (tests/helpers/team.ts), every member hosting through the ledger and earning one day's static
 * income (hosting_accruals rows of 0.3 %). Checked against independent arithmetic here:
 * teamInfo's figures (team and small-area performance, counts) for the fan's root, the chain's
 * top and a member in its middle, and every line the team job pays for the day. Correctness only:
 * the timing is `npm run bench:team` (chains of 10 000 too: their closure holds 5 × 10⁷ rows).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { TeamInfoData } from '../../contract/api/team.js';
import { moneyText } from '../../contract/money.js';
import { postgresReachable } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { creditHosting, insertTree } from '../helpers/team.js';
import { withdrawFixtures } from '../helpers/withdraw.js';

const reachable = await postgresReachable();
if (!reachable) console.warn('[team scale] SKIPPED: no PostgreSQL server at TEST_DATABASE_URL');

const FAN = 10_000;
const CHAIN = 500;
const DAY = '2026-01-05';
/** Member i's hosting: 500 to 1100 USDT, every seventh one 300 (not valid hosting). */
const hostingOf = (i: number) => BigInt(i % 7 === 0 ? 300 : 500 + (i % 13) * 50) * 1_000_000n;
const staticOf = (hosting: bigint) => (hosting * 3n) / 1000n;
const validOf = (hosting: bigint) => (hosting >= 500_000_000n ? hosting : 0n);

describe.skipIf(!reachable)('the team on a fan of 10 000 and a chain of 500 on postgres', () => {
  let t: TestServer;
  let finance = '';
  const f = withdrawFixtures(() => t);
  const fanRoot: number[] = [];
  let fan: number[] = [];
  const chainTop: number[] = [];
  let chain: number[] = [];
  const hosting = new Map<number, bigint>();

  beforeAll(async () => {
    t = await startTestServer('postgres');
    [finance] = await f.operators('team-scale');
    const db = t.server.database.db;
    const at = t.clock.now();
    fanRoot.push(...(await insertTree(db, { shape: 'fan', count: 1, parentId: null, tag: 'fanroot', at })));
    fan = await insertTree(db, { shape: 'fan', count: FAN, parentId: fanRoot[0] ?? 0, tag: 'fan', at });
    chainTop.push(...(await insertTree(db, { shape: 'fan', count: 1, parentId: null, tag: 'chaintop', at })));
    chain = await insertTree(db, {
      shape: 'chain',
      count: CHAIN,
      parentId: chainTop[0] ?? 0,
      tag: 'chain',
      at,
    });
    const users = [...fanRoot, ...fan, ...chainTop, ...chain];
    const accounts = new Map(
      z
        .object({
          rows: z.array(
            z.object({ id: z.union([z.string(), z.number()]), user_id: z.union([z.string(), z.number()]) }),
          ),
        })
        .parse(await db.execute(sql`select id, user_id from accounts where kind = 'main'`))
        .rows.map((row) => [Number(row.user_id), Number(row.id)]),
    );
    users.forEach((user, i) => hosting.set(user, hostingOf(i + 1)));
    // The roots host 600: level 1 (level 2 asks 1000 of one's own).
    for (const root of [...fanRoot, ...chainTop]) hosting.set(root, 600_000_000n);
    await creditHosting(
      db,
      users.map((user) => ({
        key: `scale:${user}`,
        accountId: accounts.get(user) ?? 0,
        amount: hosting.get(user) ?? 0n,
        refId: String(user),
      })),
      at,
    );
    await db.execute(sql`insert into hosting_accruals
        (order_id, day, account_id, principal_minutes, minutes_of_day, daily_rate, amount, created_at)
      select b.owner, ${DAY}, b.owner, '0', 1440, '0.003', b.balance * 3 / 1000, now()
        from ledger_balances b where b.owner <> 0 and b.book = 'hosting' and b.asset = 'USDT' and b.balance > 0`);
    await db.execute(sql`insert into job_runs (job, period, status, detail, started_at, finished_at)
      values ('hosting-accrual', ${DAY}, 'done', '{}'::jsonb, now(), now())`);
    await db.execute(sql`analyze`);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  const teamInfoOf = async (userId: number) => {
    const { token } = await t.server.database.db.transaction((tx) =>
      t.server.services.sessions.start(tx, 'user', userId),
    );
    const answer = await t.call<TeamInfoData>('plain', '/api/v1/user/teamInfo', {}, { token });
    expect(answer.code, answer.message).toBe(200);
    return answer.data;
  };
  const hostingAt = (user: number) => hosting.get(user) ?? 0n;

  test('the fan’s root: 10 000 direct members, team performance their valid hosting, small area without the largest member', async () => {
    const valid = fan.map((user) => validOf(hostingAt(user)));
    const team = valid.reduce((sum, value) => sum + value, 0n);
    const largest = valid.reduce((top, value) => (value > top ? value : top), 0n);
    expect(await teamInfoOf(fanRoot[0] ?? 0)).toMatchObject({
      level: 1,
      teamCount: FAN,
      directCount: FAN,
      teamValidCount: valid.filter((value) => value > 0n).length,
      directValidCount: valid.filter((value) => value > 0n).length,
      teamPerformance: moneyText(team),
      directPerformance: moneyText(team),
      indirectPerformance: '0',
      largestAreaPerformance: moneyText(largest),
      smallAreaPerformance: moneyText(team - largest),
    });
  });

  test('the chain: one area (no small area) at the top; the middle member sees the 250 below', async () => {
    const valid = chain.map((user) => validOf(hostingAt(user)));
    const team = valid.reduce((sum, value) => sum + value, 0n);
    expect(await teamInfoOf(chainTop[0] ?? 0)).toMatchObject({
      teamCount: CHAIN,
      directCount: 1,
      teamPerformance: moneyText(team),
      directPerformance: moneyText(valid[0] ?? 0n),
      largestAreaPerformance: moneyText(team),
      smallAreaPerformance: '0',
    });
    const middle = CHAIN / 2 - 1; // 249 above it in the chain, 250 below
    const below = valid.slice(middle + 1).reduce((sum, value) => sum + value, 0n);
    expect(await teamInfoOf(chain[middle] ?? 0)).toMatchObject({
      teamCount: CHAIN - middle - 1,
      directCount: 1,
      teamPerformance: moneyText(below),
      smallAreaPerformance: '0',
    });
  });

  test('the team job pays the day’s lines of both trees as independent arithmetic says, once', async () => {
    // The roots are V1 (10 % / 5 %, management 2 %); a chain member is V1 when valid with a valid
    // member below it; fan members and the chain's last member are V0.
    const expected = new Map<string, bigint>();
    const pay = (key: string, amount: bigint) => {
      if (amount > 0n) expected.set(key, amount);
    };
    const rate = (amount: bigint, percent: bigint) => (amount * percent) / 100n;
    for (const member of fan) {
      const earned = staticOf(hostingAt(member));
      pay(`promotion:${fanRoot[0]}:${member}`, rate(earned, 10n));
      pay(`management:${fanRoot[0]}:${member}`, rate(earned, 2n));
    }
    const line = [chainTop[0] ?? 0, ...chain];
    const levelOne = (index: number) =>
      index < line.length - 1 &&
      validOf(hostingAt(line[index] ?? 0)) > 0n &&
      validOf(hostingAt(line[index + 1] ?? 0)) > 0n;
    for (let index = 1; index < line.length; index += 1) {
      const member = line[index] ?? 0;
      const earned = staticOf(hostingAt(member));
      if (levelOne(index - 1)) pay(`promotion:${line[index - 1]}:${member}`, rate(earned, 10n));
      if (index >= 2 && levelOne(index - 2)) pay(`promotion:${line[index - 2]}:${member}`, rate(earned, 5n));
      // Management: the nearest V1 above a V0 member (within 10 generations) gets 2 %; above a V1
      // member, every V1 gets nothing (the same rate).
      if (!levelOne(index)) {
        for (let up = index - 1; up >= Math.max(0, index - 10); up -= 1) {
          if (levelOne(up)) {
            pay(`management:${line[up]}:${member}`, rate(earned, 2n));
            break;
          }
        }
      }
    }
    t.clock.advance(14 * 3600 + 5 * 60); // Tuesday 00:05 in Shanghai
    const run = await t.server.scheduler.runNow('team-income');
    expect(run.status).toBe('done');
    const paid = z
      .object({ rows: z.array(z.object({ key: z.string(), amount: z.union([z.string(), z.number()]) })) })
      .parse(
        await t.server.database.db.execute(
          sql`select key, amount::text as amount from income where type in ('promotion', 'management')`,
        ),
      )
      .rows.map((row) => [row.key.replace(`team:${DAY}:`, ''), BigInt(row.amount)] as const);
    expect(paid.length).toBe(expected.size);
    expect(new Map(paid)).toEqual(expected);
    expect((await t.server.scheduler.runNow('team-income')).status).toBe('already_done');
    await f.expectLedgerOk(finance);
  }, 120_000);
});
