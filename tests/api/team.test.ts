/**
 * The team through the API (docs/protocol.md section 23), on PGlite and PostgreSQL.
 * Members register through each other's invite codes and host through the API (product 1: 7 days
 * at 0.003 a day), so every figure and line below is computed by hand from those amounts. Rules:
 * - team figures and small-area performance on hand-built trees (a tie of two largest areas
 *   leaves one out; 499.99 of hosting is no performance, 500 is);
 * - the level changes at exact thresholds (own hosting 499.99 vs 500.00, small area 999.99 vs
 *   1000.00), in teamInfo, myLevel and the job's payouts;
 * - promotion (first and second generation) and management (by level difference) income of a day
 *   equal hand-computed amounts, each line naming its member and generation; paid once when the
 *   job is run again, re-run for the day, or catching up days it missed;
 * - teamMembers pages by cursor, and no answer ever holds an e-mail address;
 * - a customer sees their own team only;
 * - operators configure levels (gaps and removing a lower level refused; other roles 403).
 * `ledger check` holds after each money step.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { IncomeRecord } from '../../contract/api/income.js';
import type { LevelConfigData, MyLevelData, TeamInfoData, TeamMembersData } from '../../contract/api/team.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, useTestServer } from '../helpers/server.js';
import { teamFixtures, type Member } from '../helpers/team.js';

const tiers = await availableTiers('team-api');

const DAY_S = 86_400;
/** Level 2 as seeded, put back by the tests that configure it otherwise. */
const SEEDED_V2 = {
  level: '2',
  name: 'V2',
  ownHosting: '1000',
  directValidMembers: '3',
  smallAreaPerformance: '10000',
  promotionRate1: '0.12',
  promotionRate2: '0.06',
  managementRate: '0.05',
};

describe.each(tiers)('the team on %s', (tier) => {
  const t = useTestServer(tier);
  const fx = teamFixtures(() => t, `team-${tier}`);
  const { f, ok, member, host, addTo, teamIncome, runJobs } = fx;
  let finance = '';

  beforeAll(async () => {
    finance = await fx.setUp();
  });

  const teamInfo = async (who: Member) =>
    ok(await t.call<TeamInfoData>('plain', '/api/v1/user/teamInfo', {}, { token: who.token }));
  const myLevel = async (who: Member) =>
    ok(await t.call<MyLevelData>('plain', '/api/v1/user/myLevel', {}, { token: who.token }));
  const members = async (who: Member, params: Record<string, string>) =>
    t.call<TeamMembersData>('plain', '/api/v1/user/teamMembers', params, { token: who.token, lang: 'EN' });

  /** The clock at the next local midnight (Asia/Shanghai, UTC+8) plus `minutes`. */
  const toNextMidnight = (minutes = 5) => {
    const localSeconds = t.clock.now().getTime() / 1000 + 8 * 3600;
    t.clock.advance(Math.ceil(localSeconds / DAY_S) * DAY_S - localSeconds + minutes * 60);
  };

  // A ─┬─ B ── C ── D      hosting: A 1000, B 2000, C 500, D 800, E 499.99
  //    └─ E
  // Static income a day (0.003): A 3, B 6, C 1.5, D 2.4, E 1.49997. Valid: A, B, C, D.
  // Default levels: A, B and C are V1 (own ≥ 500, one valid direct member); D and E are V0.
  const tree: Record<'A' | 'B' | 'C' | 'D' | 'E', Member> = {} as Record<'A' | 'B' | 'C' | 'D' | 'E', Member>;
  let treeDay = '';

  test('team figures: performance is valid hosting, small-area performance leaves out the largest area', async () => {
    tree.A = await member('A');
    tree.B = await member('B', tree.A);
    tree.C = await member('C', tree.B);
    tree.D = await member('D', tree.C);
    tree.E = await member('E', tree.A);
    await host(tree.A, '1000');
    await host(tree.B, '2000');
    await host(tree.C, '500');
    await host(tree.D, '800');
    await host(tree.E, '499.99');

    expect(await teamInfo(tree.A)).toMatchObject({
      level: 1,
      levelName: 'V1',
      ownPerformance: '1000',
      teamPerformance: '3300',
      directCount: 2,
      directValidCount: 1,
      teamCount: 4,
      teamValidCount: 3,
      directPerformance: '2000',
      indirectPerformance: '1300',
      largestAreaPerformance: '3300',
      smallAreaPerformance: '0',
      validHostingThreshold: '500',
    });
    expect(await teamInfo(tree.B)).toMatchObject({
      level: 1,
      teamPerformance: '1300',
      directCount: 1,
      teamCount: 2,
      directPerformance: '500',
      indirectPerformance: '800',
      smallAreaPerformance: '0',
    });
    expect(await teamInfo(tree.D)).toMatchObject({
      level: 0,
      levelName: '',
      teamPerformance: '0',
      teamCount: 0,
      smallAreaPerformance: '0',
    });
    await f.expectLedgerOk(finance);
  });

  test('promotion and management income of a day equal the hand-computed lines, each naming its member and generation', async () => {
    // Created on Monday; Tuesday is the first interest day. Wednesday 00:05: Tuesday is due.
    toNextMidnight();
    toNextMidnight();
    const { accrual, team } = await runJobs();
    expect(accrual.status).toBe('done');
    expect(team.status).toBe('done');
    treeDay = team.period;
    const at = (who: Member) => who.userId;
    const linesOf = async (who: Member) =>
      (await teamIncome(who)).map((line) => ({
        type: line.type,
        amount: line.amount,
        earningsDate: line.earningsDate,
        status: line.status,
        member: line.source?.memberId,
        generation: line.source?.generation,
        base: line.source?.base,
        rate: line.source?.rate,
        level: line.source?.level,
        ref: line.ref,
      }));
    const line = (
      type: string,
      amount: string,
      who: Member,
      generation: number,
      base: string,
      rate: string,
    ) => ({
      type,
      amount,
      earningsDate: treeDay,
      status: 'arrived',
      member: at(who),
      generation,
      base,
      rate,
      level: 1,
      ref: { table: 'users', id: at(who) },
    });
    // A: promotion 10 % of B's 6 and E's 1.49997, 5 % of C's 1.5; management 2 % of E's 1.49997
    // (E is V0: the whole V1 rate); from B, C and D nothing (a V1 is between, the same rate).
    expect(
      (await linesOf(tree.A)).sort((x, y) => `${x.type}${x.member}`.localeCompare(`${y.type}${y.member}`)),
    ).toEqual(
      [
        line('promotion', '0.6', tree.B, 1, '6', '0.1'),
        line('promotion', '0.075', tree.C, 2, '1.5', '0.05'),
        line('promotion', '0.149997', tree.E, 1, '1.49997', '0.1'),
        line('management', '0.029999', tree.E, 1, '1.49997', '0.02'),
      ].sort((x, y) => `${x.type}${x.member}`.localeCompare(`${y.type}${y.member}`)),
    );
    // B: promotion 10 % of C's 1.5 and 5 % of D's 2.4 (C being V1, no management from either).
    expect((await linesOf(tree.B)).sort((x, y) => (x.generation ?? 0) - (y.generation ?? 0))).toEqual([
      line('promotion', '0.15', tree.C, 1, '1.5', '0.1'),
      line('promotion', '0.12', tree.D, 2, '2.4', '0.05'),
    ]);
    // C: promotion 10 % of D's 2.4, management 2 % of it.
    expect((await linesOf(tree.C)).sort((x, y) => x.type.localeCompare(y.type))).toEqual([
      line('management', '0.048', tree.D, 1, '2.4', '0.02'),
      line('promotion', '0.24', tree.D, 1, '2.4', '0.1'),
    ]);
    expect(await teamIncome(tree.D)).toEqual([]);
    expect(await teamIncome(tree.E)).toEqual([]);
    expect(team.detail).toMatchObject({
      days: [
        {
          day: treeDay,
          levels: { '1': 3 },
          promotion: { lines: 6, amount: '1.334997' },
          management: { lines: 2, amount: '0.077999' },
        },
      ],
    });
    // Each line is one wallet record of kind promotion or management, into cash.
    const records = ok(
      await t.call<{ items: Array<{ kind: string; amount: string; book: string }> }>(
        'plain',
        '/api/v1/wallet/records',
        { accountId: tree.A.accountId, limit: '100' },
        { token: tree.A.token },
      ),
    ).items.filter((record) => record.kind === 'promotion' || record.kind === 'management');
    expect(records.map((record) => record.amount).sort()).toEqual(['0.029999', '0.075', '0.149997', '0.6']);
    expect(new Set(records.map((record) => record.book))).toEqual(new Set(['cash']));
    await f.expectLedgerOk(finance);
  });

  test('a re-run pays nothing twice: the job again, and an operator re-running the day', async () => {
    const before = (await teamIncome(tree.A)).length + (await teamIncome(tree.B)).length;
    expect((await t.server.scheduler.runNow('team-income')).status).toBe('already_done');
    const rerun = await t.server.services.team.rerunDay(treeDay);
    expect(rerun).toMatchObject({
      day: treeDay,
      promotion: { lines: 0, amount: '0' },
      management: { lines: 0, amount: '0' },
    });
    expect((await teamIncome(tree.A)).length + (await teamIncome(tree.B)).length).toBe(before);
    // A day the job has not paid yet cannot be "re-run" ahead of it.
    await expect(t.server.services.team.rerunDay('2099-01-01')).rejects.toMatchObject({
      messageKey: 'server.team_day_not_paid',
    });
    await f.expectLedgerOk(finance);
  });

  test('the team job waits for the accrual of its day, and catches up days it missed, each once', async () => {
    toNextMidnight();
    // The accrual of the day that just ended has not run: the team job waits and records nothing.
    const waiting = await t.server.scheduler.runNow('team-income');
    expect(waiting.status).toBe('waiting');
    toNextMidnight();
    const { team } = await runJobs();
    expect(team.status).toBe('done');
    const days = (team.detail as { days: Array<{ day: string }> }).days.map((day) => day.day);
    expect(days).toHaveLength(2);
    // Every one of the three days paid A the same four lines, once.
    const lines = await teamIncome(tree.A);
    expect(lines).toHaveLength(12);
    const perDay = new Map<string, string[]>();
    for (const line of lines)
      perDay.set(line.earningsDate, [...(perDay.get(line.earningsDate) ?? []), line.amount].sort());
    expect([...perDay.keys()].sort()).toEqual([treeDay, ...days]);
    for (const amounts of perDay.values()) expect(amounts).toEqual(['0.029999', '0.075', '0.149997', '0.6']);
    await f.expectLedgerOk(finance);
  });

  test('the level changes at exact thresholds: own hosting 499.99 is level 0, 500.00 level 1, and the job pays from then on', async () => {
    const x = await member('X');
    const y = await member('Y', x);
    await host(y, '500');
    const order = await host(x, '499.99');
    expect((await teamInfo(x)).level).toBe(0);
    expect((await myLevel(x)).shortfall).toMatchObject({ ownHosting: '500', directValidMembers: 0 });
    toNextMidnight();
    toNextMidnight(1);
    await runJobs();
    // X was not valid at the day's end: no promotion on Y's static income.
    expect(await teamIncome(x)).toEqual([]);
    await addTo(x, order, '0.01');
    expect(await teamInfo(x)).toMatchObject({ level: 1, ownPerformance: '500' });
    expect(await myLevel(x)).toMatchObject({ level: 1, levelName: 'V1', lastDay: { level: 0 } });
    toNextMidnight();
    await runJobs();
    // Now V1: 10 % of Y's 1.5 and 2 % management.
    expect((await teamIncome(x)).map((line) => `${line.type} ${line.amount}`).sort()).toEqual([
      'management 0.03',
      'promotion 0.15',
    ]);
    expect((await myLevel(x)).lastDay).toMatchObject({ level: 1 });
    await f.expectLedgerOk(finance);
  });

  test('small-area performance at its threshold: 999.99 is below a level asking 1000, 1000.00 reaches it; a tie leaves one area out', async () => {
    const config = await f.asFinance<LevelConfigData>(finance, '/api/admin/team/levels', {});
    expect(config.data.levels.map((level) => level.name)).toEqual(['V1', 'V2', 'V3', 'V4', 'V5']);
    const saved = await f.asFinance<LevelConfigData>(finance, '/api/admin/team/levels/set', {
      level: '2',
      name: 'V2',
      ownHosting: '500',
      directValidMembers: '2',
      smallAreaPerformance: '1000',
      promotionRate1: '0.12',
      promotionRate2: '0.06',
      managementRate: '0.05',
    });
    expect(saved.code, saved.message).toBe(200);
    const p = await member('P');
    const q = await member('Q', p);
    const r = await member('R', p);
    await host(p, '500');
    await host(q, '1000');
    const rOrder = await host(r, '999.99');
    expect(await teamInfo(p)).toMatchObject({
      level: 1,
      teamPerformance: '1999.99',
      largestAreaPerformance: '1000',
      smallAreaPerformance: '999.99',
    });
    await addTo(r, rOrder, '0.01');
    // Two areas of 1000: one is left out, the other is the small area.
    expect(await teamInfo(p)).toMatchObject({
      level: 2,
      levelName: 'V2',
      largestAreaPerformance: '1000',
      smallAreaPerformance: '1000',
    });
    expect(await myLevel(p)).toMatchObject({
      level: 2,
      current: { level: 2, managementRate: '0.05' },
      next: { level: 3 },
    });
    // Back to the seeded V2.
    ok(await f.asFinance(finance, '/api/admin/team/levels/set', SEEDED_V2));
    await f.expectLedgerOk(finance);
  });

  test('management is paid by level difference: a V2 above a V1 gets the difference of the rates', async () => {
    // G (V2 by a configured level 2 needing only 2000 own) ── H (V1) ── I (V0).
    ok(
      await f.asFinance(finance, '/api/admin/team/levels/set', {
        level: '2',
        name: 'V2',
        ownHosting: '2000',
        directValidMembers: '1',
        smallAreaPerformance: '0',
        promotionRate1: '0.12',
        promotionRate2: '0.06',
        managementRate: '0.05',
      }),
    );
    try {
      const g = await member('G');
      const h = await member('H', g);
      const i = await member('I', h);
      await host(g, '2000');
      await host(h, '600');
      await host(i, '1000');
      toNextMidnight();
      toNextMidnight(2);
      await runJobs();
      const summary = async (who: Member) =>
        (await teamIncome(who))
          .map(
            (line: IncomeRecord) =>
              `${line.type} ${line.amount} from ${line.source?.memberId} g${line.source?.generation} at ${line.source?.rate}`,
          )
          .sort();
      // I earns 3 a day, H 1.8. H (V1): promotion 10 % of 3, management 2 % of 3.
      expect(await summary(h)).toEqual([
        `management 0.06 from ${i.userId} g1 at 0.02`,
        `promotion 0.3 from ${i.userId} g1 at 0.1`,
      ]);
      // G (V2): promotion 12 % of H's 1.8, 6 % of I's 3; management 5 % of H's 1.8 (H's own rate
      // 0.02 is below it: 0.03), and of I's 3 the difference over H: 0.05 − 0.02 = 0.03.
      expect(await summary(g)).toEqual(
        [
          `management 0.054 from ${h.userId} g1 at 0.03`,
          `management 0.09 from ${i.userId} g2 at 0.03`,
          `promotion 0.216 from ${h.userId} g1 at 0.12`,
          `promotion 0.18 from ${i.userId} g2 at 0.06`,
        ].sort(),
      );
      await f.expectLedgerOk(finance);
    } finally {
      ok(await f.asFinance(finance, '/api/admin/team/levels/set', SEEDED_V2));
    }
  });

  test('teamMembers pages one generation by cursor, newest first; no answer holds an e-mail address', async () => {
    const root = await member('Root');
    const children: Member[] = [];
    for (const name of ['K1', 'K2', 'K3']) children.push(await member(name, root));
    const grandchild = await member('K4', children[0]);
    await host(children[1] as Member, '700');
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = ok(await members(root, { generation: '1', limit: '2', ...(cursor ? { cursor } : {}) }));
      expect(page).toMatchObject({ generation: 1, count: 3, validCount: 1, performance: '700' });
      seen.push(...page.items.map((item) => item.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(children.map((child) => child.userId).reverse());
    const second = ok(await members(root, { generation: '2' }));
    expect(second.items.map((item) => item.id)).toEqual([grandchild.userId]);
    const valid = ok(await members(root, { generation: '1' })).items.find((item) => item.valid);
    expect(valid).toMatchObject({ id: children[1]?.userId, performance: '700', generation: 1 });
    // The default nickname is the address's local part: masked.
    expect(valid?.nickname).toMatch(/^te\*\*\*$/);
    const everything = JSON.stringify([
      ok(await members(root, { generation: '1' })),
      second,
      await teamInfo(root),
      await myLevel(root),
      await teamIncome(tree.A),
    ]);
    for (const who of [...children, grandchild, tree.B, tree.C, tree.E]) {
      expect(everything).not.toContain(who.email);
      expect(everything).not.toContain(who.email.split('@')[0]);
    }
    expect(everything).not.toContain('@');
    // Generations other than 1 and 2 are refused, naming the field.
    const third = await members(root, { generation: '3' });
    expect(third.code).toBe(400);
    expect(third.message).toContain('Generation');
  });

  test('a customer sees their own team only: B sees C and D, never A or E; D sees nobody', async () => {
    const bFirst = ok(await members(tree.B, { generation: '1' }));
    expect(bFirst.items.map((item) => item.id)).toEqual([tree.C.userId]);
    const bSecond = ok(await members(tree.B, { generation: '2' }));
    expect(bSecond.items.map((item) => item.id)).toEqual([tree.D.userId]);
    // A cursor naming someone else's member only narrows B's own list.
    const narrowed = ok(
      await members(tree.B, { generation: '1', cursor: String(Number(tree.E.userId) + 1) }),
    );
    expect(narrowed.items.map((item) => item.id)).toEqual([tree.C.userId]);
    expect(ok(await members(tree.D, { generation: '1' })).items).toEqual([]);
    expect((await teamInfo(tree.D)).teamCount).toBe(0);
    // Another account of A's is not B's to read income of.
    const foreign = await t.call(
      'plain',
      '/api/v1/income/log',
      { accountId: tree.A.accountId },
      { token: tree.B.token },
    );
    expect(foreign.code).toBe(403);
    // Without a token: 401.
    expect((await t.call('plain', '/api/v1/user/teamInfo', {})).code).toBe(401);
  });

  test('operators configure levels: numbered without gaps, only the highest removed, finance only; levelConfig shows them', async () => {
    const level = {
      name: 'V6',
      ownHosting: '20000',
      directValidMembers: '12',
      smallAreaPerformance: '2000000',
      promotionRate1: '0.15',
      promotionRate2: '0.08',
      managementRate: '0.17',
    };
    const gap = await f.asFinance(finance, '/api/admin/team/levels/set', { ...level, level: '7' });
    expect(gap.code).toBe(400);
    expect(gap.message).toContain('6');
    const badRate = await f.asFinance(finance, '/api/admin/team/levels/set', {
      ...level,
      level: '6',
      managementRate: '1.5',
    });
    expect(badRate.code).toBe(400);
    expect(badRate.message).toContain('Management rate');
    ok(await f.asFinance(finance, '/api/admin/team/levels/set', { ...level, level: '6' }));
    const lower = await f.asFinance(finance, '/api/admin/team/levels/remove', { level: '5' });
    expect(lower.code).toBe(409);
    const support = 'team-support@coffer.test';
    await f.addOperator(support, 'support');
    const refused = await t.call(
      'plain',
      '/api/admin/team/levels/set',
      { ...level, level: '6' },
      { token: await f.adminLogin(support), key: newKey() },
    );
    expect(refused.code).toBe(403);
    const config = ok(
      await t.call<LevelConfigData>('plain', '/api/v1/user/levelConfig', {}, { token: tree.A.token }),
    );
    expect(config).toMatchObject({
      promotionGenerations: 2,
      managementDepth: 10,
      validHostingThreshold: '500',
    });
    expect(config.levels.at(-1)).toMatchObject({
      level: 6,
      name: 'V6',
      ownHosting: '20000',
      managementRate: '0.17',
    });
    ok(await f.asFinance(finance, '/api/admin/team/levels/remove', { level: '6' }));
    expect(
      ok(await t.call<LevelConfigData>('plain', '/api/v1/user/levelConfig', {}, { token: tree.A.token }))
        .levels,
    ).toHaveLength(5);
  });
});
