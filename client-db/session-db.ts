/**
 * `coffer-session` (CONTRACT.md "The client's own storage"): the token, the active user, the
 * locale, and the account each user selected on this device.
 * The worker alone writes it (worker/session.ts); the UI reads it through `use-session.ts` for the
 * launch rule. Imports only Dexie: the first page loads it.
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

interface PreferenceRecord {
  id: 'prefs';
  /** The locale chosen by the user (zh-Hans, en, ...). */
  locale: string;
}

/** The account a user selected on this device (`account-select`); one row per user. */
interface ActiveAccountRecord {
  userId: string;
  accountId: string;
  selectedAt: string;
}

export type SessionDb = Dexie & {
  session: EntityTable<SessionRecord, 'id'>;
  prefs: EntityTable<PreferenceRecord, 'id'>;
  activeAccounts: EntityTable<ActiveAccountRecord, 'userId'>;
};

const SESSION_DB_NAME = 'coffer-session';

/** Opens the session database (both the worker and the UI open their own handle to it). */
export function openSessionDb(): SessionDb {
  const db = new Dexie(SESSION_DB_NAME) as SessionDb; // Dexie's documented typing pattern for declared tables
  // 2: `activeAccounts` added (a new table only: Dexie needs no upgrade function).
  db.version(2).stores({ session: 'id', prefs: 'id', activeAccounts: 'userId' });
  return db;
}
