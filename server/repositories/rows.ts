/**
 * The statements most tables share, keyed by the table's bigint `id`: insert and return, find,
 * lock, update one row, and a page of rows newest first. Each is a single statement; the `lock`
 * ones hold the row until the transaction ends.
 */
import { and, desc, eq, getTableName, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/database.js';

/**
 * `column` is one of `ids` (bigint ids), as one array parameter: `= any($1::bigint[])`. Drizzle's
 * `inArray` binds one parameter per id, which Postgres parses and plans again for each count; the
 * sync pull reads up to a page of ids (1000) at once, where this is several times cheaper.
 */
export function idIn(column: PgColumn, ids: readonly number[]): SQL {
  return sql`${column} = any(${`{${ids.join(',')}}`}::bigint[])`;
}

/** A table whose rows are keyed by a bigint `id`. */
export type IdTable = PgTable & { id: PgColumn };

// Each helper below runs a statement on a generic table: drizzle cannot follow `$inferSelect`
// and `$inferInsert` through a generic table, so the rows are cast to what the table describes
// (a `returning()` or `select()` of a table is its whole row).

/**
 * Inserts `row` and returns it as saved.
 * @throws Error when the database returns no row (a broken invariant, not a caller's mistake).
 */
export async function insertRow<T extends IdTable>(
  db: Executor,
  table: T,
  row: T['$inferInsert'],
): Promise<T['$inferSelect']> {
  const [saved] = await db
    .insert(table as PgTable)
    .values(row as PgTable['$inferInsert'])
    .returning();
  if (!saved) throw new Error(`${getTableName(table)}: insert returned no row`);
  return saved as T['$inferSelect'];
}

/** Inserts `row` and returns it as saved; undefined when it conflicts with a row already there (a taken key). */
export async function insertRowUnlessTaken<T extends PgTable>(
  db: Executor,
  table: T,
  row: T['$inferInsert'],
): Promise<T['$inferSelect'] | undefined> {
  const [saved] = await db
    .insert(table as PgTable)
    .values(row as PgTable['$inferInsert'])
    .onConflictDoNothing()
    .returning();
  return saved as T['$inferSelect'] | undefined;
}

/**
 * Inserts `row` unless it conflicts with a row already there (its key was written before):
 * true when it was written, false when nothing was. Makes a repeated job step a no-op.
 */
export async function insertOnce<T extends PgTable>(
  db: Executor,
  table: T,
  row: T['$inferInsert'],
): Promise<boolean> {
  const saved = await db
    .insert(table as PgTable)
    .values(row as PgTable['$inferInsert'])
    .onConflictDoNothing()
    .returning({ written: sql`1` });
  return saved.length > 0;
}

/**
 * Inserts `row`, or when a row with the same `key` is there, sets `change` on it (an operator's
 * edit of a row keyed by its name: a setting, a calendar day, a team level, a quote); returns
 * the row as saved.
 * @throws Error when the database returns no row (a broken invariant).
 */
export async function upsertRow<T extends PgTable>(
  db: Executor,
  table: T,
  key: PgColumn,
  row: T['$inferInsert'],
  change: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect']> {
  const [saved] = await db
    .insert(table as PgTable)
    .values(row as PgTable['$inferInsert'])
    .onConflictDoUpdate({ target: key, set: change as Partial<PgTable['$inferInsert']> })
    .returning();
  if (!saved) throw new Error(`${getTableName(table)}: upsert returned no row`);
  return saved as T['$inferSelect'];
}

/** The first row of `table` matching `where`, if any; with `lock`, held until the transaction ends. */
async function firstRow<T extends PgTable>(
  db: Executor,
  table: T,
  where: SQL | undefined,
  lock: boolean,
): Promise<T['$inferSelect'] | undefined> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(where);
  const [row] = lock ? await query.for('update') : await query;
  return row as T['$inferSelect'] | undefined;
}

/** The row of `table` matching every condition, if any (the conditions name at most one row). */
export const rowWhere = <T extends PgTable>(db: Executor, table: T, ...conditions: SQL[]) =>
  firstRow(db, table, and(...conditions), false);

/** The row with this id, if any. */
export const findRow = <T extends IdTable>(db: Executor, table: T, id: number) =>
  firstRow(db, table, eq(table.id, id), false);

/** The row with this id, if any, locked for the rest of the transaction. */
export const lockRow = <T extends IdTable>(db: Executor, table: T, id: number) =>
  firstRow(db, table, eq(table.id, id), true);

/** Sets `change` on the rows of `table` matching every condition (a row keyed by more than an id). */
export async function updateWhere<T extends PgTable>(
  db: Executor,
  table: T,
  change: Partial<T['$inferInsert']>,
  ...conditions: SQL[]
): Promise<void> {
  await db
    .update(table as PgTable)
    .set(change as Partial<PgTable['$inferInsert']>)
    .where(and(...conditions));
}

/** Updates the row with this id and returns it; null when there is no such row. */
export async function updateRowIfAny<T extends IdTable>(
  db: Executor,
  table: T,
  id: number,
  change: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect'] | null> {
  const [saved] = await db
    .update(table as PgTable)
    .set(change as Partial<PgTable['$inferInsert']>)
    .where(eq(table.id, id))
    .returning();
  return (saved as T['$inferSelect'] | undefined) ?? null;
}

/**
 * Updates the row with this id, which the caller knows exists (it found or locked it), and
 * returns it.
 * @throws Error when there is no such row.
 */
export async function updateRow<T extends IdTable>(
  db: Executor,
  table: T,
  id: number,
  change: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect']> {
  const saved = await updateRowIfAny(db, table, id, change);
  if (saved === null) throw new Error(`${getTableName(table)}: no row ${id}`);
  return saved;
}

/**
 * The id-keyed statements of one table, typed to its rows: `insert`, `find`, `lock`, `update` (of
 * a row the caller found or locked) and `updateIfAny` (null when there is no such row).
 */
export function idRows<T extends IdTable>(table: T) {
  type Change = Partial<T['$inferInsert']>;
  return {
    insert: (db: Executor, row: T['$inferInsert']) => insertRow(db, table, row),
    find: (db: Executor, id: number) => findRow(db, table, id),
    lock: (db: Executor, id: number) => lockRow(db, table, id),
    update: (db: Executor, id: number, change: Change) => updateRow(db, table, id, change),
    updateIfAny: (db: Executor, id: number, change: Change) => updateRowIfAny(db, table, id, change),
  };
}

/** Where a page of rows starts: below `beforeId` when given (the last id of the page before), at most `limit`. */
export interface Page {
  beforeId?: number | undefined;
  limit: number;
}

/**
 * A page of the rows of `table`, newest (highest id) first, narrowed by each `filter` that is
 * not undefined (all rows when none is).
 */
export async function rowsNewestFirst<T extends IdTable>(
  db: Executor,
  table: T,
  page: Page,
  ...filters: (SQL | undefined)[]
): Promise<T['$inferSelect'][]> {
  const below = page.beforeId === undefined ? undefined : lt(table.id, page.beforeId);
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(and(...filters, below))
    .orderBy(desc(table.id))
    .limit(page.limit);
  return rows as T['$inferSelect'][];
}

/** `column = value` when `value` is given; undefined (no filter) when it is not. */
export function eqIfGiven<T>(column: PgColumn, value: T | undefined): SQL | undefined {
  return value === undefined ? undefined : eq(column, value);
}
