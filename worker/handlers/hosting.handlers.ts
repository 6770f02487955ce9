/**
 * Hosting (docs/protocol.md section 20). The products on offer are read from
 * /api/v1/hosting/hosting-config and kept in the user's database (`hostingConfig`), so the Hosting
 * tab shows them offline with their age. Orders, their changes and income are the synced
 * `hosting_orders`, `hosting_changes` and `income` collections, read by the UI from IndexedDB;
 * creating an order and changing one are the outbox commands `hosting-create` (sent only while
 * online: it carries the trade password) and `hosting-add`, `hosting-sub`, `hosting-redeem`
 * (queued offline, expired after an hour), hosting.commands.ts.
 */
import { hostingConfigDataSchema } from '../../contract/api/hosting.js';
import { DEFAULT_LOCALE } from '../../contract/locales.js';
import {
  DexieHostingConfigStore,
  type HostingConfigRecord,
  type HostingConfigStore,
} from '../../client-db/caches/hosting-config.js';
import { readCached, type CachedResult } from './cached-read.js';
import type { HandlerDeps } from './deps.js';

export function hostingHandlers(
  { api, session }: Pick<HandlerDeps, 'api' | 'session'>,
  store: HostingConfigStore = new DexieHostingConfigStore(),
  now: () => Date = () => new Date(),
) {
  return {
    /**
     * The products on offer (names in the user's language), the valid-hosting threshold and the
     * business time zone, from /api/v1/hosting/hosting-config, stored for offline use with the
     * language they are in. Never throws: a failure to store still returns the answer.
     */
    async 'hosting-config'(): Promise<CachedResult<HostingConfigRecord>> {
      const locale = (await session.getLocale()) ?? DEFAULT_LOCALE;
      const read = () => api.read('/api/v1/hosting/hosting-config', hostingConfigDataSchema);
      return readCached(session, now, read, {
        record: (data, fetchedAt): HostingConfigRecord => ({ ...data, id: 'current', locale, fetchedAt }),
        keep: (userId, record) => store.put(userId, record),
        kept: (userId) => store.get(userId),
      });
    },
  };
}
