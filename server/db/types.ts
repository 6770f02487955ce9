/** The database's types, apart from the code that opens it, so that both it and read routing can name them. */
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

export type Schema = typeof schema;
/**
 * Without Drizzle's relational query API (`db.query.*`, which nothing uses): given the schema,
 * Drizzle builds a query builder per table for every transaction and savepoint it opens, about
 * 35 us of the Node process's time per transaction (docs/protocol.md, the ledger's speed).
 */
type NoRelations = Record<string, never>;
export type Database = PgDatabase<PgQueryResultHKT, NoRelations, ExtractTablesWithRelations<NoRelations>>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  NoRelations,
  ExtractTablesWithRelations<NoRelations>
>;
/** Anything a repository can run SQL on: the database or an open transaction. */
export type Executor = Database | Transaction;
