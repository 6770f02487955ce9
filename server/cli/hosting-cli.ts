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
import { catalogueCommands, runCatalogueCommand } from './catalogue-cli.js';
import { grantOf, NAME_OPTIONS, type Parse, type Values } from './cli-values.js';

export const HOSTING_USAGE = `  hosting product list
  hosting product add --name N [--name-en N --name-zh-Hans N ...] --days 30 --daily-rate 0.0035
      --minimum 100 --maximum 100000 --payout daily|at_maturity --early-exit true|false [--penalty-rate 0.03]
  hosting product update --id I [the fields of add] [--status active|disabled]
  hosting product disable --id I
  income airdrop --accounts 3,7,12 --amount 5 --reason R   (each account gets the amount)`;

/** The options of an item's fields besides its name. */
const PRODUCT_FIELDS = ['days', 'daily-rate', 'minimum', 'maximum', 'payout', 'early-exit', 'penalty-rate'];

/** The options these commands add to the CLI's (all strings). */
export const HOSTING_OPTIONS = [...PRODUCT_FIELDS, 'accounts', ...NAME_OPTIONS];

export const HOSTING_COMMANDS = [...catalogueCommands('hosting product'), 'income airdrop'];

const lineOf = (product: AdminHostingProduct) =>
  `${product.id}\t${product.status}\t${product.days} days\t${product.dailyRate}/day\t${product.minimum}-${product.maximum} USDT\t${product.payout}\tearly exit ${product.earlyExit ? `yes (penalty ${product.penaltyRate})` : 'no'}\t${product.name}`;

/** Runs one of HOSTING_COMMANDS; throws what the services throw. */
export async function runHostingCommand(
  server: CofferServer,
  command: string,
  values: Values,
  parsed: Parse,
): Promise<void> {
  if (command !== 'income airdrop') {
    const products = {
      service: server.services.hostingCatalogue,
      addSchema: productAddParamsSchema,
      updateSchema: productUpdateParamsSchema,
      fields: PRODUCT_FIELDS,
      lineOf,
    };
    return runCatalogueCommand(products, command.slice('hosting product '.length), values, parsed);
  }
  const airdrop = await server.services.income.airdrop(
    cliContext(),
    parsed(airdropParamsSchema, grantOf(values, 'amount')),
  );
  console.log(
    `airdrop ${airdrop.id}: ${airdrop.amount} USDT to each of ${airdrop.accountIds.length} account(s), ${airdrop.total} USDT in all`,
  );
}
