/**
 * The Hosting tab's cached products: the local `hostingConfig` table of `coffer-u{user}`
 * (sync/databases.ts), one row. The worker alone writes it, through `hosting-config`; the UI
 * reads it live, so the tab shows the products offline with their age. The row is parsed on the
 * way out (STYLE rule 5): a row of another shape counts as absent.
 */
import { hostingConfigDataSchema, type HostingConfigData } from '../contract/api/hosting.js';
import { isoTimeSchema } from '../contract/schema.js';
import { z } from 'zod';
import { openUserDb, userDbName, type HostingConfigRecord, type UserDb } from '../sync/databases.js';

/** The one row's key. */
export const HOSTING_CONFIG_ID = 'current';

export const hostingConfigRecordSchema = hostingConfigDataSchema.extend({
  id: z.literal(HOSTING_CONFIG_ID),
  locale: z.string(),
  fetchedAt: isoTimeSchema,
});

export interface HostingConfigStore {
  /** The user's cached configuration, or null when none (or an unreadable row) is stored. */
  get(userId: string): Promise<HostingConfigRecord | null>;
  /** Replaces the cached configuration. May throw a storage error. */
  put(
    userId: string,
    data: HostingConfigData,
    locale: string,
    fetchedAt: string,
  ): Promise<HostingConfigRecord>;
}

/** Over IndexedDB, one handle per user database, replaced once Dexie closed it (logout deletes it). */
export class DexieHostingConfigStore implements HostingConfigStore {
  private readonly handles = new Map<string, UserDb>();

  private db(userId: string): UserDb {
    const name = userDbName(userId);
    let db = this.handles.get(name);
    if (db === undefined || db.hasBeenClosed()) {
      db = openUserDb(userId);
      this.handles.set(name, db);
    }
    return db;
  }

  async get(userId: string): Promise<HostingConfigRecord | null> {
    const parsed = hostingConfigRecordSchema.safeParse(
      await this.db(userId).hostingConfig.get(HOSTING_CONFIG_ID),
    );
    return parsed.success ? parsed.data : null;
  }

  async put(
    userId: string,
    data: HostingConfigData,
    locale: string,
    fetchedAt: string,
  ): Promise<HostingConfigRecord> {
    const record: HostingConfigRecord = { ...data, id: HOSTING_CONFIG_ID, locale, fetchedAt };
    await this.db(userId).hostingConfig.put(record);
    return record;
  }

  /** Closes every handle this store opened (a later use opens them again). */
  close(): void {
    for (const db of this.handles.values()) db.close();
    this.handles.clear();
  }
}

export type { HostingConfigRecord };
