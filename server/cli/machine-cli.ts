/**
 * The mining machine and ticket commands of `npm run admin` (server/cli/admin.ts hands them over):
 *   machine list
 *   machine add --name N [--name-en N ...] --hash-power 10 --price 100 --ticket-price 1 --days 30
 *       --daily-output 0.36 [--rent-price 3.5]
 *   machine update --id I [any of the fields above] [--status active|disabled]
 *   machine disable --id I
 *   ticket issue --accounts 3,7,12 --count 2 --reason R
 * Each parses its values with the admin API's schema, so the CLI refuses what the API refuses;
 * every change is audited as `cli`.
 */
import {
  machineAddParamsSchema,
  machineUpdateParamsSchema,
  ticketIssueParamsSchema,
  type AdminMachine,
} from '../../contract/api/machine.js';
import type { CofferServer } from '../app.js';
import { cliContext } from './cli-context.js';
import { catalogueCommands, runCatalogueCommand } from './catalogue-cli.js';
import { grantOf, NAME_OPTIONS, type Parse, type Values } from './cli-values.js';

export const MACHINE_USAGE = `  machine list
  machine add --name N [--name-en N --name-zh-Hans N ...] --hash-power 10 --price 100 --days 30
      --daily-output 0.36 [--ticket-price 1] [--rent-price 3.5]   (daily output in USDT per T; no rent price: not for rent)
  machine update --id I [the fields of add] [--status active|disabled]   (--rent-price 0: no longer for rent)
  machine disable --id I
  ticket issue --accounts 3,7,12 --count 2 --reason R   (each account gets count tickets)`;

/** The options of an item's fields besides its name. */
const MACHINE_FIELDS = ['hash-power', 'price', 'ticket-price', 'days', 'daily-output', 'rent-price'];

/** The options these commands add to the CLI's (all strings). */
export const MACHINE_OPTIONS = [...MACHINE_FIELDS, 'count', 'accounts', ...NAME_OPTIONS];

export const MACHINE_COMMANDS = [...catalogueCommands('machine'), 'ticket issue'];

const lineOf = (machine: AdminMachine) =>
  `${machine.id}\t${machine.status}\t${machine.hashPower} T\t${machine.price} USDT or ${machine.ticketPrice} ticket(s)\t${machine.days} days\t${machine.dailyOutput} USDT/T a day (${machine.machineDailyOutput} a machine)\trent ${machine.rentPrice === null ? 'no' : `${machine.rentPrice} USDT a day`}\t${machine.name}`;

/** Runs one of MACHINE_COMMANDS; throws what the services throw. */
export async function runMachineCommand(
  server: CofferServer,
  command: string,
  values: Values,
  parsed: Parse,
): Promise<void> {
  const machines = server.services.machineCatalogue;
  if (command !== 'ticket issue') {
    const catalogue = {
      service: machines,
      addSchema: machineAddParamsSchema,
      updateSchema: machineUpdateParamsSchema,
      fields: MACHINE_FIELDS,
      lineOf,
    };
    return runCatalogueCommand(catalogue, command.slice('machine '.length), values, parsed);
  }
  const issue = await machines.issueTickets(
    cliContext(),
    parsed(ticketIssueParamsSchema, grantOf(values, 'count')),
  );
  console.log(
    `ticket issue ${issue.id}: ${issue.count} ticket(s) to each of ${issue.accountIds.length} account(s), ${issue.total} in all`,
  );
}
