/**
 * The commands every operators' catalogue has in `npm run admin` (hosting products, mining
 * machines): list, add, update and disable. Each parses its values with the admin API's schema,
 * so the CLI refuses what the API refuses, and prints one line an item.
 */
import type { z } from 'zod';
import type { RequestContext } from '../core/context.js';
import { cliContext } from './cli-context.js';
import { nameOf, withoutUndefined, type Parse, type Values } from './cli-values.js';

/** The last words of a catalogue's commands (`<catalogue> list` ...). */
const VERBS = ['list', 'add', 'update', 'disable'] as const;

/** One catalogue as the CLI drives it: its service, the admin API's schemas, its fields and its line. */
export interface CatalogueCli<A extends z.ZodType, U extends z.ZodType, Item> {
  service: {
    list(ctx: RequestContext): Promise<{ items: Item[] }>;
    add(ctx: RequestContext, params: z.output<A>): Promise<Item>;
    update(ctx: RequestContext, params: z.output<U>): Promise<Item>;
  };
  addSchema: A;
  updateSchema: U;
  /** The options of the item's fields besides its name, each the field's name in kebab-case. */
  fields: readonly string[];
  lineOf(item: Item): string;
}

/** The commands of the catalogue named `prefix` (`machine` gives `machine list` ...). */
export const catalogueCommands = (prefix: string): string[] => VERBS.map((verb) => `${prefix} ${verb}`);

/** The item's name and `fields` as the options give them (undefined where not given): `--daily-rate` is `dailyRate`. */
const fieldsOf = (values: Values, fields: readonly string[]) => ({
  name: nameOf(values),
  ...Object.fromEntries(
    fields.map((option) => [
      option.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      values[option],
    ]),
  ),
});

/** Runs one of a catalogue's commands (`verb` its last word); throws what the service throws. */
export async function runCatalogueCommand<A extends z.ZodType, U extends z.ZodType, Item>(
  catalogue: CatalogueCli<A, U, Item>,
  verb: string,
  values: Values,
  parsed: Parse,
): Promise<void> {
  const { service, lineOf } = catalogue;
  const ctx = cliContext();
  switch (verb) {
    case 'list':
      for (const item of (await service.list(ctx)).items) console.log(lineOf(item));
      return;
    case 'add': {
      const item = await service.add(
        ctx,
        parsed(catalogue.addSchema, withoutUndefined(fieldsOf(values, catalogue.fields))),
      );
      console.log(`added ${lineOf(item)}`);
      return;
    }
    case 'update':
    case 'disable': {
      const change =
        verb === 'disable'
          ? { id: values['id'], status: 'disabled' }
          : { id: values['id'], ...fieldsOf(values, catalogue.fields), status: values['status'] };
      const item = await service.update(ctx, parsed(catalogue.updateSchema, withoutUndefined(change)));
      console.log(`saved ${lineOf(item)}`);
      return;
    }
    default:
      throw new Error(`not a catalogue command: ${verb}`);
  }
}
