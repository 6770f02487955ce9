/**
 * The outbox (CONTRACT.md "Exactly once"): commands the user makes while on- or offline. The
 * UI lists them from the `outbox` table of `coffer-u{user}` (useLiveQuery) and acts on them
 * here. Logout's local part lives here too: count first (to warn), then discard.
 */
import type { EnqueueInput } from '../commands.js';
import type { SyncEngine } from '../../sync/engine.js';

export function outboxHandlers(engine: SyncEngine, hooks: { beforeDiscard?: () => Promise<void> } = {}) {
  return {
    /**
     * Stores a command and returns `{kind: 'ok', id}` (the id is its Idempotency-Key), or a
     * refusal the UI can show: `outbox_full` (50 pending), `invalid_input` (field, message key),
     * `not_logged_in`, `offline` (a kind that cannot wait). Sending starts in the background.
     */
    async 'outbox-enqueue'(input: EnqueueInput) {
      return engine.enqueue(input);
    },

    /** Cancels a queued command; one being sent cannot be called back. */
    async 'outbox-cancel'({ id }: { id: string }) {
      return engine.cancel(id);
    },

    /** A rejected or expired command again, as a new command with a new key; returns its id. */
    async 'outbox-retry'({ id }: { id: string }) {
      return engine.retry(id);
    },

    /** Puts a rejected or expired command aside, so later commands on its resource go. */
    async 'outbox-dismiss'({ id }: { id: string }) {
      return engine.dismiss(id);
    },

    /** Sends what can be sent now, in this tab if it holds the lease. */
    async 'outbox-drain'() {
      return engine.drain();
    },

    /** Pending commands the logout would cancel (ask the user first when not 0). */
    async 'logout-pending-count'() {
      return engine.pendingCount();
    },

    /**
     * Stops the chat socket, cancels the pending commands and deletes the user's databases. Call
     * before `auth-logout` (which forgets who the user was).
     */
    async 'logout-discard'() {
      await hooks.beforeDiscard?.();
      return engine.discardUserData();
    },
  };
}
