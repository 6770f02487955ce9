/**
 * The team (docs/protocol.md section 23): a customer's team figures, generations and
 * level; the operators' level configuration; and the daily team job, which decides each user's
 * level from the figures at the end of a local day and pays `promotion` and `management` income
 * on that day's static income, from the platform's incentive expense.
 *
 * What stays true:
 * - figures come from set-based SQL over the referral closure table (team.repository.ts): no
 *   query per member, so a team of 100 000 costs a few statements;
 * - a customer sees only their own team, and never an e-mail address (a nickname still made of
 *   one is masked);
 * - the job pays a day only after the hosting accrual of that day is done (`accrualDone`), each
 *   line once per (day, receiver, type, member): its income key and ledger key are
 *   `team:<day>:<type>:<receiver>:<member>`, unique, so a re-run or a run after a crash pays
 *   nothing twice; a run killed half-way commits nothing (one transaction);
 * - a day missed is caught up: a run pays every day after the newest paid one, oldest first.
 */
import { DateTime } from 'luxon';
import type {
  LevelConfigData,
  MyLevelData,
  TeamInfoData,
  TeamLevel,
  TeamLevelRemoveParams,
  TeamLevelSetParams,
  TeamMembersData,
  TeamMembersParams,
} from '../../contract/api/team.js';
import { BodyCode } from '../../contract/codes.js';
import { MIN_VALID_HOSTING_USD } from '../../contract/constants.js';
import { MIN_VALID_HOSTING, normalizeRate } from '../../contract/hosting-interest.js';
import { minor, moneyText, parseMoney } from '../../contract/money.js';
import {
  levelFor,
  PROMOTION_GENERATIONS,
  shortfallOf,
  type LevelFigures,
  type LevelRequirements,
} from '../../contract/team.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { tryJobLock } from '../repositories/job.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import {
  accrualDoneThrough,
  buildDayLines,
  dayLevelCounts,
  dayLinesPage,
  deleteLevel,
  earliestAccrualDay,
  generationPage,
  generationTotals,
  latestTeamDay,
  listLevels,
  lockLevels,
  prepareTeamDay,
  saveDayLevels,
  saveTeamDay,
  teamFiguresOf,
  upsertLevel,
  userLevelOf,
  type TeamLevelRow,
  type TeamLineRow,
} from '../repositories/team.repository.js';
import { localDateOf } from './hosting/days.js';
import { creditIncomeMany, type IncomeLine } from './income.service.js';
import { actorOf } from './operator.service.js';
import { DEFAULT_PAGE_SIZE } from './paging.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** The job's name in job_runs and its advisory lock (scheduler.ts JobName.teamIncome). */
export const TEAM_JOB = 'team-income';

/** Lines read from the day's working table and paid per step (bounded memory, whatever the day holds). */
const LINES_PER_STEP = 5000;

/** Inside the job's run, for tests: after each step of lines is paid (in the run's transaction). */
export interface TeamJobHooks {
  afterStep?(paidSoFar: number): void | Promise<void>;
  /** Lines per step (default 5000). */
  linesPerStep?: number;
}

/** What one day paid. */
export interface TeamDayReport {
  day: string;
  /** Users at each level 1 and above, by level. */
  levels: Record<string, number>;
  promotion: { lines: number; amount: string };
  management: { lines: number; amount: string };
}

/** What one run of the team job did (job_runs.detail). */
export interface TeamJobReport {
  days: TeamDayReport[];
}

/**
 * How a member's nickname shows to their upline: as it is, or masked ("al***") while it still
 * shows their e-mail address (the default nickname is the address's local part). Pure.
 */
export function maskNickname(nickname: string, masked: boolean): string {
  if (!masked) return nickname;
  const characters = [...nickname];
  return `${characters.slice(0, characters.length > 2 ? 2 : 1).join('')}***`;
}

function toTeamLevel(row: TeamLevelRow): TeamLevel {
  return {
    level: row.level,
    name: row.name,
    ownHosting: moneyText(row.ownHosting),
    directValidMembers: row.directValidMembers,
    smallAreaPerformance: moneyText(row.smallAreaPerformance),
    promotionRate1: row.promotionRate1,
    promotionRate2: row.promotionRate2,
    managementRate: row.managementRate,
  };
}

const requirementsOf = (row: TeamLevelRow): LevelRequirements => ({
  level: row.level,
  ownHosting: minor(row.ownHosting),
  directValidMembers: row.directValidMembers,
  smallAreaPerformance: minor(row.smallAreaPerformance),
});

/** The day after a local date (`YYYY-MM-DD`). Pure. */
const nextDay = (day: string): string =>
  DateTime.fromISO(day, { zone: 'UTC' }).plus({ days: 1 }).toISODate() ?? '';

export class TeamService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly timezone: string,
    private readonly managementDepth: number,
  ) {
    super(core);
  }

  // ---- customers ----

  /** The caller's team figures from the balances now, and the level they make. Read-only. */
  async teamInfo(ctx: RequestContext): Promise<TeamInfoData> {
    const userId = userIdOf(ctx);
    const [figures, levels] = await Promise.all([
      teamFiguresOf(this.db, userId, MIN_VALID_HOSTING),
      listLevels(this.db),
    ]);
    const smallArea = figures.teamPerformance - figures.largestArea;
    const level = levelFor(
      {
        ownPerformance: minor(figures.ownPerformance),
        directValidMembers: figures.directValidCount,
        smallAreaPerformance: minor(smallArea),
      },
      levels.map(requirementsOf),
    );
    return {
      level,
      levelName: levels.find((row) => row.level === level)?.name ?? '',
      teamPerformance: moneyText(figures.teamPerformance),
      directCount: figures.directCount,
      directValidCount: figures.directValidCount,
      teamCount: figures.teamCount,
      teamValidCount: figures.teamValidCount,
      smallAreaPerformance: moneyText(smallArea),
      directPerformance: moneyText(figures.directPerformance),
      indirectPerformance: moneyText(figures.teamPerformance - figures.directPerformance),
      ownPerformance: moneyText(figures.ownPerformance),
      largestAreaPerformance: moneyText(figures.largestArea),
      validHostingThreshold: MIN_VALID_HOSTING_USD,
      asOf: this.clock.now().toISOString(),
    };
  }

  /** One generation (1 or 2) of the caller's team, newest first, with its totals. Read-only. */
  async teamMembers(ctx: RequestContext, params: TeamMembersParams): Promise<TeamMembersData> {
    const userId = userIdOf(ctx);
    const generation = params.generation ?? 1;
    const limit = params.limit ?? DEFAULT_PAGE_SIZE;
    const beforeId = params.cursor ? Number(params.cursor) : undefined;
    const [rows, totals] = await Promise.all([
      generationPage(this.db, { userId, generation, beforeId, limit: limit + 1, min: MIN_VALID_HOSTING }),
      generationTotals(this.db, { userId, generation, min: MIN_VALID_HOSTING }),
    ]);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      generation,
      items: page.map((row) => ({
        id: String(row.id),
        nickname: maskNickname(row.nickname, row.masked),
        avatar: row.avatar,
        generation,
        joinedAt: row.createdAt.toISOString(),
        valid: row.performance > 0n,
        performance: moneyText(row.performance),
      })),
      nextCursor: rows.length > limit && last ? String(last.id) : null,
      count: totals.count,
      validCount: totals.validCount,
      performance: moneyText(totals.performance),
    };
  }

  /** Every level with its requirements and rewards, and the rules around them. Read-only. */
  async levelConfig(): Promise<LevelConfigData> {
    return {
      levels: (await listLevels(this.db)).map(toTeamLevel),
      promotionGenerations: PROMOTION_GENERATIONS,
      managementDepth: this.managementDepth,
      validHostingThreshold: MIN_VALID_HOSTING_USD,
      timeZone: this.timezone,
    };
  }

  /** The caller's level now, the next one and what it still needs; and the level the job last paid at. */
  async myLevel(ctx: RequestContext): Promise<MyLevelData> {
    const userId = userIdOf(ctx);
    const [figures, levels, decided, lastDay] = await Promise.all([
      teamFiguresOf(this.db, userId, MIN_VALID_HOSTING),
      listLevels(this.db),
      userLevelOf(this.db, userId),
      latestTeamDay(this.db),
    ]);
    const mine: LevelFigures = {
      ownPerformance: minor(figures.ownPerformance),
      directValidMembers: figures.directValidCount,
      smallAreaPerformance: minor(figures.teamPerformance - figures.largestArea),
    };
    const level = levelFor(mine, levels.map(requirementsOf));
    const current = levels.find((row) => row.level === level);
    const next = levels.find((row) => row.level === level + 1);
    const shortfall = next ? shortfallOf(mine, requirementsOf(next)) : null;
    return {
      level,
      levelName: current?.name ?? '',
      figures: {
        ownPerformance: moneyText(mine.ownPerformance),
        directValidMembers: mine.directValidMembers,
        smallAreaPerformance: moneyText(mine.smallAreaPerformance),
      },
      current: current ? toTeamLevel(current) : null,
      next: next ? toTeamLevel(next) : null,
      shortfall: shortfall
        ? {
            ownHosting: moneyText(shortfall.ownHosting),
            directValidMembers: shortfall.directValidMembers,
            smallAreaPerformance: moneyText(shortfall.smallAreaPerformance),
          }
        : null,
      lastDay: lastDay
        ? { day: lastDay, level: decided && decided.day === lastDay ? decided.level : 0 }
        : null,
      asOf: this.clock.now().toISOString(),
    };
  }

  // ---- operators ----

  /**
   * Adds or replaces one level (audited as `team.level_set`): levels stay numbered 1, 2, 3 ...,
   * so a new one is at most one above the highest (400 naming `level` otherwise). Answers the
   * whole configuration. Takes effect from the next day the job pays.
   */
  setLevel(ctx: RequestContext, params: TeamLevelSetParams): Promise<LevelConfigData> {
    return this.commands.run(ctx, (tx) => this.setLevelIn(tx, actorOf(ctx), params));
  }

  /** Removes the highest level (409 for another one, 404 for none), audited as `team.level_remove`. */
  removeLevel(ctx: RequestContext, params: TeamLevelRemoveParams): Promise<LevelConfigData> {
    return this.commands.run(ctx, (tx) => this.removeLevelIn(tx, actorOf(ctx), params));
  }

  private async setLevelIn(
    tx: Executor,
    actor: string,
    params: TeamLevelSetParams,
  ): Promise<LevelConfigData> {
    const { highest } = await lockedLevels(tx);
    if (params.level > highest + 1)
      throw invalidField('level', 'server.team_level_gap', { next: String(highest + 1) });
    const saved = await upsertLevel(tx, {
      level: params.level,
      name: params.name,
      ownHosting: parseMoney(params.ownHosting),
      directValidMembers: params.directValidMembers,
      smallAreaPerformance: parseMoney(params.smallAreaPerformance),
      promotionRate1: params.promotionRate1,
      promotionRate2: params.promotionRate2,
      managementRate: params.managementRate,
      updatedAt: this.clock.now(),
      updatedBy: actor,
    });
    await appendAudit(tx, {
      actor,
      action: 'team.level_set',
      target: String(saved.level),
      detail: { ...toTeamLevel(saved) },
      at: this.clock.now(),
    });
    return this.configIn(tx);
  }

  private async removeLevelIn(
    tx: Executor,
    actor: string,
    params: TeamLevelRemoveParams,
  ): Promise<LevelConfigData> {
    const { levels, highest } = await lockedLevels(tx);
    if (!levels.some((row) => row.level === params.level))
      throw new BusinessError(BodyCode.notFound, 'server.team_level_unknown', {}, { field: 'level' });
    if (params.level !== highest)
      throw new BusinessError(
        BodyCode.conflict,
        'server.team_level_not_highest',
        { highest: String(highest) },
        { field: 'level' },
      );
    await deleteLevel(tx, params.level);
    await appendAudit(tx, {
      actor,
      action: 'team.level_remove',
      target: String(params.level),
      detail: {},
      at: this.clock.now(),
    });
    return this.configIn(tx);
  }

  private async configIn(tx: Executor): Promise<LevelConfigData> {
    return {
      levels: (await listLevels(tx)).map(toTeamLevel),
      promotionGenerations: PROMOTION_GENERATIONS,
      managementDepth: this.managementDepth,
      validHostingThreshold: MIN_VALID_HOSTING_USD,
      timeZone: this.timezone,
    };
  }

  // ---- the daily job ----

  /** True when the hosting accrual of local day `period` is done: the team job may pay it. */
  async accrualDone(tx: Executor, period: string): Promise<boolean> {
    const through = await accrualDoneThrough(tx);
    return through !== undefined && through >= period;
  }

  /**
   * The team job for local day `period` (whose accrual is done): pays every day after the newest
   * one paid up to `period`, oldest first (a first run starts from the oldest day with accrued
   * interest), and makes the last day's levels the users' current ones. In `tx`: all days or none.
   */
  async runJob(tx: Executor, now: Date, period: string, hooks: TeamJobHooks = {}): Promise<TeamJobReport> {
    const latest = await latestTeamDay(tx);
    const earliest = latest === undefined ? await earliestAccrualDay(tx) : undefined;
    let day =
      latest !== undefined
        ? nextDay(latest)
        : earliest !== undefined && earliest < period
          ? earliest
          : period;
    const days: TeamDayReport[] = [];
    for (; day <= period; day = nextDay(day)) {
      const report = await this.payDay(tx, day, now, hooks);
      await saveDayLevels(tx, day, now);
      await saveTeamDay(tx, { day, detail: { ...report }, at: now });
      days.push(report);
    }
    return { days };
  }

  /**
   * `npm run admin -- team run --day D`: pays local day `day` again, under the job's lock. Only a
   * day the job already paid (400 naming `day` otherwise: the job pays days in order); every line
   * it finds is paid already, so it writes nothing unless a line was missing. The users' current
   * levels change only when it is the newest day paid.
   */
  async rerunDay(day: string): Promise<TeamDayReport | 'locked_elsewhere'> {
    return this.db.transaction(async (tx) => {
      if (!(await tryJobLock(tx, TEAM_JOB))) return 'locked_elsewhere';
      const latest = await latestTeamDay(tx);
      if (latest === undefined || day > latest)
        throw invalidField('day', 'server.team_day_not_paid', { latest: latest ?? '-' });
      const now = this.clock.now();
      const report = await this.payDay(tx, day, now, {});
      if (day === latest) await saveDayLevels(tx, day, now);
      await saveTeamDay(tx, { day, detail: { ...report }, at: now });
      return report;
    });
  }

  /** Decides the day's levels and pays its lines (those not paid yet) in `tx`. */
  private async payDay(tx: Executor, day: string, now: Date, hooks: TeamJobHooks): Promise<TeamDayReport> {
    const end = DateTime.fromISO(day, { zone: this.timezone }).startOf('day').plus({ days: 1 }).toJSDate();
    await prepareTeamDay(tx, { day, end, min: MIN_VALID_HOSTING });
    const levels = await dayLevelCounts(tx);
    await buildDayLines(tx, this.managementDepth);
    const today = localDateOf(now, this.timezone);
    const step = hooks.linesPerStep ?? LINES_PER_STEP;
    const paid = { promotion: { lines: 0, amount: 0n }, management: { lines: 0, amount: 0n } };
    let paidSoFar = 0;
    for (let after = 0; ;) {
      const rows = await dayLinesPage(tx, after, step);
      if (rows.length === 0) break;
      after = rows[rows.length - 1]?.n ?? after;
      const written = await creditIncomeMany(
        tx,
        'incentive_expense',
        rows.map((row) => this.lineOf(row, day, today)),
        now,
      );
      for (const line of written) {
        const kind = line.type === 'promotion' ? paid.promotion : paid.management;
        kind.lines += 1;
        kind.amount += line.amount;
      }
      paidSoFar += written.length;
      await hooks.afterStep?.(paidSoFar);
    }
    return {
      day,
      levels,
      promotion: { lines: paid.promotion.lines, amount: moneyText(paid.promotion.amount) },
      management: { lines: paid.management.lines, amount: moneyText(paid.management.amount) },
    };
  }

  private lineOf(row: TeamLineRow, day: string, today: string): IncomeLine {
    const key = `team:${day}:${row.type}:${row.receiverId}:${row.memberId}`;
    return {
      accountId: row.accountId,
      userId: row.receiverId,
      type: row.type,
      amount: minor(row.amount),
      earningsDate: day,
      arrivalDate: today,
      status: 'arrived',
      key,
      transferKey: key,
      from: 'incentive_expense',
      ref: { table: 'users', id: String(row.memberId) },
      source: {
        memberId: String(row.memberId),
        nickname: maskNickname(row.memberNickname, row.memberMasked),
        generation: row.generation,
        base: moneyText(row.base),
        rate: normalizeRate(row.rate),
        level: row.level,
      },
    };
  }
}

/** Every level, locked against other level changes until the transaction ends, and the highest level (0 with none). */
async function lockedLevels(tx: Executor) {
  await lockLevels(tx);
  const levels = await listLevels(tx);
  return { levels, highest: levels.reduce((top, row) => Math.max(top, row.level), 0) };
}
