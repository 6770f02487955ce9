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
import { nameOf, NAME_OPTIONS, withoutUndefined, type Parse, type Values } from './cli-values.js';

export const MACHINE_USAGE = `  machine list
  machine add --name N [--name-en N --name-zh-Hans N ...] --hash-power 10 --price 100 --days 30
      --daily-output 0.36 [--ticket-price 1] [--rent-price 3.5]   (daily output in USDT per T; no rent price: not for rent)
  machine update --id I [the fields of add] [--status active|disabled]   (--rent-price 0: no longer for rent)
  machine disable --id I
  ticket issue --accounts 3,7,12 --count 2 --reason R   (each account gets count tickets)`;

/** The options these commands add to the CLI's (all strings). */
export const MACHINE_OPTIONS = [
  'hash-power',
  'price',
  'ticket-price',
  'days',
  'daily-output',
  'rent-price',
  'count',
  'accounts',
  ...NAME_OPTIONS,
];

export const MACHINE_COMMANDS = [
  'machine list',
  'machine add',
  'machine update',
  'machine disable',
  'ticket issue',
];

const fieldsOf = (values: Values) => ({
  name: nameOf(values),
  hashPower: values['hash-power'],
  price: values['price'],
  ticketPrice: values['ticket-price'],
  days: values['days'],
  dailyOutput: values['daily-output'],
  rentPrice: values['rent-price'],
});

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
  const ctx = cliContext();
  switch (command) {
    case 'machine list':
      for (const machine of (await machines.list(ctx)).items) console.log(lineOf(machine));
      return;
    case 'machine add':
      console.log(
        `added ${lineOf(await machines.add(ctx, parsed(machineAddParamsSchema, withoutUndefined(fieldsOf(values)))))}`,
      );
      return;
    case 'machine update':
    case 'machine disable': {
      const change =
        command === 'machine disable'
          ? { id: values['id'], status: 'disabled' }
          : { id: values['id'], ...fieldsOf(values), status: values['status'] };
      const machine = await machines.update(ctx, parsed(machineUpdateParamsSchema, withoutUndefined(change)));
      console.log(`saved ${lineOf(machine)}`);
      return;
    }
    case 'ticket issue': {
      const issue = await machines.issueTickets(
        ctx,
        parsed(ticketIssueParamsSchema, {
          accountIds: values['accounts'],
          count: values['count'],
          reason: values['reason'],
        }),
      );
      console.log(
        `ticket issue ${issue.id}: ${issue.count} ticket(s) to each of ${issue.accountIds.length} account(s), ${issue.total} in all`,
      );
      return;
    }
    default:
      throw new Error(`not a machine command: ${command}`);
  }
}
