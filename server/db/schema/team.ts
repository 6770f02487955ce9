/**
 * Team levels, users' levels and team days.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at, money, createdAt, updatedAt, lastEdit } from './columns.js';

/**
 * Team levels operators configure (docs/protocol.md section 23): a user is at the
 * highest level whose three requirements they all meet (own valid hosting, valid members of the
 * first generation, small-area performance; amounts in USDT minor units), and is paid at its
 * rates (exact decimal strings from 0 to below 1): promotion on the static income of the first
 * and second generation, management by level difference. No row: level 0, no team income.
 */
export const teamLevels = pgTable(
  'team_levels',
  {
    level: integer('level').primaryKey(),
    name: text('name').notNull(),
    ownHosting: money('own_hosting'),
    directValidMembers: integer('direct_valid_members').notNull(),
    smallAreaPerformance: money('small_area_performance'),
    promotionRate1: text('promotion_rate_1').notNull(),
    promotionRate2: text('promotion_rate_2').notNull(),
    managementRate: text('management_rate').notNull(),
    ...lastEdit(),
  },
  (t) => [
    check('team_levels_level', sql`${t.level} between 1 and 20`),
    check(
      'team_levels_requirements',
      sql`${t.ownHosting} >= 0 and ${t.directValidMembers} >= 0 and ${t.smallAreaPerformance} >= 0`,
    ),
  ],
);

/**
 * Each user's level as the team job last decided it (the figures at the end of local `day`), for
 * users at level 1 or above; a user without a row is at level 0.
 */
export const teamUserLevels = pgTable('team_user_levels', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey(),
  level: integer('level').notNull(),
  day: text('day').notNull(),
  ownPerformance: money('own_performance'),
  directValidMembers: integer('direct_valid_members').notNull(),
  smallAreaPerformance: money('small_area_performance'),
  teamPerformance: money('team_performance'),
  updatedAt: updatedAt(),
});

/**
 * One row per local day (COFFER_TIMEZONE) the team job has paid: the next run starts from the day
 * after the newest, so a missed day is caught up; `detail` is what the day paid.
 */
export const teamDays = pgTable('team_days', {
  day: text('day').primaryKey(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  rerunAt: at('rerun_at'),
});
