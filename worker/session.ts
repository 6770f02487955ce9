/**
 * The worker's side of `coffer-session` (CONTRACT.md "The client's own storage"): the worker
 * alone writes it; the UI reads it live for the launch rule and relaunches at login when the
 * session disappears. Records are parsed on the way out (STYLE rule 5): a record another
 * version wrote in another shape counts as absent.
 */
import { z } from 'zod';
import { isLocale, type Locale } from '../contract/locales.js';
import type { ActiveAccountStore } from '../sync/ports.js';
import { openSessionDb, type SessionDb } from '../client-db/session-db.js';

export interface Session {
  token: string;
  userId: string;
  email: string;
}

/** The worker's session store; the sync engine runs on its `SyncSessionStore` part. */
export interface SessionStore extends ActiveAccountStore {
  /** The stored session, or null when logged out. */
  getSession(): Promise<Session | null>;
  getToken(): Promise<string | null>;
  /** Replaces the stored session. */
  saveSession(session: Session): Promise<void>;
  clearSession(): Promise<void>;
  /**
   * Clears the session only if it still holds `token`: a late 401 for an old token must not
   * log out a session made since. Atomic.
   */
  clearSessionIfToken(token: string): Promise<void>;
  /** The locale the user chose, or null when none was ever chosen. */
  getLocale(): Promise<Locale | null>;
  setLocale(locale: Locale): Promise<void>;
}

const sessionRecordSchema = z.object({
  id: z.literal('current'),
  token: z.string().min(1),
  userId: z.string(),
  email: z.string(),
  savedAt: z.string(),
});

const prefsRecordSchema = z.object({ id: z.literal('prefs'), locale: z.string() });
const activeAccountRecordSchema = z.object({
  userId: z.string(),
  accountId: z.string(),
  selectedAt: z.string(),
});

/** The session store over Dexie (IndexedDB in the browser, fake-indexeddb in tests). */
export class DexieSessionStore implements SessionStore {
  constructor(
    private readonly db: SessionDb = openSessionDb(),
    private readonly now: () => Date = () => new Date(),
  ) {}

  async getSession(): Promise<Session | null> {
    const parsed = sessionRecordSchema.safeParse(await this.db.session.get('current'));
    if (!parsed.success) return null;
    const { token, userId, email } = parsed.data;
    return { token, userId, email };
  }

  async getToken(): Promise<string | null> {
    return (await this.getSession())?.token ?? null;
  }

  async saveSession({ token, userId, email }: Session): Promise<void> {
    await this.db.session.put({ id: 'current', token, userId, email, savedAt: this.now().toISOString() });
  }

  async clearSession(): Promise<void> {
    await this.db.session.delete('current');
  }

  async clearSessionIfToken(token: string): Promise<void> {
    await this.db.transaction('rw', this.db.session, async () => {
      const current = await this.db.session.get('current');
      if (current?.token === token) await this.db.session.delete('current');
    });
  }

  async getLocale(): Promise<Locale | null> {
    const parsed = prefsRecordSchema.safeParse(await this.db.prefs.get('prefs'));
    return parsed.success && isLocale(parsed.data.locale) ? parsed.data.locale : null;
  }

  async setLocale(locale: Locale): Promise<void> {
    await this.db.prefs.put({ id: 'prefs', locale });
  }

  async getActiveAccount(userId: string): Promise<string | null> {
    const parsed = activeAccountRecordSchema.safeParse(await this.db.activeAccounts.get(userId));
    return parsed.success ? parsed.data.accountId : null;
  }

  async setActiveAccount(userId: string, accountId: string): Promise<void> {
    await this.db.activeAccounts.put({ userId, accountId, selectedAt: this.now().toISOString() });
  }

  async clearActiveAccount(userId: string): Promise<void> {
    await this.db.activeAccounts.delete(userId);
  }
}

/** The in-memory twin, for logic tests that need no IndexedDB. */
export class MemorySessionStore implements SessionStore {
  private session: Session | null = null;
  private locale: Locale | null = null;
  private readonly activeAccounts = new Map<string, string>();

  async getSession(): Promise<Session | null> {
    return this.session === null ? null : { ...this.session };
  }

  async getToken(): Promise<string | null> {
    return this.session?.token ?? null;
  }

  async saveSession(session: Session): Promise<void> {
    this.session = { token: session.token, userId: session.userId, email: session.email };
  }

  async clearSession(): Promise<void> {
    this.session = null;
  }

  async clearSessionIfToken(token: string): Promise<void> {
    if (this.session?.token === token) this.session = null;
  }

  async getLocale(): Promise<Locale | null> {
    return this.locale;
  }

  async setLocale(locale: Locale): Promise<void> {
    this.locale = locale;
  }

  async getActiveAccount(userId: string): Promise<string | null> {
    return this.activeAccounts.get(userId) ?? null;
  }

  async setActiveAccount(userId: string, accountId: string): Promise<void> {
    this.activeAccounts.set(userId, accountId);
  }

  async clearActiveAccount(userId: string): Promise<void> {
    this.activeAccounts.delete(userId);
  }
}
