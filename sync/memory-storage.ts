/**
 * The in-memory twin of `dexie-storage.ts`, for logic tests that need no IndexedDB. Records are
 * copied in and out (structured clone, as IndexedDB does), so a caller's later change to an
 * object never reaches the store. Two engines sharing one MemorySyncStorage behave like two tabs.
 */
import type { CollectionName } from '../contract/sync.js';
import { isPending, type StoredRecord, type OutboxState } from './commands.js';
import {
  ACCOUNT_COLLECTIONS,
  PUBLIC_COLLECTIONS,
  USER_COLLECTIONS,
  accountDbName,
  userDbName,
  type CursorRecord,
  type LeaseRecord,
  type PauseRecord,
} from '../client-db/schema.js';
import {
  bySendingOrder,
  cursorStateOf,
  isActive,
  isSettled,
  planPages,
  type AddResult,
  type CollectionPage,
  type CursorState,
  type OutboxStore,
  type PageApplyResult,
  type SyncStorage,
  type SyncStore,
  type UserStores,
} from './storage.js';

const copy = <T>(value: T): T => structuredClone(value);

/** One database's synced collections, in memory. */
export class MemorySyncStore implements SyncStore {
  readonly tables = new Map<CollectionName, Map<string, { id: string }>>();
  readonly cursors = new Map<CollectionName, CursorRecord>();

  constructor(readonly collections: readonly CollectionName[]) {
    for (const name of collections) this.tables.set(name, new Map());
  }

  async readCursors(): Promise<Map<CollectionName, CursorState>> {
    return new Map(this.collections.map((name) => [name, cursorStateOf(this.cursors.get(name))]));
  }

  async readRecords(name: CollectionName): Promise<unknown[]> {
    return [...(this.tables.get(name)?.values() ?? [])].map(copy);
  }

  async applyPage(pages: readonly CollectionPage[], syncedAt: string | null): Promise<PageApplyResult> {
    // Everything is checked before anything is written, so a throw leaves no trace.
    for (const page of pages) {
      if (!this.tables.has(page.name)) throw new Error(`no table ${page.name} in this database`);
    }
    const { writes, result } = planPages(pages, syncedAt, (name) => this.cursors.get(name));
    for (const { page, cursor } of writes) {
      const table = this.tables.get(page.name) ?? new Map<string, { id: string }>();
      for (const id of page.deletes) table.delete(id);
      for (const record of page.upserts) table.set(record.id, copy(record));
      this.cursors.set(page.name, cursor);
    }
    return result;
  }
}

/** The outbox, its lease and its pause row, in memory. */
export class MemoryOutboxStore implements OutboxStore {
  readonly records = new Map<string, StoredRecord>();
  private lease: LeaseRecord | null = null;
  private pause: PauseRecord | null = null;

  private sorted(): StoredRecord[] {
    return [...this.records.values()].map(copy).sort(bySendingOrder);
  }

  async add(
    record: StoredRecord,
    limit: number,
    supersedes?: { id: string; states: readonly OutboxState[] },
  ): Promise<AddResult> {
    if ((await this.countPending()) >= limit) return 'full';
    let seq: number;
    if (supersedes) {
      const old = this.records.get(supersedes.id);
      if (!old || !supersedes.states.includes(old.state) || old.retriedAs !== null) return 'stale';
      seq = old.seq;
      this.records.set(old.id, { ...old, retriedAs: record.id, updatedAtMs: record.createdAtMs });
    } else {
      seq = Math.max(0, ...[...this.records.values()].map((item) => item.seq)) + 1;
    }
    this.records.set(record.id, copy({ ...record, seq }));
    return 'added';
  }

  async get(id: string): Promise<StoredRecord | null> {
    const record = this.records.get(id);
    return record ? copy(record) : null;
  }

  async active(): Promise<StoredRecord[]> {
    return this.sorted().filter(isActive);
  }

  async all(): Promise<StoredRecord[]> {
    return this.sorted();
  }

  async countPending(): Promise<number> {
    return [...this.records.values()].filter((record) => isPending(record)).length;
  }

  async transition(
    id: string,
    from: readonly OutboxState[],
    change: (current: StoredRecord) => StoredRecord,
  ): Promise<StoredRecord | null> {
    const current = this.records.get(id);
    if (!current || !from.includes(current.state)) return null;
    const next = copy(change(copy(current)));
    this.records.set(id, next);
    return copy(next);
  }

  async cancelPending(nowMs: number): Promise<number> {
    let count = 0;
    for (const record of this.records.values()) {
      if (record.state === 'queued' || record.state === 'sending') {
        this.records.set(record.id, { ...record, state: 'cancelled', updatedAtMs: nowMs });
        count++;
      }
    }
    return count;
  }

  async prune(beforeMs: number): Promise<number> {
    let count = 0;
    for (const record of [...this.records.values()]) {
      if (isSettled(record) && record.updatedAtMs < beforeMs) {
        this.records.delete(record.id);
        count++;
      }
    }
    return count;
  }

  async readLease(): Promise<LeaseRecord | null> {
    return this.lease ? { ...this.lease } : null;
  }

  async claimLease(
    owner: string,
    beatAtMs: number,
    may: (current: LeaseRecord | null) => boolean,
  ): Promise<boolean> {
    if (!may(this.lease ? { ...this.lease } : null)) return false;
    this.lease = { id: 'lease', owner, beatAtMs };
    return true;
  }

  async readPause(): Promise<PauseRecord | null> {
    return this.pause ? { ...this.pause } : null;
  }

  async writePause(pause: PauseRecord | null): Promise<void> {
    this.pause = pause ? { ...pause } : null;
  }
}

/** Every database in memory; `deleteUser` forgets the user's, account databases included. */
export class MemorySyncStorage implements SyncStorage {
  readonly public = new MemorySyncStore(PUBLIC_COLLECTIONS);
  readonly users = new Map<string, UserStores & { sync: MemorySyncStore; outbox: MemoryOutboxStore }>();
  /** Keyed by `accountDbName(user, account)`. */
  readonly accounts = new Map<string, MemorySyncStore>();

  publicStore(): SyncStore {
    return this.public;
  }

  userStores(userId: string): UserStores & { sync: MemorySyncStore; outbox: MemoryOutboxStore } {
    let stores = this.users.get(userId);
    if (stores === undefined) {
      stores = { sync: new MemorySyncStore(USER_COLLECTIONS), outbox: new MemoryOutboxStore() };
      this.users.set(userId, stores);
    }
    return stores;
  }

  accountStore(userId: string, accountId: string): MemorySyncStore {
    const name = accountDbName(userId, accountId);
    let store = this.accounts.get(name);
    if (store === undefined) {
      store = new MemorySyncStore(ACCOUNT_COLLECTIONS);
      this.accounts.set(name, store);
    }
    return store;
  }

  async deleteUser(userId: string): Promise<void> {
    this.users.delete(userId);
    const prefix = `${userDbName(userId)}-a`;
    for (const name of [...this.accounts.keys()]) if (name.startsWith(prefix)) this.accounts.delete(name);
  }
}
