/**
 * The one list of sync collections (server/services/collections.ts): every collection of
 * contract/sync.ts has exactly one reader, and building a list that misses one or names one
 * twice throws (at the server's start, never at the first pull).
 */
import { describe, expect, test } from 'vitest';
import { COLLECTION_NAMES } from '../../contract/sync.js';
import { syncCollections } from '../../server/services/collections.js';
import {
  defineCollections,
  mergeCollections,
  type CollectionReader,
} from '../../server/services/sync-collection.js';

const none: CollectionReader = async () => [];
const everyOne = () => Object.fromEntries(COLLECTION_NAMES.map((name) => [name, none]));

describe('sync collections', () => {
  test('the list has one reader per collection of the contract', () => {
    expect(Object.keys(syncCollections).sort()).toEqual([...COLLECTION_NAMES].sort());
  });

  test('a collection registered twice throws', () => {
    expect(() => mergeCollections(everyOne(), defineCollections({ news: none }))).toThrow(
      'sync collection registered twice: news',
    );
  });

  test('a collection of the contract with no reader throws', () => {
    const { quotes: _quotes, otc_book: _book, ...rest } = everyOne();
    expect(() => mergeCollections(rest)).toThrow('sync collection with no reader: quotes, otc_book');
  });

  test('a name outside the contract fails typecheck', () => {
    // @ts-expect-error `nope` is no collection of contract/sync.ts
    defineCollections({ nope: none });
  });
});
