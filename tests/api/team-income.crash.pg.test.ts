/**
 * The team job killed mid-run, on PostgreSQL (skipped, with a line saying so, when no server
 * answers): a chain A ── B ── C hosts, two days of interest accrue, and the team job runs in a
 * process of its own (tests/api/team-income-child.ts), paying two lines a step, killed with
 * SIGKILL right after its first step, inside its transaction. Nothing of that run remains (no
 * team line, no transfer, no team day, no job_runs row); run again, it pays each of the two days'
 * lines exactly once (hand-computed); a third run and an operator's re-run of a day pay nothing
 * more. The ledger's invariants hold after each step.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { killChildren } from '../helpers/child-process.js';
import { createPostgresDatabase, postgresOrSkipNote } from '../helpers/database.js';
import { runJobChildScript } from '../helpers/job-crash.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { teamFixtures } from '../helpers/team.js';

const reachable = await postgresOrSkipNote('team income crash', 'the crash test needs one');

const reportSchema = z.object({
  status: z.string(),
  period: z.string(),
  detail: z.object({ days: z.array(z.object({ day: z.string() })) }).optional(),
});

describe.skipIf(!reachable)('the team job killed with SIGKILL inside its run on postgres', () => {
  let t: TestServer;
  let databaseUrl = '';
  let dropDatabase: (() => Promise<void>) | undefined;
  const fx = teamFixtures(() => t, 'team-crash');

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    databaseUrl = created.url;
    dropDatabase = created.drop;
    t = await startTestServer('postgres', { DATABASE_URL: created.url });
    await fx.setUp();
  });
  afterAll(async () => {
    await killChildren();
    await t?.close();
    await dropDatabase?.();
  });

  const runChild = async (crashAfter: number) => {
    return runJobChildScript('tests/api/team-income-child.ts', {
      databaseUrl,
      now: t.clock.now(),
      crashAfter,
      stepPrefix: 'step ',
      reportSchema,
    });
  };

  const count = async (what: 'team_lines' | 'team_transfers' | 'team_days' | 'team_runs') => {
    const query = {
      team_lines: sql`select count(*)::int as n from income where type in ('promotion', 'management')`,
      team_transfers: sql`select count(*)::int as n from ledger_transfers where key like 'team:%'`,
      team_days: sql`select count(*)::int as n from team_days`,
      team_runs: sql`select count(*)::int as n from job_runs where job = 'team-income'`,
    }[what];
    const result = await t.server.database.db.execute(query);
    return z.object({ rows: z.array(z.object({ n: z.number() })) }).parse(result).rows[0]?.n;
  };

  test('killed after its first step of lines, the run leaves nothing; run again it pays each day once', async () => {
    // A ── B ── C on Monday 10:00: A 1000, B 2000, C 800 (static a day: 3, 6, 2.4). A and B are V1.
    const a = await fx.member('A');
    const b = await fx.member('B', a);
    const c = await fx.member('C', b);
    await fx.host(a, '1000');
    await fx.host(b, '2000');
    await fx.host(c, '800');
    // Thursday 00:05: Tuesday and Wednesday went by; the accrual pays both.
    t.clock.advance(2 * 86_400 + 14 * 3600 + 5 * 60);
    expect((await t.server.scheduler.runNow('hosting-accrual')).status).toBe('done');

    const crashed = await runChild(1);
    expect(crashed.exit.signal, crashed.output).toBe('SIGKILL');
    expect(crashed.steps).toBe(1);
    expect(crashed.report).toBeNull();
    for (const what of ['team_lines', 'team_transfers', 'team_days', 'team_runs'] as const)
      expect(await count(what)).toBe(0);
    await fx.f.expectLedgerOk(fx.finance());

    const again = await runChild(0);
    expect(again.exit.code, again.output).toBe(0);
    expect(again.report?.status).toBe('done');
    expect(again.report?.detail?.days.map((day) => day.day)).toEqual(['2026-01-06', '2026-01-07']);
    // Each day: A gets 10 % of B's 6 and 5 % of C's 2.4; B gets 10 % of C's 2.4 and 2 % management.
    const summary = async (who: typeof a) =>
      (await fx.teamIncome(who)).map((line) => `${line.earningsDate} ${line.type} ${line.amount}`).sort();
    expect(await summary(a)).toEqual([
      '2026-01-06 promotion 0.12',
      '2026-01-06 promotion 0.6',
      '2026-01-07 promotion 0.12',
      '2026-01-07 promotion 0.6',
    ]);
    expect(await summary(b)).toEqual([
      '2026-01-06 management 0.048',
      '2026-01-06 promotion 0.24',
      '2026-01-07 management 0.048',
      '2026-01-07 promotion 0.24',
    ]);
    expect(await count('team_lines')).toBe(8);
    expect(await count('team_transfers')).toBe(8);
    await fx.f.expectLedgerOk(fx.finance());

    const third = await runChild(0);
    expect(third.report?.status).toBe('already_done');
    expect(await t.server.services.team.rerunDay('2026-01-06')).toMatchObject({
      promotion: { lines: 0 },
      management: { lines: 0 },
    });
    expect(await count('team_lines')).toBe(8);
    await fx.f.expectLedgerOk(fx.finance());
  }, 120_000);
});
