/**
 * How a feature registers its sync collections (CONTRACT.md "Sync"): per collection named in
 * contract/sync.ts, the reader of its current records by id within one scope (the scope itself is
 * declared in SYNC_COLLECTIONS; the cursor is the generic change log). The features' maps are
 * merged into one list (services/collections.ts): a collection registered twice, or one of the
 * contract with no reader, throws when the list is built, that is at the server's start.
 */
import { COLLECTION_NAMES, type CollectionName } from '../../contract/sync.js';
import type { Executor } from '../db/database.js';

/**
 * Reads the current records of `ids` (record ids from the change log) that `scopeId` may see:
 * 0 for a public collection, the user id or the account id for the others. An id not returned
 * is delivered as a delete.
 */
export type CollectionReader = (
  db: Executor,
  scopeId: number,
  ids: string[],
) => Promise<Array<{ id: string }>>;

/** Some collections' readers: what one feature registers. */
export type CollectionReaders = Readonly<Partial<Record<CollectionName, CollectionReader>>>;

/** Every collection's reader. */
export type SyncCollections = Readonly<Record<CollectionName, CollectionReader>>;

/** A feature's collections; names outside contract/sync.ts fail typecheck. */
export function defineCollections<const M extends CollectionReaders>(
  readers: M & Record<Exclude<keyof M, CollectionName>, never>,
): M {
  return readers;
}

/**
 * The one list from every feature's map.
 * @throws Error naming a collection registered twice, or one of contract/sync.ts with no reader.
 */
export function mergeCollections(...maps: CollectionReaders[]): SyncCollections {
  const merged: CollectionReaders & Record<string, CollectionReader> = {};
  for (const map of maps) {
    for (const [name, reader] of Object.entries(map)) {
      if (Object.hasOwn(merged, name)) throw new Error(`sync collection registered twice: ${name}`);
      merged[name] = reader;
    }
  }
  const missing = COLLECTION_NAMES.filter((name) => !Object.hasOwn(merged, name));
  if (missing.length > 0) throw new Error(`sync collection with no reader: ${missing.join(', ')}`);
  // Every name of COLLECTION_NAMES has a reader (checked just above).
  return merged as SyncCollections;
}

/** The ids that can be row ids (a change log's record ids are text). */
export const numericIds = (ids: string[]): number[] => ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
