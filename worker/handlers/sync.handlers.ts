/**
 * Sync: pull now (the UI calls it on focus and on "refresh"), the sync status for the "as of"
 * line and the stale badge, and starting the scheduler. Data itself is read by the UI from
 * IndexedDB (`client-db/`) with useLiveQuery, never through these handlers.
 */
import type { SyncEngine } from '../../sync/engine.js';

export function syncHandlers(engine: SyncEngine) {
  return {
    /**
     * Pulls the public, user and active account's collections until caught up, then the other
     * accounts not pulled in the last few minutes; returns the active pull's last summary.
     * Never throws.
     */
    async 'sync-pull'() {
      const summary = await engine.catchUp();
      await engine.pullOtherAccounts();
      return summary;
    },

    /**
     * `syncedAt` per collection (the account-scoped ones of the active account, named in
     * `accountId`), pending commands, whether a 401 paused the outbox.
     */
    async 'sync-status'() {
      return engine.status();
    },

    /**
     * Starts the scheduler (pull and drain now, on reconnect, every minute, after each enqueue).
     * Idempotent: call it once when the app starts; later calls do nothing.
     */
    async 'sync-start'() {
      engine.start();
      return engine.status();
    },

    /**
     * Before an app update reloads the page: stops this tab's syncing and resolves once none of
     * its commands is on the wire (the reload then never cuts a send).
     */
    async 'sync-quiesce'() {
      await engine.quiesce();
    },
  };
}
