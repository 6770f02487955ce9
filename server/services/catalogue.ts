/**
 * An operators' catalogue (hosting products, mining machines): list, add, update and disable,
 * each change audited in its own transaction. One helper for every catalogue; each gives its
 * table, its fields and its audit names (a CatalogueSpec).
 *
 * What stays true:
 * - every add, update and disable writes its row and its audit entry (actor, action, the row's
 *   fields) in one transaction, exactly once per Idempotency-Key (CommandRunner);
 * - a name given in one language fills every language (productNamesOf); none at all is a 400;
 * - an update changes only the fields given; items already sold keep their terms.
 */
import { productNamesOf, type ProductStatus } from '../../contract/api/hosting.js';
import { BodyCode } from '../../contract/codes.js';
import type { Locale } from '../../contract/locales.js';
import type { RequestContext } from '../core/context.js';
import { BusinessError, invalidField } from '../core/errors.js';
import { rowIdOf } from '../core/params.js';
import type { Executor } from '../db/database.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { actorOf } from './operator.service.js';
import { CoreService, type ServiceCore } from './service-core.js';
import { numericIds, type CollectionReader } from './sync-collection.js';

/** A name as the admin API takes it: one for every language, or one per language. */
export type NameParam = Parameters<typeof productNamesOf>[0];

/** A catalogue item's name in each language (locale -> name), as its row keeps them. */
export type ItemNames = Record<string, string>;

/** What the helper writes on every row it adds or changes. */
export interface Stamp {
  names: ItemNames;
  status: string;
  updatedAt: Date;
  updatedBy: string;
}

/** How one catalogue keeps its items. */
export interface CatalogueSpec<Row, Add, Update, Admin> {
  /** The audit log's action of a change: `hosting.product_add`, `machine.disable` ... */
  action(verb: 'add' | 'update' | 'disable'): string;
  /** The table and noun of an item, for an internal error (`machines: machine`). */
  what: string;
  /** Every item, active and disabled. */
  list(db: Executor): Promise<Row[]>;
  find(db: Executor, id: number): Promise<Row | undefined>;
  /** Inserts a new item from `params` and the stamp; 400 on values the API's schema lets through. */
  insert(tx: Executor, params: Add, stamp: Stamp & { createdAt: Date }): Promise<Row>;
  /** Changes `current` by the fields given; null when the row vanished. 400 as for insert. */
  update(tx: Executor, current: Row, params: Update, stamp: Stamp): Promise<Row | null>;
  /** The update params that only disable item `id`. */
  disabling(id: string): Update;
  /** The audit entry's detail: every field of the saved row. */
  detail(row: Row): Record<string, unknown>;
  toAdmin(row: Row, locale: Locale): Admin;
  /** Writes what else follows a saved row, in its transaction (a public collection's change). */
  saved?(tx: Executor, row: Row, now: Date): Promise<void>;
}

interface CatalogueRow {
  id: number;
  names: ItemNames;
  status: string;
}

/** The reader of every item's names by id, of a catalogue (its `list`, disabled items too). */
export const catalogueNames =
  (list: (db: Executor, activeOnly: boolean) => Promise<CatalogueRow[]>) =>
  async (db: Executor): Promise<Map<number, ItemNames>> =>
    namesById(await list(db, false));

/**
 * An account-scoped collection's reader whose rows name a catalogue item (an order its
 * product, a holding its machine): each record carries the item's names in every language. Reads
 * the catalogue (`names`) only when a row is found.
 */
export function namedRecordsByIds<Row, Item extends { id: string }>(
  byIds: (db: Executor, accountId: number, ids: readonly number[]) => Promise<Row[]>,
  names: (db: Executor) => Promise<Map<number, ItemNames>>,
  itemOf: (row: Row) => number,
  toRecord: (row: Row, names: ItemNames) => Item,
): CollectionReader {
  return async (db, accountId, ids) => {
    const rows = await byIds(db, accountId, numericIds(ids));
    if (rows.length === 0) return [];
    const itemNames = await names(db);
    return rows.map((row) => toRecord(row, itemNames.get(itemOf(row)) ?? {}));
  };
}

/** Every item's names by id, of a catalogue's rows (a small table: the operators'). */
export const namesById = (rows: readonly CatalogueRow[]): Map<number, ItemNames> =>
  new Map(rows.map((row) => [row.id, row.names]));

/** A catalogue's operator methods; the admin API and the CLI call them with their caller. */
export class Catalogue<
  Row extends CatalogueRow,
  Add extends { name: NameParam },
  Update extends { id: string; name?: NameParam | undefined; status?: ProductStatus | undefined },
  Admin,
> extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly spec: CatalogueSpec<Row, Add, Update, Admin>,
  ) {
    super(core);
  }

  /** Every item, active and disabled, names in the request's language. */
  async list(ctx: RequestContext): Promise<{ items: Admin[] }> {
    return { items: (await this.spec.list(this.db)).map((row) => this.spec.toAdmin(row, ctx.locale)) };
  }

  /** Adds an item (audited). 400 on `name` naming no language. */
  add(ctx: RequestContext, params: Add): Promise<Admin> {
    return this.commands.run(ctx, async (tx) => {
      const names = productNamesOf(params.name);
      if (!names) throw invalidField('name', 'server.field_required');
      const actor = actorOf(ctx);
      const now = this.clock.now();
      const stamp = { names, status: 'active', createdAt: now, updatedAt: now, updatedBy: actor };
      const row = await this.spec.insert(tx, params, stamp);
      return this.saved(tx, ctx, actor, 'add', row, now);
    });
  }

  /** Changes the fields given of an item (audited). 404 naming `id` for no such item. */
  update(ctx: RequestContext, params: Update): Promise<Admin> {
    return this.commands.run(ctx, async (tx) => {
      const id = rowIdOf(params.id);
      const current = id === null ? undefined : await this.spec.find(tx, id);
      if (!current) throw new BusinessError(BodyCode.notFound, 'server.not_found', {}, { field: 'id' });
      const names = params.name === undefined ? current.names : productNamesOf(params.name);
      if (!names) throw invalidField('name', 'server.field_required');
      const actor = actorOf(ctx);
      const now = this.clock.now();
      const row = await this.spec.update(tx, current, params, {
        names,
        status: params.status ?? current.status,
        updatedAt: now,
        updatedBy: actor,
      });
      if (!row) throw new Error(`${this.spec.what} ${current.id} vanished`);
      const verb = params.status === 'disabled' && Object.keys(params).length === 2 ? 'disable' : 'update';
      return this.saved(tx, ctx, actor, verb, row, now);
    });
  }

  /** Stops offering an item (audited); what was sold runs on. 404 for no such item. */
  disable(ctx: RequestContext, params: { id: string }): Promise<Admin> {
    return this.update(ctx, this.spec.disabling(params.id));
  }

  private async saved(
    tx: Executor,
    ctx: RequestContext,
    actor: string,
    verb: 'add' | 'update' | 'disable',
    row: Row,
    now: Date,
  ): Promise<Admin> {
    await this.spec.saved?.(tx, row, now);
    await appendAudit(tx, {
      actor,
      action: this.spec.action(verb),
      target: String(row.id),
      detail: this.spec.detail(row),
      at: now,
    });
    return this.spec.toAdmin(row, ctx.locale);
  }
}
