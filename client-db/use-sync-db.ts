/**
 * The UI's read handles on the synced databases (`coffer-public`, `coffer-u{user}`,
 * `coffer-u{user}-a{account}`), one per database for the page's life, read with useLiveQuery.
 * Only the worker writes them.
 * This module loads zod (through the collections' schemas): import it from lazy pages only,
 * never from a module the login page imports.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { activeAccountOf } from './active-account.js';
import {
  accountDbName,
  openAccountDb,
  openPublicDb,
  openUserDb,
  type AccountDb,
  type PublicDb,
  type UserDb,
} from './schema.js';
import { oldestSync } from './freshness.js';
import type { OutboxRecord } from '../worker/commands.js';
import { selectedAccountOf, useSession } from './use-session.js';

/** The account the money screens show, and whose user it belongs to. */
export interface ActiveAccount {
  userId: string;
  accountId: string;
}

let publicDb: PublicDb | undefined;
const userDbs = new Map<string, UserDb<OutboxRecord>>();
/** Keyed by `accountDbName(user, account)`. */
const accountDbs = new Map<string, AccountDb>();

/** The shared handle on `coffer-public`. */
export function publicDatabase(): PublicDb {
  publicDb ??= openPublicDb();
  return publicDb;
}

/**
 * The shared handle on `coffer-u{userId}`. Logout deletes the user's databases under open handles
 * (Dexie closes them for the deletion), so a closed handle is replaced, and handles on other
 * users' databases are closed: one user's data is never read under another's session.
 */
export function userDatabase(userId: string): UserDb<OutboxRecord> {
  let db = userDbs.get(userId);
  if (db === undefined || db.hasBeenClosed()) {
    for (const other of userDbs.values()) other.close();
    userDbs.clear();
    db = openUserDb<OutboxRecord>(userId);
    userDbs.set(userId, db);
  }
  return db;
}

/**
 * The shared handle on `coffer-u{userId}-a{accountId}`. A closed handle is replaced; handles on
 * other users' account databases are closed, as for `userDatabase`.
 */
export function accountDatabase(userId: string, accountId: string): AccountDb {
  const name = accountDbName(userId, accountId);
  let db = accountDbs.get(name);
  if (db === undefined || db.hasBeenClosed()) {
    const ownPrefix = `${accountDbName(userId, '')}`;
    for (const [other, handle] of [...accountDbs]) {
      if (other.startsWith(ownPrefix)) continue;
      handle.close();
      accountDbs.delete(other);
    }
    db = openAccountDb(userId, accountId);
    accountDbs.set(name, db);
  }
  return db;
}

/** Closes the UI's handles on user and account databases (before logout deletes them). */
export function closeUserDatabases(): void {
  for (const db of userDbs.values()) db.close();
  userDbs.clear();
  for (const db of accountDbs.values()) db.close();
  accountDbs.clear();
}

/** The logged-in user's database, or null while the session loads or when logged out. */
export function useUserDb(): UserDb<OutboxRecord> | null {
  const session = useSession();
  const userId = session?.userId ?? null;
  return userId === null ? null : userDatabase(userId);
}

/**
 * The active account, live: the one selected on this device (`account-select`) while it is among
 * the synced accounts, else the default one, else the main one (`active-account.ts`, the
 * rule the worker pulls by). Undefined while loading; null when logged out or before the
 * accounts were first synced.
 */
export function useActiveAccount(): ActiveAccount | null | undefined {
  const session = useSession();
  const userId = session?.userId ?? null;
  const accountId = useLiveQuery(
    async () => {
      if (userId === null) return null;
      const [selected, accounts] = await Promise.all([
        selectedAccountOf(userId),
        userDatabase(userId).accounts.toArray(),
      ]);
      return activeAccountOf(selected, accounts);
    },
    [userId],
    undefined,
  );
  if (session === undefined || accountId === undefined) return undefined;
  if (userId === null || accountId === null) return null;
  return { userId, accountId };
}

/**
 * When the given collections of `db` were all last caught up: the oldest `syncedAt`, null when
 * one was never pulled. Inside a live query, or a transaction that includes `cursors`.
 */
export async function syncedAtOf(
  db: PublicDb | UserDb<OutboxRecord> | AccountDb,
  collections: readonly string[],
): Promise<string | null> {
  const rows = await db.cursors.bulkGet([...collections]);
  return oldestSync(rows.map((row) => row?.syncedAt ?? null));
}

/**
 * When the given collections of a database were all last caught up (`syncedAtOf`), undefined
 * while loading.
 */
export function useSyncedAt(
  db: PublicDb | UserDb<OutboxRecord> | AccountDb | null,
  collections: readonly string[],
): string | null | undefined {
  const key = collections.join(',');
  return useLiveQuery(
    async () => {
      if (db === null) return null;
      return syncedAtOf(db, key.split(','));
    },
    [db, key],
    undefined,
  );
}
