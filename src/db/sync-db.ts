/**
 * The UI's read handles on the synced databases (`coffer-public`, `coffer-u{user}`), one per
 * database for the page's life, read with useLiveQuery. Only the worker writes them.
 * This module loads zod (through the collections' schemas): import it from lazy pages only,
 * never from a module the login page imports.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { openPublicDb, openUserDb, type PublicDb, type UserDb } from '../../sync/databases.js';
import { oldestSync } from '../ui/freshness.js';
import { useSession } from './use-session.js';

let publicDb: PublicDb | undefined;
const userDbs = new Map<string, UserDb>();

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
export function userDatabase(userId: string): UserDb {
  let db = userDbs.get(userId);
  if (db === undefined || db.hasBeenClosed()) {
    closeUserDatabases();
    db = openUserDb(userId);
    userDbs.set(userId, db);
  }
  return db;
}

/** Closes the UI's handles on user databases (before logout deletes them). */
export function closeUserDatabases(): void {
  for (const db of userDbs.values()) db.close();
  userDbs.clear();
}

/** The logged-in user's database, or null while the session loads or when logged out. */
export function useUserDb(): UserDb | null {
  const session = useSession();
  const userId = session?.userId ?? null;
  return userId === null ? null : userDatabase(userId);
}

/**
 * When the given collections of a database were all last caught up: the oldest `syncedAt`,
 * null when one was never pulled, undefined while loading.
 */
export function useSyncedAt(
  db: PublicDb | UserDb | null,
  collections: readonly string[],
): string | null | undefined {
  const key = collections.join(',');
  return useLiveQuery(
    async () => {
      if (db === null) return null;
      const rows = await db.cursors.bulkGet(key.split(','));
      return oldestSync(rows.map((row) => row?.syncedAt ?? null));
    },
    [db, key],
    undefined,
  );
}
