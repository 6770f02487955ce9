/**
 * `coffer-session` (CONTRACT.md "The client's own storage"): the token and the active user.
 * Owned by the worker, which alone writes it; the UI reads it for the launch rule.
 */
import { Dexie, type EntityTable } from 'dexie';

export interface SessionRecord {
  /** Always 'current': one session per browser profile. */
  id: 'current';
  token: string;
  userId: string;
  email: string;
  savedAt: string;
}

export interface PreferenceRecord {
  id: 'prefs';
  /** The locale chosen by the user (zh-Hans, en, ...). */
  locale: string;
}

export type SessionDb = Dexie & {
  session: EntityTable<SessionRecord, 'id'>;
  prefs: EntityTable<PreferenceRecord, 'id'>;
};

export const SESSION_DB_NAME = 'coffer-session';

/** Opens the session database (both the worker and the UI open their own handle to it). */
export function openSessionDb(): SessionDb {
  const db = new Dexie(SESSION_DB_NAME) as SessionDb; // Dexie's documented typing pattern for declared tables
  db.version(1).stores({ session: 'id', prefs: 'id' });
  return db;
}
