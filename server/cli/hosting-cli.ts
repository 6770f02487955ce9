/**
 * The hosting and income commands of `npm run admin` (server/cli/admin.ts hands them over):
 *   hosting product list
 *   hosting product add --name N [--name-en N ...] --days 30 --daily-rate 0.0035 --minimum 100
 *       --maximum 100000 --payout daily|at_maturity --early-exit true|false [--penalty-rate 0.03]
 *   hosting product update --id I [any of the fields above] [--status active|disabled]
 *   hosting product disable --id I
 *   income airdrop --accounts 3,7,12 --amount 5 --reason R
 * Each parses its values with the admin API's schema, so the CLI refuses what the API refuses;
 * every change is audited as `cli`.
 */
import {
  productAddParamsSchema,
  productUpdateParamsSchema,
  type AdminHostingProduct,
} from '../../contract/api/hosting.js';
import { airdropParamsSchema } from '../../contract/api/income.js';
import type { CofferServer } from '../app.js';
import { cliContext } from './cli-context.js';
import { nameOf, NAME_OPTIONS, withoutUndefined, type Parse, type Values } from './cli-values.js';

export const HOSTING_USAGE = `  hosting product list
  hosting product add --name N [--name-en N --name-zh-Hans N ...] --days 30 --daily-rate 0.0035
      --minimum 100 --maximum 100000 --payout daily|at_maturity --early-exit true|false [--penalty-rate 0.03]
  hosting product update --id I [the fields of add] [--status active|disabled]
  hosting product disable --id I
  income airdrop --accounts 3,7,12 --amount 5 --reason R   (each account gets the amount)`;

/** The options these commands add to the CLI's (all strings). */
export const HOSTING_OPTIONS = [
  'days',
  'daily-rate',
  'minimum',
  'maximum',
  'payout',
  'early-exit',
  'penalty-rate',
  'accounts',
  ...NAME_OPTIONS,
];

export const HOSTING_COMMANDS = [
  'hosting product list',
  'hosting product add',
  'hosting product update',
  'hosting product disable',
  'income airdrop',
];

const fieldsOf = (values: Values) => ({
  name: nameOf(values),
  days: values['days'],
  dailyRate: values['daily-rate'],
  minimum: values['minimum'],
  maximum: values['maximum'],
  payout: values['payout'],
  earlyExit: values['early-exit'],
  penaltyRate: values['penalty-rate'],
});

const lineOf = (product: AdminHostingProduct) =>
  `${product.id}\t${product.status}\t${product.days} days\t${product.dailyRate}/day\t${product.minimum}-${product.maximum} USDT\t${product.payout}\tearly exit ${product.earlyExit ? `yes (penalty ${product.penaltyRate})` : 'no'}\t${product.name}`;

/** Runs one of HOSTING_COMMANDS; throws what the services throw. */
export async function runHostingCommand(
  server: CofferServer,
  command: string,
  values: Values,
  parsed: Parse,
): Promise<void> {
  const hosting = server.services.hostingCatalogue;
  const ctx = cliContext();
  switch (command) {
    case 'hosting product list':
      for (const product of (await hosting.list(ctx)).items) console.log(lineOf(product));
      return;
    case 'hosting product add':
      console.log(
        `added ${lineOf(await hosting.add(ctx, parsed(productAddParamsSchema, withoutUndefined(fieldsOf(values)))))}`,
      );
      return;
    case 'hosting product update':
    case 'hosting product disable': {
      const change =
        command === 'hosting product disable'
          ? { id: values['id'], status: 'disabled' }
          : { id: values['id'], ...fieldsOf(values), status: values['status'] };
      const product = await hosting.update(ctx, parsed(productUpdateParamsSchema, withoutUndefined(change)));
      console.log(`saved ${lineOf(product)}`);
      return;
    }
    case 'income airdrop': {
      const airdrop = await server.services.income.airdrop(
        ctx,
        parsed(airdropParamsSchema, {
          accountIds: values['accounts'],
          amount: values['amount'],
          reason: values['reason'],
        }),
      );
      console.log(
        `airdrop ${airdrop.id}: ${airdrop.amount} USDT to each of ${airdrop.accountIds.length} account(s), ${airdrop.total} USDT in all`,
      );
      return;
    }
    default:
      throw new Error(`not a hosting command: ${command}`);
  }
}
