/**
 * The team commands of `npm run admin` (server/cli/admin.ts hands them over):
 *   team level list
 *   team level set --level N [--name V1] [--own-hosting 500] [--direct-valid 1] [--small-area 0]
 *       [--promotion-rate-1 0.1] [--promotion-rate-2 0.05] [--management-rate 0.02]
 *       (a new level needs every field; an existing one keeps those not given)
 *   team level remove --level N   (the highest level only)
 *   team run --day YYYY-MM-DD     (pays a day the team job already paid again: nothing twice)
 * `job run team-income` runs the daily job itself. Changes parse with the admin API's schema, so
 * the CLI refuses what the API refuses; each is audited as `cli`.
 */
import { z } from 'zod';
import { localDaySchema } from '../../contract/api/dividend.js';
import {
  teamLevelRemoveParamsSchema,
  teamLevelSetParamsSchema,
  type TeamLevel,
} from '../../contract/api/team.js';
import type { CofferServer } from '../app.js';
import { cliContext } from './cli-context.js';
import type { Parse, Values } from './cli-values.js';

export const TEAM_USAGE = `  team level list
  team level set --level N [--name V1] [--own-hosting 500] [--direct-valid 1] [--small-area 0]
      [--promotion-rate-1 0.1] [--promotion-rate-2 0.05] [--management-rate 0.02]   (an existing level keeps what is not given)
  team level remove --level N   (the highest level only)
  team run --day YYYY-MM-DD   (pays a day the team job already paid again; nothing is paid twice)`;

/** The options these commands add to the CLI's (all strings; `name` and `day` are the CLI's own). */
export const TEAM_OPTIONS = [
  'level',
  'own-hosting',
  'direct-valid',
  'small-area',
  'promotion-rate-1',
  'promotion-rate-2',
  'management-rate',
];

export const TEAM_COMMANDS = ['team level list', 'team level set', 'team level remove', 'team run'];

const lineOf = (level: TeamLevel) =>
  `${level.level}\t${level.name}\town hosting ${level.ownHosting}\tvalid direct ${level.directValidMembers}\tsmall area ${level.smallAreaPerformance}\tpromotion ${level.promotionRate1}/${level.promotionRate2}\tmanagement ${level.managementRate}`;

/** Runs one of TEAM_COMMANDS; throws what the services throw. */
export async function runTeamCommand(
  server: CofferServer,
  command: string,
  values: Values,
  parsed: Parse,
): Promise<void> {
  const team = server.services.team;
  const ctx = cliContext();
  switch (command) {
    case 'team level list': {
      const config = await team.levelConfig();
      for (const level of config.levels) console.log(lineOf(level));
      console.log(
        `promotion: ${config.promotionGenerations} generations; management: ${config.managementDepth} generations; valid hosting from ${config.validHostingThreshold} USDT`,
      );
      return;
    }
    case 'team level set': {
      const given = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
      const existing = (await team.levelConfig()).levels.find(
        (level) => String(level.level) === given('level'),
      );
      const config = await team.setLevel(
        ctx,
        parsed(teamLevelSetParamsSchema, {
          level: given('level'),
          name: given('name') ?? existing?.name,
          ownHosting: given('own-hosting') ?? existing?.ownHosting,
          directValidMembers: given('direct-valid') ?? existing?.directValidMembers.toString(),
          smallAreaPerformance: given('small-area') ?? existing?.smallAreaPerformance,
          promotionRate1: given('promotion-rate-1') ?? existing?.promotionRate1,
          promotionRate2: given('promotion-rate-2') ?? existing?.promotionRate2,
          managementRate: given('management-rate') ?? existing?.managementRate,
        }),
      );
      for (const level of config.levels) console.log(lineOf(level));
      return;
    }
    case 'team level remove': {
      const config = await team.removeLevel(
        ctx,
        parsed(teamLevelRemoveParamsSchema, { level: values['level'] }),
      );
      console.log(`${config.levels.length} level(s) left`);
      return;
    }
    case 'team run': {
      const { day } = parsed(z.object({ day: localDaySchema }), { day: values['day'] });
      const report = await team.rerunDay(day);
      if (report === 'locked_elsewhere') {
        console.log(`team ${day}: the team job is running elsewhere; try again`);
        process.exitCode = 1;
        return;
      }
      console.log(
        `team ${day}: ${report.promotion.lines} promotion line(s) (${report.promotion.amount} USDT) and ${report.management.lines} management line(s) (${report.management.amount} USDT) paid now; levels ${JSON.stringify(report.levels)}`,
      );
      return;
    }
  }
}
