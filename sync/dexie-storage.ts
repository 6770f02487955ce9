/**
 * The sync engine's storage over IndexedDB (Dexie). Every read is parsed (STYLE rule 5): a row
 * another version wrote in another shape counts as absent. Every compare-and-set runs in one
 * read-write transaction, which IndexedDB serialises across tabs.
 */
import { Dexie, type Table } from 'dexie';
import { z } from 'zod';
import { cursorSchema, type CollectionName } from '../contract/sync.js';
import { PENDING_STATES, type CommandRegistry, type StoredRecord } from './commands.js';
import {
  ACCOUNT_COLLECTIONS,
  accountDbName,
  openAccountDb,
  openPublicDb,
  openUserDb,
  PUBLIC_COLLECTIONS,
  USER_COLLECTIONS,
  userDbName,
  type AccountDb,
  type CursorRecord,
  type LeaseRecord,
  type PauseRecord,
  type PublicDb,
  type UserDb,
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
} from './storage.js';

const cursorRecordSchema = z.object({
  collection: z.string(),
  cursor: cursorSchema,
  syncedAt: z.string().nullable(),
});
const leaseRecordSchema = z.object({ id: z.literal('lease'), owner: z.string(), beatAtMs: z.number() });
const pauseRecordSchema = z.object({ id: z.literal('pause'), token: z.string(), atMs: z.number() });

function parsedCursor(row: unknown): CursorRecord | null {
  const parsed = cursorRecordSchema.safeParse(row);
  return parsed.success ? parsed.data : null;
}

/** Parses a stored command by its kind's own schema (the registry's); null for any other row. */
type RecordParser = Pick<CommandRegistry, 'parseRecord'>;

function parsedRecords(rows: readonly unknown[], commands: RecordParser): StoredRecord[] {
  const records: StoredRecord[] = [];
  for (const row of rows) {
    const parsed = commands.parseRecord(row);
    if (parsed !== null) records.push(parsed);
  }
  return records.sort(bySendingOrder);
}

/** What every synced database has in common: its cursors table (collections are opened by name). */
type SyncedDb = Dexie & Pick<PublicDb & UserDb & AccountDb, 'cursors'>;

/** The synced collections of one database. */
export class DexieSyncStore implements SyncStore {
  constructor(
    private readonly db: SyncedDb,
    readonly collections: readonly CollectionName[],
  ) {}

  private table(name: CollectionName): Table<{ id: string }, string> {
    return this.db.table<{ id: string }, string>(name);
  }

  async readCursors(): Promise<Map<CollectionName, CursorState>> {
    const rows = await this.db.cursors.bulkGet([...this.collections]);
    return new Map(this.collections.map((name, index) => [name, cursorStateOf(parsedCursor(rows[index]))]));
  }

  async readRecords(name: CollectionName): Promise<unknown[]> {
    if (!this.collections.includes(name)) return [];
    return this.table(name).toArray();
  }

  async applyPage(pages: readonly CollectionPage[], syncedAt: string | null): Promise<PageApplyResult> {
    const tables = pages.map((page) => this.table(page.name));
    return this.db.transaction('rw', [this.db.cursors, ...tables], async () => {
      const names = pages.map((page) => page.name);
      const rows = await this.db.cursors.bulkGet(names);
      const { writes, result } = planPages(pages, syncedAt, (name) =>
        parsedCursor(rows[names.indexOf(name)]),
      );
      for (const { page, cursor } of writes) {
        const table = this.table(page.name);
        if (page.deletes.length > 0) await table.bulkDelete([...page.deletes]);
        if (page.upserts.length > 0) await table.bulkPut([...page.upserts]);
        await this.db.cursors.put(cursor);
      }
      return result;
    });
  }
}

/** The outbox, its lease and its pause row in `coffer-u{user}`. */
export class DexieOutboxStore implements OutboxStore {
  constructor(
    private readonly db: UserDb,
    private readonly commands: RecordParser,
  ) {}

  async add(
    record: StoredRecord,
    limit: number,
    supersedes?: { id: string; states: readonly StoredRecord['state'][] },
  ): Promise<AddResult> {
    return this.db.transaction('rw', this.db.outbox, async (): Promise<AddResult> => {
      const pending = await this.pendingRecords();
      if (pending.length >= limit) return 'full';
      let seq: number;
      if (supersedes) {
        const old = parsedRecords([await this.db.outbox.get(supersedes.id)], this.commands)[0];
        if (!old || !supersedes.states.includes(old.state) || old.retriedAs !== null) return 'stale';
        seq = old.seq;
        await this.db.outbox.put({ ...old, retriedAs: record.id, updatedAtMs: record.createdAtMs });
      } else {
        const last = await this.db.outbox.orderBy('seq').last();
        seq = (typeof last?.seq === 'number' ? last.seq : 0) + 1;
      }
      await this.db.outbox.add({ ...record, seq });
      return 'added';
    });
  }

  /** The commands still to be sent (queued or sending), parsed. */
  private async pendingRecords(): Promise<StoredRecord[]> {
    return parsedRecords(
      await this.db.outbox
        .where('state')
        .anyOf([...PENDING_STATES])
        .toArray(),
      this.commands,
    );
  }

  async get(id: string): Promise<StoredRecord | null> {
    return parsedRecords([await this.db.outbox.get(id)], this.commands)[0] ?? null;
  }

  async active(): Promise<StoredRecord[]> {
    const rows = await this.db.outbox.where('state').anyOf(['queued', 'sending', 'rejected']).toArray();
    return parsedRecords(rows, this.commands).filter(isActive);
  }

  async all(): Promise<StoredRecord[]> {
    return parsedRecords(await this.db.outbox.toArray(), this.commands);
  }

  async countPending(): Promise<number> {
    return (await this.pendingRecords()).length;
  }

  async transition(
    id: string,
    from: readonly StoredRecord['state'][],
    change: (current: StoredRecord) => StoredRecord,
  ): Promise<StoredRecord | null> {
    return this.db.transaction('rw', this.db.outbox, async () => {
      const current = parsedRecords([await this.db.outbox.get(id)], this.commands)[0];
      if (!current || !from.includes(current.state)) return null;
      const next = change(current);
      await this.db.outbox.put(next);
      return next;
    });
  }

  async cancelPending(nowMs: number): Promise<number> {
    return this.db.transaction('rw', this.db.outbox, async () => {
      const pending = await this.pendingRecords();
      await this.db.outbox.bulkPut(
        pending.map((record) => ({ ...record, state: 'cancelled' as const, updatedAtMs: nowMs })),
      );
      return pending.length;
    });
  }

  async prune(beforeMs: number): Promise<number> {
    return this.db.transaction('rw', this.db.outbox, async () => {
      const old = parsedRecords(await this.db.outbox.toArray(), this.commands).filter(
        (record) => isSettled(record) && record.updatedAtMs < beforeMs,
      );
      await this.db.outbox.bulkDelete(old.map((record) => record.id));
      return old.length;
    });
  }

  async readLease(): Promise<LeaseRecord | null> {
    const parsed = leaseRecordSchema.safeParse(await this.db.meta.get('lease'));
    return parsed.success ? parsed.data : null;
  }

  async claimLease(
    owner: string,
    beatAtMs: number,
    may: (current: LeaseRecord | null) => boolean,
  ): Promise<boolean> {
    return this.db.transaction('rw', this.db.meta, async () => {
      const parsed = leaseRecordSchema.safeParse(await this.db.meta.get('lease'));
      if (!may(parsed.success ? parsed.data : null)) return false;
      await this.db.meta.put({ id: 'lease', owner, beatAtMs });
      return true;
    });
  }

  async readPause(): Promise<PauseRecord | null> {
    const parsed = pauseRecordSchema.safeParse(await this.db.meta.get('pause'));
    return parsed.success ? parsed.data : null;
  }

  async writePause(pause: PauseRecord | null): Promise<void> {
    if (pause === null) await this.db.meta.delete('pause');
    else await this.db.meta.put(pause);
  }
}

/**
 * Every database over IndexedDB, one cached handle each. A handle Dexie closes (another
 * connection deleted its database) is dropped, so the next use opens a fresh one.
 */
export class DexieSyncStorage implements SyncStorage {
  private publicDb: PublicDb | null = null;
  private readonly userDbs = new Map<string, UserDb>();
  /** Keyed by `accountDbName(user, account)`. */
  private readonly accountDbs = new Map<string, AccountDb>();

  /**
   * `commands` parses each stored command by its kind (the worker's registry); `openers` replace
   * the default openers (tests hook into the handles they open).
   */
  constructor(
    private readonly commands: RecordParser,
    private readonly openers: { publicDb?: () => PublicDb; userDb?: (userId: string) => UserDb } = {},
  ) {}

  publicStore(): SyncStore {
    if (this.publicDb === null) {
      const db = (this.openers.publicDb ?? openPublicDb)();
      db.on('close', () => {
        if (this.publicDb === db) this.publicDb = null;
      });
      this.publicDb = db;
    }
    return new DexieSyncStore(this.publicDb, PUBLIC_COLLECTIONS);
  }

  private userDb(userId: string): UserDb {
    let db = this.userDbs.get(userId);
    if (db === undefined) {
      const opened = (this.openers.userDb ?? openUserDb)(userId);
      opened.on('close', () => {
        if (this.userDbs.get(userId) === opened) this.userDbs.delete(userId);
      });
      this.userDbs.set(userId, opened);
      db = opened;
    }
    return db;
  }

  userStores(userId: string) {
    const db = this.userDb(userId);
    return {
      sync: new DexieSyncStore(db, USER_COLLECTIONS),
      outbox: new DexieOutboxStore(db, this.commands),
    };
  }

  accountStore(userId: string, accountId: string): SyncStore {
    const name = accountDbName(userId, accountId);
    let db = this.accountDbs.get(name);
    if (db === undefined) {
      const opened = openAccountDb(userId, accountId);
      opened.on('close', () => {
        if (this.accountDbs.get(name) === opened) this.accountDbs.delete(name);
      });
      this.accountDbs.set(name, opened);
      db = opened;
    }
    return new DexieSyncStore(db, ACCOUNT_COLLECTIONS);
  }

  /** Closes every handle this storage opened (a later use opens them again). */
  close(): void {
    this.publicDb?.close();
    this.publicDb = null;
    for (const db of this.userDbs.values()) db.close();
    this.userDbs.clear();
    for (const db of this.accountDbs.values()) db.close();
    this.accountDbs.clear();
  }

  /** Deletes `coffer-u{user}` and every `coffer-u{user}-a*`, closing this storage's handles on them first. */
  async deleteUser(userId: string): Promise<void> {
    const db = this.userDbs.get(userId);
    this.userDbs.delete(userId);
    db?.close();
    const name = userDbName(userId);
    const accountPrefix = `${name}-a`;
    // The account databases this storage opened, and (where the browser lists databases) every other one.
    const doomed = new Set<string>([name]);
    for (const [accountName, accountDb] of [...this.accountDbs]) {
      if (!accountName.startsWith(accountPrefix)) continue;
      this.accountDbs.delete(accountName);
      accountDb.close();
      doomed.add(accountName);
    }
    for (const other of await Dexie.getDatabaseNames())
      if (other.startsWith(accountPrefix)) doomed.add(other);
    for (const candidate of doomed) await Dexie.delete(candidate);
  }
}
