/**
 * The Hosting tab's cached products: the local `hostingConfig` table of `coffer-u{user}`
 * (`schema.ts`), one row. The worker alone writes it, through `hosting-config`; the UI
 * reads it live, so the tab shows the products offline with their age. The row is parsed on the
 * way out (STYLE rule 5): a row of another shape counts as absent.
 */
import { hostingConfigDataSchema } from '../../contract/api/hosting.js';
import { isoTimeSchema } from '../../contract/schema.js';
import { z } from 'zod';
import type { HostingConfigRecord } from '../schema.js';
import { userDbHandles } from './handles.js';

/** The one row's key. */
const HOSTING_CONFIG_ID = 'current';

const hostingConfigRecordSchema = hostingConfigDataSchema.extend({
  id: z.literal(HOSTING_CONFIG_ID),
  locale: z.string(),
  fetchedAt: isoTimeSchema,
});

export interface HostingConfigStore {
  /** The user's cached configuration, or null when none (or an unreadable row) is stored. */
  get(userId: string): Promise<HostingConfigRecord | null>;
  /** Replaces the cached configuration. May throw a storage error. */
  put(userId: string, record: HostingConfigRecord): Promise<void>;
}

/** Over IndexedDB, one handle per user database, replaced once Dexie closed it (logout deletes it). */
export class DexieHostingConfigStore implements HostingConfigStore {
  private readonly db = userDbHandles();

  async get(userId: string): Promise<HostingConfigRecord | null> {
    const parsed = hostingConfigRecordSchema.safeParse(
      await this.db(userId).hostingConfig.get(HOSTING_CONFIG_ID),
    );
    return parsed.success ? parsed.data : null;
  }

  async put(userId: string, record: HostingConfigRecord): Promise<void> {
    await this.db(userId).hostingConfig.put(record);
  }
}

export type { HostingConfigRecord };
