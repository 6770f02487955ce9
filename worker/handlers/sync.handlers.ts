/**
 * Sync: pull now (the UI calls it on focus and on "refresh"), the sync status for the "as of"
 * line and the stale badge, and starting the scheduler. Data itself is read by the UI from
 * IndexedDB (`sync/databases.ts`) with useLiveQuery, never through these handlers.
 */
import type { SyncEngine } from '../../sync/engine.js';

export function syncHandlers(engine: SyncEngine) {
  return {
    /** Pulls every collection the session may read until caught up; returns the last pull's summary. Never throws. */
    async 'sync-pull'() {
      return engine.catchUp();
    },

    /** `syncedAt` per collection, pending commands, whether a 401 paused the outbox. */
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
