/**
 * Hosting (issue 12, docs/protocol.md section 20). The products on offer are read from
 * /api/v1/hosting/hosting-config and kept in the user's database (`hostingConfig`), so the Hosting
 * tab shows them offline with their age. Orders, their changes and income are the synced
 * `hosting_orders`, `hosting_changes` and `income` collections, read by the UI from IndexedDB;
 * creating an order and changing one are the outbox commands `hosting-create` (sent only while
 * online: it carries the trade password) and `hosting-add`, `hosting-sub`, `hosting-redeem`
 * (queued offline, expired after an hour), sync/commands.ts.
 */
import { hostingConfigDataSchema } from '../../contract/api/hosting.js';
import { DEFAULT_LOCALE } from '../../contract/locales.js';
import type { Outcome } from '../../sync/ports.js';
import {
  DexieHostingConfigStore,
  type HostingConfigRecord,
  type HostingConfigStore,
} from '../../client-db/caches/hosting-config.js';
import type { HandlerDeps } from './deps.js';

type Failure = Exclude<Outcome<unknown>, { kind: 'ok' }>;

/**
 * What `hosting-config` came to:
 * - `ok`: the server's answer, now stored;
 * - `cached`: no answer came (offline, timeout, 5xx), the stored one is served instead;
 * - a refusal, or a transport failure with nothing stored.
 */
export type HostingConfigResult =
  | { kind: 'ok'; message: string; data: HostingConfigRecord }
  | { kind: 'cached'; data: HostingConfigRecord; failure: Extract<Failure, { kind: 'transport' }> }
  | Failure;

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
    async 'hosting-config'(): Promise<HostingConfigResult> {
      const asked = await session.getSession();
      const locale = (await session.getLocale()) ?? DEFAULT_LOCALE;
      const outcome = await api.read('/api/v1/hosting/hosting-config', hostingConfigDataSchema);
      if (outcome.kind === 'ok') {
        const fetchedAt = now().toISOString();
        const record: HostingConfigRecord = { ...outcome.data, id: 'current', locale, fetchedAt };
        // Stored only for the user who asked and is still logged in: a logout while the call was
        // out deleted the user's database, which a write would create again.
        const current = await session.getSession();
        if (asked !== null && current?.userId === asked.userId) {
          await store.put(asked.userId, outcome.data, locale, fetchedAt).catch(() => {
            // The tab then shows the answer only while it stays open; nothing else depends on the row.
          });
        }
        return { kind: 'ok', message: outcome.message, data: record };
      }
      if (outcome.kind === 'transport' && asked !== null) {
        const cached = await store.get(asked.userId).catch(() => null);
        if (cached !== null) return { kind: 'cached', data: cached, failure: outcome };
      }
      return outcome;
    },
  };
}
