/** Live reads of `coffer-session` for the launch rule, guards and the 401 relaunch. */
import { useLiveQuery } from 'dexie-react-hooks';
import { openSessionDb, type SessionRecord } from './session-db.js';

const db = openSessionDb();

/** The stored session: undefined while loading, null when logged out. */
export function useSession(): SessionRecord | null | undefined {
  return useLiveQuery(async () => (await db.session.get('current')) ?? null, [], undefined);
}

/** The stored session read now, bypassing the live query (which may lag a write by the worker). */
export async function readStoredSession(): Promise<SessionRecord | null> {
  return (await db.session.get('current')) ?? null;
}

/**
 * The account `userId` selected on this device (`account-select`), or null. Inside a live query
 * (see `useActiveAccount` in `use-sync-db.ts`) the read is observed, so a new selection re-runs it.
 */
export async function selectedAccountOf(userId: string): Promise<string | null> {
  return (await db.activeAccounts.get(userId))?.accountId ?? null;
}

/** The stored locale preference, read once at start. */
export async function storedLocale(): Promise<string | undefined> {
  try {
    return (await db.prefs.get('prefs'))?.locale;
  } catch {
    return undefined; // private mode without IndexedDB: fall back to the browser's language
  }
}
