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
import { DexieUserRowStore, type UserRowStore } from './one-row.js';

/** The one row's key. */
const HOSTING_CONFIG_ID = 'current';

const hostingConfigRecordSchema = hostingConfigDataSchema.extend({
  id: z.literal(HOSTING_CONFIG_ID),
  locale: z.string(),
  fetchedAt: isoTimeSchema,
});

/** The user's cached configuration. */
export type HostingConfigStore = UserRowStore<HostingConfigRecord>;

/** The cached configuration over IndexedDB. */
export class DexieHostingConfigStore extends DexieUserRowStore<HostingConfigRecord> {
  constructor() {
    super('hostingConfig', HOSTING_CONFIG_ID, (row) => {
      const parsed = hostingConfigRecordSchema.safeParse(row);
      return parsed.success ? parsed.data : null;
    });
  }
}

export type { HostingConfigRecord };
