/**
 * The Team tab's and the share poster's view-model: pure functions from the server's
 * answers to what the pages show, tested without a browser (tests/client/team-view.test.ts).
 * Amounts and rates stay exact decimal strings: a rate is shown as a percent by moving its decimal
 * point, never through a float.
 */
import type { IncomeRecord } from '../../../contract/api/income.js';
import type { MyLevelData, TeamInfoData } from '../../../contract/api/team.js';
import { moneyText, parseMoney } from '../../../contract/money.js';
import { percentOf } from '../../ui/amounts.js';

/** The income types the Team tab lists. */
export const TEAM_INCOME_TYPES = ['promotion', 'management'] as const;

/** One requirement of the next level: what the user has, what it needs, whether it is met. */
export interface RequirementView {
  key: 'own' | 'direct' | 'small';
  have: string;
  need: string;
  met: boolean;
  /** 0 to 100: how far along (100 when met). */
  percent: number;
}

/** Progress to the next level from myLevel; null at the top (or before an answer). Pure. */
export function progressOf(level: MyLevelData | null | undefined): RequirementView[] | null {
  if (!level?.next) return null;
  const { figures, next } = level;
  const along = (have: bigint, need: bigint) =>
    need <= 0n ? 100 : have >= need ? 100 : Number((have * 100n) / need);
  const ownHave = parseMoney(figures.ownPerformance);
  const ownNeed = parseMoney(next.ownHosting);
  const smallHave = parseMoney(figures.smallAreaPerformance);
  const smallNeed = parseMoney(next.smallAreaPerformance);
  const directHave = BigInt(figures.directValidMembers);
  const directNeed = BigInt(next.directValidMembers);
  return [
    {
      key: 'own',
      have: figures.ownPerformance,
      need: next.ownHosting,
      met: ownHave >= ownNeed,
      percent: along(ownHave, ownNeed),
    },
    {
      key: 'direct',
      have: String(figures.directValidMembers),
      need: String(next.directValidMembers),
      met: directHave >= directNeed,
      percent: along(directHave, directNeed),
    },
    {
      key: 'small',
      have: figures.smallAreaPerformance,
      need: next.smallAreaPerformance,
      met: smallHave >= smallNeed,
      percent: along(smallHave, smallNeed),
    },
  ];
}

/** The small-area sum as the page explains it: team − largest area = small area. Pure. */
export function smallAreaSum(info: TeamInfoData): { team: string; largest: string; small: string } {
  return {
    team: info.teamPerformance,
    largest: info.largestAreaPerformance,
    small: info.smallAreaPerformance,
  };
}

/** A team income line as the Team tab tells it. */
export interface TeamIncomeView {
  id: string;
  type: 'promotion' | 'management';
  amount: string;
  earningsDate: string;
  /** The member and generation the line was paid on; null for a line without its source. */
  source: { nickname: string; generation: number; base: string; percent: string } | null;
}

const isTeamType = (type: string): type is TeamIncomeView['type'] =>
  (TEAM_INCOME_TYPES as readonly string[]).includes(type);

/** The promotion and management lines among `lines`, newest first, as the tab tells them. Pure. */
export function teamIncomeOf(lines: readonly IncomeRecord[]): TeamIncomeView[] {
  return lines
    .filter((line): line is IncomeRecord & { type: TeamIncomeView['type'] } => isTeamType(line.type))
    .sort((a, b) =>
      a.createdAt === b.createdAt ? Number(b.id) - Number(a.id) : a.createdAt < b.createdAt ? 1 : -1,
    )
    .map((line) => ({
      id: line.id,
      type: line.type,
      amount: line.amount,
      earningsDate: line.earningsDate,
      source: line.source
        ? {
            nickname: line.source.nickname,
            generation: line.source.generation,
            base: line.source.base,
            percent: percentOf(line.source.rate) ?? line.source.rate,
          }
        : null,
    }));
}

/** The sum of the lines' amounts, exactly. Pure. */
export function totalOf(lines: readonly TeamIncomeView[]): string {
  return moneyText(lines.reduce((sum, line) => sum + parseMoney(line.amount), 0n));
}

/**
 * The register link with the invite code filled in, for this app at `base` (its origin and path):
 * the register page reads `invite` from its query (src/features/auth/RegisterPage.tsx). Pure.
 */
export function registerLinkOf(base: string, registerPath: string, inviteCode: string): string {
  return `${base}#${registerPath}?invite=${encodeURIComponent(inviteCode)}`;
}

/** The file name of the saved poster. Pure. */
export const posterFileName = (inviteCode: string) =>
  `coffer-invite-${inviteCode.replace(/[^A-Za-z0-9]/g, '') || 'code'}.png`;
