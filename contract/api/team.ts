/**
 * The team (docs/protocol.md section 23; spec "Team levels and performance"): the
 * caller's figures (/api/v1/user/teamInfo), the first and second generation (teamMembers), the
 * levels (levelConfig, myLevel) and the operators' level configuration (/api/admin/team/levels).
 * Performance is valid hosting (contract/team.ts); amounts are USDT decimal strings, rates exact
 * decimal strings.
 */
import { z } from 'zod';
import { isRate, normalizeRate } from '../hosting-interest.js';
import { idPageParamsSchema, isoTimeSchema, moneySchema, text } from '../schema.js';

/** Levels are numbered 1 to this (0 is "no level"). */
export const TEAM_MAX_LEVEL = 20;
export const TEAM_LEVEL_NAME_MAX_LENGTH = 20;
/** The most first-generation valid members a level may require. */
export const TEAM_MAX_DIRECT_REQUIREMENT = 100_000;

/** A whole number from `min` to `max`, as a JSON number or a string of digits (form bodies). */
const wholeNumber = (min: number, max: number, message = 'server.field_invalid') =>
  z.union([z.number(), text({ max: 12 })], { error: message }).transform((value, context) => {
    const number = typeof value === 'number' ? value : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

/** A rate from 0 to below 1, an exact decimal of at most 12 fraction digits, normalised ("0.10" -> "0.1"). */
export const teamRateSchema = text({ max: 20 }).transform((value, context) => {
  if (isRate(value)) return normalizeRate(value);
  context.addIssue({ code: 'custom', message: 'server.rate_invalid' });
  return z.NEVER;
});

/** A requirement in USDT: at least 0, at most 6 decimals. */
const requirementAmountSchema = moneySchema.refine((value) => !value.startsWith('-'), {
  error: 'server.amount_invalid',
});

/** What a level requires, in this order (a level's terms, and what the next one still needs). */
const levelRequirementFields = {
  /** The user's own performance (valid hosting), USDT. */
  ownHosting: z.string(),
  /** Valid members of the first generation. */
  directValidMembers: z.number().int(),
  /** Small-area performance, USDT. */
  smallAreaPerformance: z.string(),
};

/** One level as configured (requirements and rewards). */
export const teamLevelSchema = z.object({
  level: z.number().int(),
  name: z.string(),
  ...levelRequirementFields,
  /** Reward: the rate of the first generation's static income paid as promotion income. */
  promotionRate1: z.string(),
  /** Reward: the rate of the second generation's static income paid as promotion income. */
  promotionRate2: z.string(),
  /** Reward: the management rate; paid on a team member's static income by level difference. */
  managementRate: z.string(),
});
export type TeamLevel = z.infer<typeof teamLevelSchema>;

/** /api/v1/user/levelConfig and /api/admin/team/levels: every level and the rules around them. */
export const levelConfigDataSchema = z.object({
  levels: z.array(teamLevelSchema),
  /** Promotion income reaches the first and second generation. */
  promotionGenerations: z.number().int(),
  /** Management income reaches this many generations up from the member who earned. */
  managementDepth: z.number().int(),
  /** An account's hosting balance from which it is valid hosting (500 USDT). */
  validHostingThreshold: z.string(),
  /** The business time zone whose local days the team job pays. */
  timeZone: z.string(),
});
export type LevelConfigData = z.infer<typeof levelConfigDataSchema>;

/** /api/v1/user/teamInfo: the caller's team figures now (live), and the level they make. */
export const teamInfoDataSchema = z.object({
  /** The level the figures below make now (0: none); the team job pays each day at that day's. */
  level: z.number().int(),
  /** The level's name ("V1"); empty at level 0. */
  levelName: z.string(),
  /** Σ of every descendant's own performance (valid hosting), any generation. */
  teamPerformance: z.string(),
  directCount: z.number().int(),
  directValidCount: z.number().int(),
  teamCount: z.number().int(),
  teamValidCount: z.number().int(),
  /** Team performance without the largest area (one first-generation member and their team). */
  smallAreaPerformance: z.string(),
  /** Σ of the first generation's own performance. */
  directPerformance: z.string(),
  /** Σ of the second generation's and below: teamPerformance − directPerformance. */
  indirectPerformance: z.string(),
  /** Added by Coffer: the caller's own performance (valid hosting of their accounts). */
  ownPerformance: z.string(),
  /** Added by Coffer: the largest area's performance (what small-area performance leaves out). */
  largestAreaPerformance: z.string(),
  validHostingThreshold: z.string(),
  asOf: isoTimeSchema,
});
export type TeamInfoData = z.infer<typeof teamInfoDataSchema>;

/** A generation: 1 (direct members) or 2 (their direct members). */
export const generationSchema = wholeNumber(1, 2, 'server.team_generation_invalid');

/** /api/v1/user/teamMembers: one generation, newest first. */
export const teamMembersParamsSchema = idPageParamsSchema.extend({
  generation: generationSchema.optional(),
});
export type TeamMembersParams = z.output<typeof teamMembersParamsSchema>;

/** A member as their upline sees them: never an e-mail address. */
export const teamMemberSchema = z.object({
  id: z.string(),
  /** Their nickname; one still taken from their e-mail address at registration is masked ("al***"). */
  nickname: z.string(),
  avatar: z.string(),
  generation: z.number().int(),
  joinedAt: isoTimeSchema,
  /** An account of theirs holds at least 500 USDT in hosting. */
  valid: z.boolean(),
  /** Their own performance (valid hosting), USDT. */
  performance: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamMembersDataSchema = z.object({
  generation: z.number().int(),
  items: z.array(teamMemberSchema),
  nextCursor: z.string().nullable(),
  /** The whole generation, not only this page. */
  count: z.number().int(),
  validCount: z.number().int(),
  /** Σ of the generation's own performance, USDT. */
  performance: z.string(),
});
export type TeamMembersData = z.infer<typeof teamMembersDataSchema>;

/** /api/v1/user/myLevel: the level now, the next one and what it still needs. */
export const myLevelDataSchema = z.object({
  level: z.number().int(),
  levelName: z.string(),
  figures: z.object({
    ownPerformance: z.string(),
    directValidMembers: z.number().int(),
    smallAreaPerformance: z.string(),
  }),
  /** The level reached now; null at level 0. */
  current: teamLevelSchema.nullable(),
  /** The next level up; null at the top. */
  next: teamLevelSchema.nullable(),
  /** What the next level still needs (0 where met); null at the top. */
  shortfall: z.object(levelRequirementFields).nullable(),
  /** The newest day the team job paid, and the level it paid the caller at; null before its first run. */
  lastDay: z.object({ day: z.string(), level: z.number().int() }).nullable(),
  asOf: isoTimeSchema,
});
export type MyLevelData = z.infer<typeof myLevelDataSchema>;

// ---- operators ----

export const teamLevelNumberSchema = wholeNumber(1, TEAM_MAX_LEVEL, 'server.team_level_invalid');

/** /api/admin/team/levels/set: adds or replaces one level (levels stay numbered 1, 2, 3 ... without a gap). */
export const teamLevelSetParamsSchema = z.object({
  level: teamLevelNumberSchema,
  name: text({ max: TEAM_LEVEL_NAME_MAX_LENGTH }),
  ownHosting: requirementAmountSchema,
  directValidMembers: wholeNumber(0, TEAM_MAX_DIRECT_REQUIREMENT),
  smallAreaPerformance: requirementAmountSchema,
  promotionRate1: teamRateSchema,
  promotionRate2: teamRateSchema,
  managementRate: teamRateSchema,
});
export type TeamLevelSetParams = z.output<typeof teamLevelSetParamsSchema>;

/** /api/admin/team/levels/remove: removes the highest level (only the highest, so no gap opens). */
export const teamLevelRemoveParamsSchema = z.object({ level: teamLevelNumberSchema });
export type TeamLevelRemoveParams = z.output<typeof teamLevelRemoveParamsSchema>;
