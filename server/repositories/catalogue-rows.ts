/**
 * SQL of the operators' catalogues (services/catalogue.ts: hosting products, mining machines):
 * tables of items with a `status` of `active` or `disabled`.
 */
import { eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/database.js';

/** A catalogue's table: its items' `status` is `active` or `disabled`. */
export type CatalogueTable = PgTable & { status: PgColumn };

/** Every item of a catalogue (active ones only when `activeOnly`), in `order`. */
export async function catalogueItems<T extends CatalogueTable>(
  db: Executor,
  table: T,
  activeOnly: boolean,
  ...order: SQL[]
): Promise<T['$inferSelect'][]> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(activeOnly ? eq(table.status, 'active') : undefined)
    .orderBy(...order);
  return rows as T['$inferSelect'][];
}
