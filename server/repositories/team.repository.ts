/**
 * SQL of the team (docs/protocol.md section 23): figures over the referral closure
 * table (`referral_paths`, one row per ancestor and descendant), the levels operators configure,
 * and the daily team job's set-based day: each statement reads or writes whole sets (the team,
 * a generation, every user), never one member at a time.
 *
 * Performance is valid hosting (contract/team.ts): an account counts its USDT hosting balance
 * when that is at least `min` (500 USDT in minor units), which every query takes as a parameter.
 * No query here ever selects an e-mail address: `maskedNickname` only says whether a nickname
 * still shows one.
 */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.js';
import { teamDays, teamLevels, teamUserLevels } from '../db/schema.js';
import { upsertRow } from './rows.js';
import { customerHostingBalances, customerHostingBalancesAt } from '../ledger/balance-sql.js';

export type TeamLevelRow = typeof teamLevels.$inferSelect;
export type TeamUserLevelRow = typeof teamUserLevels.$inferSelect;
export type TeamDayRow = typeof teamDays.$inferSelect;

const integer = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));
const count = z.union([z.string(), z.number()]).transform((value) => Number(value));

/**
 * True when the nickname still shows the e-mail address it was made from at registration (its
 * local part), or contains the address: such a nickname is masked before anyone else sees it.
 */
const maskedNickname = sql`(lower(u.nickname) = left(split_part(u.email, '@', 1), 32)
  or position(u.email in lower(u.nickname)) > 0)`;

/** One user's own performance: Σ of their accounts' hosting balances that are at least `min`. */
const ownOf = (min: bigint) =>
  sql`coalesce(sum(b.balance) filter (where b.balance >= ${String(min)}::bigint), 0)`;

/** The customer hosting book of account `a` (its one row), joined as `b`. */
const hostingBook = sql`${customerHostingBalances} b on b.owner = a.id`;

// ---- levels ----

/** Every configured level, lowest first. */
export async function listLevels(db: Executor): Promise<TeamLevelRow[]> {
  return db.select().from(teamLevels).orderBy(asc(teamLevels.level));
}

/** Adds or replaces one level. */
export async function upsertLevel(db: Executor, row: TeamLevelRow): Promise<TeamLevelRow> {
  const { level: _level, ...change } = row;
  return upsertRow(db, teamLevels, teamLevels.level, row, change);
}

/** Removes one level; false when there was none. */
export async function deleteLevel(db: Executor, level: number): Promise<boolean> {
  const removed = await db.delete(teamLevels).where(eq(teamLevels.level, level)).returning();
  return removed.length > 0;
}

/** Serialises changes of the level configuration (a transaction-scoped advisory lock). */
export async function lockLevels(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('team:levels', 0))`);
}

// ---- one user's team, now ----

const figuresSchema = z.object({
  rows: z.array(
    z.object({
      team_count: count,
      team_valid: count,
      direct_count: count,
      direct_valid: count,
      team_performance: integer,
      direct_performance: integer,
      largest_area: integer,
      own_performance: integer,
    }),
  ),
});

export interface TeamFiguresRow {
  teamCount: number;
  teamValidCount: number;
  directCount: number;
  directValidCount: number;
  teamPerformance: bigint;
  directPerformance: bigint;
  largestArea: bigint;
  ownPerformance: bigint;
}

/**
 * The user's team figures from the balances now, in one statement: every member once (the
 * closure's rows of the user), their own performance, and each valid member's area (the
 * first-generation member above them: the ancestor one generation below the user, found through
 * the (descendant, depth) index). Rows read: the team, plus one index probe per valid member.
 */
export async function teamFiguresOf(db: Executor, userId: number, min: bigint): Promise<TeamFiguresRow> {
  const result = figuresSchema.parse(
    await db.execute(sql`
      with member as (
        select r.descendant_id as user_id, r.depth from referral_paths r where r.ancestor_id = ${userId}
      ), perf as materialized (
        select m.user_id, m.depth, ${ownOf(min)} as own
          from member m
          left join accounts a on a.user_id = m.user_id
          left join ${hostingBook}
         group by m.user_id, m.depth
      ), area as (
        select coalesce(r.ancestor_id, p.user_id) as head, sum(p.own) as area
          from perf p
          left join referral_paths r
            on p.depth > 1 and r.descendant_id = p.user_id and r.depth = p.depth - 1
         where p.own > 0
         group by 1
      )
      select
        (select count(*) from perf) as team_count,
        (select count(*) from perf where own > 0) as team_valid,
        (select count(*) from perf where depth = 1) as direct_count,
        (select count(*) from perf where depth = 1 and own > 0) as direct_valid,
        (select coalesce(sum(own), 0) from perf)::text as team_performance,
        (select coalesce(sum(own), 0) from perf where depth = 1)::text as direct_performance,
        (select coalesce(max(area), 0) from area)::text as largest_area,
        (select ${ownOf(min)} from accounts a left join ${hostingBook}
          where a.user_id = ${userId})::text as own_performance`),
  );
  const [row] = result.rows;
  if (!row) throw new Error('team figures: no row');
  return {
    teamCount: row.team_count,
    teamValidCount: row.team_valid,
    directCount: row.direct_count,
    directValidCount: row.direct_valid,
    teamPerformance: row.team_performance,
    directPerformance: row.direct_performance,
    largestArea: row.largest_area,
    ownPerformance: row.own_performance,
  };
}

const memberRowsSchema = z.object({
  rows: z.array(
    z.object({
      id: count,
      nickname: z.string(),
      masked: z.boolean(),
      avatar: z.string(),
      created_at: z.union([z.date(), z.string()]).transform((value) => new Date(value)),
      performance: integer,
    }),
  ),
});

export interface TeamMemberRow {
  id: number;
  nickname: string;
  /** The nickname still shows the member's e-mail address: mask it. */
  masked: boolean;
  avatar: string;
  createdAt: Date;
  performance: bigint;
}

/**
 * One page of a generation of the user's team, newest member first (ids below `beforeId`): the
 * page is taken from the (ancestor, depth, descendant) index first, then only its members'
 * performance is read.
 */
export async function generationPage(
  db: Executor,
  query: { userId: number; generation: number; beforeId: number | undefined; limit: number; min: bigint },
): Promise<TeamMemberRow[]> {
  const result = memberRowsSchema.parse(
    await db.execute(sql`
      with page as (
        select r.descendant_id as user_id from referral_paths r
         where r.ancestor_id = ${query.userId} and r.depth = ${query.generation}
           ${query.beforeId === undefined ? sql`` : sql`and r.descendant_id < ${query.beforeId}`}
         order by r.descendant_id desc
         limit ${query.limit}
      )
      select u.id, u.nickname, ${maskedNickname} as masked, u.avatar, u.created_at,
             (${ownOf(query.min)})::text as performance
        from page p
        join users u on u.id = p.user_id
        left join accounts a on a.user_id = u.id
        left join ${hostingBook}
       group by u.id
       order by u.id desc`),
  );
  return result.rows.map((row) => ({
    id: row.id,
    nickname: row.nickname,
    masked: row.masked,
    avatar: row.avatar,
    createdAt: row.created_at,
    performance: row.performance,
  }));
}

const totalsSchema = z.object({
  rows: z.array(z.object({ members: count, valid: count, performance: integer })),
});

/** A whole generation's size, valid members and performance. */
export async function generationTotals(
  db: Executor,
  query: { userId: number; generation: number; min: bigint },
): Promise<{ count: number; validCount: number; performance: bigint }> {
  const result = totalsSchema.parse(
    await db.execute(sql`
      with perf as (
        select r.descendant_id as user_id, ${ownOf(query.min)} as own
          from referral_paths r
          left join accounts a on a.user_id = r.descendant_id
          left join ${hostingBook}
         where r.ancestor_id = ${query.userId} and r.depth = ${query.generation}
         group by r.descendant_id
      )
      select count(*) as members, count(*) filter (where own > 0) as valid,
             coalesce(sum(own), 0)::text as performance
        from perf`),
  );
  const [row] = result.rows;
  return { count: row?.members ?? 0, validCount: row?.valid ?? 0, performance: row?.performance ?? 0n };
}

/** The level the team job last decided for the user (none: level 0). */
export async function userLevelOf(db: Executor, userId: number): Promise<TeamUserLevelRow | undefined> {
  const [row] = await db.select().from(teamUserLevels).where(eq(teamUserLevels.userId, userId));
  return row;
}

// ---- the daily job ----

/** The newest day the team job paid, if any. */
export async function latestTeamDay(db: Executor): Promise<string | undefined> {
  const [row] = await db.select({ day: teamDays.day }).from(teamDays).orderBy(desc(teamDays.day)).limit(1);
  return row?.day;
}

/** Records a day the job paid (first run), or that an operator ran it again. */
export async function saveTeamDay(
  db: Executor,
  input: { day: string; detail: Record<string, unknown>; at: Date },
): Promise<void> {
  await db
    .insert(teamDays)
    .values({ day: input.day, detail: input.detail, createdAt: input.at })
    .onConflictDoUpdate({ target: teamDays.day, set: { rerunAt: input.at } });
}

const dayRowsSchema = z.object({ rows: z.array(z.object({ day: z.string().nullable() })) });

/** The oldest local day with accrued hosting interest, if any (where a first run catches up from). */
export async function earliestAccrualDay(db: Executor): Promise<string | undefined> {
  const result = dayRowsSchema.parse(await db.execute(sql`select min(day) as day from hosting_accruals`));
  return result.rows[0]?.day ?? undefined;
}

/**
 * The newest period the hosting accrual finished (job_runs): every local day up to it has all its
 * interest accrued, since each run accrues every day before its own midnight.
 */
export async function accrualDoneThrough(db: Executor): Promise<string | undefined> {
  const result = dayRowsSchema.parse(
    await db.execute(
      sql`select max(period) as day from job_runs where job = 'hosting-accrual' and status = 'done'`,
    ),
  );
  return result.rows[0]?.day ?? undefined;
}

/**
 * Builds the day's working tables (temporary, dropped at commit) from the ledger as it stood at
 * `end` (the local midnight ending `day`) and the interest accrued for `day`:
 * - team_day_own: each valid user's own performance (hosting balances after each account's last
 *   hosting transfer before `end`, counted when at least `min`);
 * - team_day_team: each user's team performance (one closure row per valid member and ancestor);
 * - team_day_level: each user at level 1 or above with their figures (valid first-generation
 *   members and the largest area from the users' referrers: the closure's depth-1 rows);
 * - team_day_static: each user's static income of `day` (hosting_accruals, all their orders).
 */
export async function prepareTeamDay(
  db: Executor,
  input: { day: string; end: Date; min: bigint },
): Promise<void> {
  await db.execute(
    sql`drop table if exists team_day_hosting, team_day_own, team_day_team, team_day_level, team_day_static, team_day_lines`,
  );
  await db.execute(sql`create temp table team_day_hosting on commit drop as
    select h.owner as account_id, h.balance from ${customerHostingBalancesAt(input.end)} h`);
  await db.execute(sql`create temp table team_day_own on commit drop as
    select a.user_id, sum(h.balance) as own
      from team_day_hosting h join accounts a on a.id = h.account_id
     where h.balance >= ${String(input.min)}::bigint
     group by a.user_id`);
  await db.execute(sql`analyze team_day_own`);
  await db.execute(sql`create temp table team_day_team on commit drop as
    select r.ancestor_id as user_id, sum(o.own) as team
      from team_day_own o join referral_paths r on r.descendant_id = o.user_id
     group by r.ancestor_id`);
  await db.execute(sql`analyze team_day_team`);
  await db.execute(sql`create temp table team_day_level on commit drop as
    with area as (
      select u.referrer_id as user_id, count(o.user_id) as direct_valid,
             max(coalesce(o.own, 0) + coalesce(t.team, 0)) as largest
        from users u
        left join team_day_own o on o.user_id = u.id
        left join team_day_team t on t.user_id = u.id
       where u.referrer_id is not null
       group by u.referrer_id
    ), figures as (
      select u.id as user_id, coalesce(o.own, 0) as own, coalesce(a.direct_valid, 0) as direct_valid,
             coalesce(t.team, 0) as team, coalesce(t.team, 0) - coalesce(a.largest, 0) as small_area
        from users u
        left join team_day_own o on o.user_id = u.id
        left join team_day_team t on t.user_id = u.id
        left join area a on a.user_id = u.id
    ), levelled as (
      select f.*, (select max(l.level) from team_levels l
                    where f.own >= l.own_hosting and f.direct_valid >= l.direct_valid_members
                      and f.small_area >= l.small_area_performance) as level
        from figures f
    )
    select v.user_id, v.level, v.own, v.direct_valid, v.team, v.small_area,
           l.promotion_rate_1::numeric as promotion_1, l.promotion_rate_2::numeric as promotion_2,
           l.management_rate::numeric as management
      from levelled v join team_levels l on l.level = v.level`);
  await db.execute(sql`analyze team_day_level`);
  await db.execute(sql`create temp table team_day_static on commit drop as
    select a.user_id, sum(h.amount) as amount
      from hosting_accruals h join accounts a on a.id = h.account_id
     where h.day = ${input.day} and h.amount > 0
     group by a.user_id`);
  await db.execute(sql`analyze team_day_static`);
}

const levelCountsSchema = z.object({ rows: z.array(z.object({ level: count, users: count })) });

/** How many users the prepared day put at each level (1 and above). */
export async function dayLevelCounts(db: Executor): Promise<Record<string, number>> {
  const result = levelCountsSchema.parse(
    await db.execute(sql`select level, count(*) as users from team_day_level group by level order by level`),
  );
  return Object.fromEntries(result.rows.map((row) => [String(row.level), row.users]));
}

/** Makes the prepared day's levels the users' current ones (users not at level 1 or above lose theirs). */
export async function saveDayLevels(db: Executor, day: string, at: Date): Promise<void> {
  await db.execute(
    sql`delete from team_user_levels t where not exists (select 1 from team_day_level d where d.user_id = t.user_id)`,
  );
  await db.execute(sql`insert into team_user_levels
      (user_id, level, day, own_performance, direct_valid_members, small_area_performance, team_performance, updated_at)
    select user_id, level, ${day}, own, direct_valid, small_area, team, ${at}::timestamptz from team_day_level
    on conflict (user_id) do update set level = excluded.level, day = excluded.day,
      own_performance = excluded.own_performance, direct_valid_members = excluded.direct_valid_members,
      small_area_performance = excluded.small_area_performance, team_performance = excluded.team_performance,
      updated_at = excluded.updated_at`);
}

/**
 * The prepared day's team income lines into team_day_lines (numbered from 1), and their count:
 * - promotion: for each member with static income, each ancestor one or two generations up at
 *   level 1 or above gets floor(static × that level's rate for the generation);
 * - management: walking up at most `depth` generations from the member, an ancestor gets
 *   floor(static × (their management rate − the highest rate below them on the path, the
 *   member's own included)) when that difference is above 0: the level difference.
 * Rates are exact numerics; lines that floor to 0 are left out. Each line names its receiver's
 * main account, the member, the generation, the base, the rate applied and the receiver's level.
 */
export async function buildDayLines(db: Executor, depth: number): Promise<number> {
  await db.execute(sql`create temp table team_day_lines on commit drop as
    with promotion as (
      select 'promotion'::text as type, r.ancestor_id as receiver, s.user_id as member, r.depth as generation,
             s.amount as base, case when r.depth = 1 then v.promotion_1 else v.promotion_2 end as rate, v.level
        from team_day_static s
        join referral_paths r on r.descendant_id = s.user_id and r.depth <= 2
        join team_day_level v on v.user_id = r.ancestor_id
    ), walk as (
      select s.user_id as member, s.amount as base, r.ancestor_id as receiver, r.depth as generation,
             coalesce(v.management, 0) as rate, v.level,
             greatest(coalesce(own.management, 0),
                      coalesce(max(coalesce(v.management, 0)) over (
                        partition by s.user_id order by r.depth
                        rows between unbounded preceding and 1 preceding), 0)) as below
        from team_day_static s
        join referral_paths r on r.descendant_id = s.user_id and r.depth <= ${depth}
        left join team_day_level v on v.user_id = r.ancestor_id
        left join team_day_level own on own.user_id = s.user_id
    ), management as (
      select 'management'::text, receiver, member, generation, base, rate - below, level
        from walk where rate > below
    ), lines as (
      select * from promotion union all select * from management
    )
    select row_number() over (order by a.id, l.type, l.member) as n,
           l.type, l.receiver, a.id as account_id, l.member, l.generation, l.base, l.rate, l.level,
           floor(l.base * l.rate)::bigint as amount
      from lines l
      join accounts a on a.user_id = l.receiver and a.kind = 'main'
     where floor(l.base * l.rate) > 0`);
  await db.execute(sql`create unique index on team_day_lines (n)`);
  const result = z
    .object({ rows: z.array(z.object({ lines: count })) })
    .parse(await db.execute(sql`select count(*) as lines from team_day_lines`));
  return result.rows[0]?.lines ?? 0;
}

const lineRowsSchema = z.object({
  rows: z.array(
    z.object({
      n: count,
      type: z.enum(['promotion', 'management']),
      receiver: count,
      account_id: count,
      member: count,
      generation: count,
      base: integer,
      rate: z.string(),
      level: count,
      amount: integer,
      nickname: z.string(),
      masked: z.boolean(),
    }),
  ),
});

export interface TeamLineRow {
  n: number;
  type: 'promotion' | 'management';
  receiverId: number;
  accountId: number;
  memberId: number;
  memberNickname: string;
  memberMasked: boolean;
  generation: number;
  base: bigint;
  rate: string;
  level: number;
  amount: bigint;
}

/** Lines numbered after `afterN`, in order, at most `limit` (with the member's nickname). */
export async function dayLinesPage(db: Executor, afterN: number, limit: number): Promise<TeamLineRow[]> {
  const result = lineRowsSchema.parse(
    await db.execute(sql`
      select l.n, l.type, l.receiver, l.account_id, l.member, l.generation, l.base::text as base,
             l.rate::text as rate, l.level, l.amount::text as amount, u.nickname, ${maskedNickname} as masked
        from team_day_lines l join users u on u.id = l.member
       where l.n > ${afterN}
       order by l.n
       limit ${limit}`),
  );
  return result.rows.map((row) => ({
    n: row.n,
    type: row.type,
    receiverId: row.receiver,
    accountId: row.account_id,
    memberId: row.member,
    memberNickname: row.nickname,
    memberMasked: row.masked,
    generation: row.generation,
    base: row.base,
    rate: row.rate,
    level: row.level,
    amount: row.amount,
  }));
}
