/**
 * Accounts and money (CONTRACT.md "Identity and accounts"). The UI reads accounts, balances and
 * wallet records from IndexedDB (`client-db/use-sync-db.ts`); money commands go through the outbox
 * (`outbox-enqueue` with `account-transfer`, `account-create`, `account-switch`). Here: the
 * device's own choice of account, and the rarely needed live valuation.
 */
import { assetsDataSchema } from '../../contract/api/account.js';
import type { SyncEngine } from '../../sync/engine.js';
import type { HandlerDeps } from './deps.js';

export function accountHandlers({ api }: HandlerDeps, engine: SyncEngine) {
  return {
    /**
     * Makes `accountId` the account this device shows and pulls first (stored in
     * `coffer-session`; the server's default is untouched, see `account-switch`), then pulls it
     * at once. `{kind: 'ok', accountId, pull}`, or refused: `not_logged_in`, `unknown_account`
     * (not among the synced accounts).
     */
    async 'account-select'({ accountId }: { accountId: string }) {
      return engine.selectAccount(accountId);
    },

    /** The active account's id, or null when logged out or none is synced yet. */
    async 'account-active'() {
      return engine.activeAccount();
    },

    /**
     * One account's balances valued in USDT at the operator's RAB price, from the server now.
     * Rarely needed: the synced `balances` and `prices` hold the same figures offline.
     */
    async 'user-assets'({ accountId }: { accountId: string }) {
      return api.read('/api/v1/user/assets', assetsDataSchema, { accountId });
    },
  };
}
