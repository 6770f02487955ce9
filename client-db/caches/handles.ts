/**
 * The handles the worker's local caches write through: one per database, opened on first use and
 * opened again once Dexie closed it (logout deletes the user's databases under open handles, and
 * a closed handle would fail every later call).
 */
import type { Dexie } from 'dexie';
import {
  accountDbName,
  openAccountDb,
  openUserDb,
  userDbName,
  type AccountDb,
  type UserDb,
} from '../schema.js';

/** A getter of handles on one kind of database, each kept by the database's name. */
function reopening<K extends string[], D extends Dexie>(
  nameOf: (...key: K) => string,
  open: (...key: K) => D,
): (...key: K) => D {
  const handles = new Map<string, D>();
  return (...key) => {
    const name = nameOf(...key);
    let db = handles.get(name);
    if (db === undefined || db.hasBeenClosed()) {
      db = open(...key);
      handles.set(name, db);
    }
    return db;
  };
}

/** Handles on `coffer-u{user}`, one per user. */
export function userDbHandles(): (userId: string) => UserDb {
  return reopening(userDbName, openUserDb);
}

/** Handles on `coffer-u{user}-a{account}`, one per account. */
export function accountDbHandles(): (userId: string, accountId: string) => AccountDb {
  return reopening(accountDbName, openAccountDb);
}
