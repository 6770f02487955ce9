/**
 * What the sync engine needs from storage, as interfaces (STYLE: storage behind an interface
 * with an in-memory twin). `dexie-storage.ts` implements them over IndexedDB, `memory-storage.ts`
 * in memory; both keep the same promises, which tests/sync checks on both.
 */
import type { CollectionName } from '../contract/sync.js';
import { isBlocking, isPending, type StoredRecord, type OutboxState } from './commands.js';
import type { CursorRecord, LeaseRecord, PauseRecord } from '../client-db/schema.js';

export interface CursorState {
  /** Null: no valid cursor stored, pull from the start. */
  cursor: string | null;
  syncedAt: string | null;
}

/** One collection's part of a pull page. */
export interface CollectionPage {
  name: CollectionName;
  /** The cursor the pull asked from: the page applies only while it is still the stored one. */
  basedOn: string | null;
  upserts: ReadonlyArray<{ id: string }>;
  deletes: readonly string[];
  /** The cursor after this page. */
  cursor: string;
}

export interface PageApplyResult {
  applied: CollectionName[];
  /** Collections another tab moved on meanwhile: nothing of theirs was written; pull again. */
  raced: CollectionName[];
}

/** One database's synced collections and their cursors. */
export interface SyncStore {
  readonly collections: readonly CollectionName[];
  /** The stored cursor of each of `collections` (absent or malformed: null). */
  readCursors(): Promise<Map<CollectionName, CursorState>>;
  /** Every stored record of one of `collections`, unparsed (the caller parses). Read-only. */
  readRecords(name: CollectionName): Promise<unknown[]>;
  /**
   * Writes every collection's upserts, deletes and new cursor in one transaction: all or
   * nothing. A collection whose stored cursor is no longer `basedOn` is skipped (`raced`).
   * `syncedAt` null keeps each collection's previous `syncedAt`. May throw a storage error,
   * after which nothing was written.
   */
  applyPage(pages: readonly CollectionPage[], syncedAt: string | null): Promise<PageApplyResult>;
}

export type AddResult = 'added' | 'full' | 'stale';

export interface OutboxStore {
  /**
   * Adds `record` (its `seq` is assigned here: the next one, or the superseded command's) unless
   * `limit` commands are pending already ('full'). With `supersedes`, the named command must be
   * in one of `states` and not yet retried ('stale' otherwise); it gets `retriedAs` in the same
   * transaction. Atomic across tabs.
   */
  add(
    record: StoredRecord,
    limit: number,
    supersedes?: { id: string; states: readonly OutboxState[] },
  ): Promise<AddResult>;
  get(id: string): Promise<StoredRecord | null>;
  /** Pending commands and the rejected ones still holding their resource back, in sending order. */
  active(): Promise<StoredRecord[]>;
  /** Every command, in sending order. */
  all(): Promise<StoredRecord[]>;
  countPending(): Promise<number>;
  /**
   * Replaces the command with `change(current)` only if it is in one of `from` states;
   * returns the new record, or null when it was not (compare-and-set, atomic across tabs).
   */
  transition(
    id: string,
    from: readonly OutboxState[],
    change: (current: StoredRecord) => StoredRecord,
  ): Promise<StoredRecord | null>;
  /** Marks every pending command cancelled in one transaction; returns how many. */
  cancelPending(nowMs: number): Promise<number>;
  /** Deletes settled commands (confirmed, cancelled, dismissed or retried) last changed before `beforeMs`. */
  prune(beforeMs: number): Promise<number>;
  readLease(): Promise<LeaseRecord | null>;
  /** Writes the lease `{owner, beatAtMs}` when `may(current)` holds; atomic. */
  claimLease(
    owner: string,
    beatAtMs: number,
    may: (current: LeaseRecord | null) => boolean,
  ): Promise<boolean>;
  readPause(): Promise<PauseRecord | null>;
  writePause(pause: PauseRecord | null): Promise<void>;
}

export interface UserStores {
  sync: SyncStore;
  outbox: OutboxStore;
}

/** Where every database of the engine lives. */
export interface SyncStorage {
  publicStore(): SyncStore;
  userStores(userId: string): UserStores;
  /** One account's collections (`coffer-u{user}-a{account}`). */
  accountStore(userId: string, accountId: string): SyncStore;
  /** Deletes every database of the user (`coffer-u{user}`, `coffer-u{user}-a*`). */
  deleteUser(userId: string): Promise<void>;
}

/** What a stored cursor row says (null or absent: no cursor, never synced). Pure. */
export function cursorStateOf(row: CursorRecord | null | undefined): CursorState {
  return { cursor: row?.cursor ?? null, syncedAt: row?.syncedAt ?? null };
}

/** One page `applyPage` writes, with the cursor row it leaves. */
export interface PageWrite {
  page: CollectionPage;
  cursor: CursorRecord;
}

/**
 * `applyPage`'s rule, for both stores: a page applies only while its collection's cursor (as
 * `stored` reads it, or as an earlier page of the same call leaves it) is still the page's
 * `basedOn`; else it is raced and nothing of it is written. An applied page's cursor row keeps
 * the previous `syncedAt` when `syncedAt` is null. The caller writes `writes` in one transaction
 * with its reads. Pure.
 */
export function planPages(
  pages: readonly CollectionPage[],
  syncedAt: string | null,
  stored: (name: CollectionName) => CursorRecord | null | undefined,
): { writes: PageWrite[]; result: PageApplyResult } {
  const planned = new Map<CollectionName, CursorRecord>();
  const writes: PageWrite[] = [];
  const result: PageApplyResult = { applied: [], raced: [] };
  for (const page of pages) {
    const before = planned.get(page.name) ?? stored(page.name);
    if ((before?.cursor ?? null) !== page.basedOn) {
      result.raced.push(page.name);
      continue;
    }
    const cursor = {
      collection: page.name,
      cursor: page.cursor,
      syncedAt: syncedAt ?? before?.syncedAt ?? null,
    };
    planned.set(page.name, cursor);
    writes.push({ page, cursor });
    result.applied.push(page.name);
  }
  return { writes, result };
}

/** Sending order: seq, then time of the action, then id. Pure. */
export function bySendingOrder(a: StoredRecord, b: StoredRecord): number {
  return a.seq - b.seq || a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** True for the commands `active()` returns. Pure. */
export function isActive(record: StoredRecord): boolean {
  return isPending(record) || isBlocking(record);
}

/** True for the commands `prune` may delete once old enough. Pure. */
export function isSettled(record: StoredRecord): boolean {
  if (record.state === 'confirmed' || record.state === 'cancelled') return true;
  return (
    (record.state === 'rejected' || record.state === 'expired') &&
    (record.dismissed || record.retriedAs !== null)
  );
}
