/**
 * Withdrawals. The terms of a withdrawal now are read from the server each time and
 * kept nowhere: the window, the limits and the lock change by the minute, and an old answer
 * would promise what the server then refuses. The withdrawal itself is the outbox command
 * `withdraw-create` (withdraw.commands.ts: sent only while online, expired after a minute); the
 * records are the synced `withdrawals` collection, read by the UI from IndexedDB.
 */
import { withdrawIndexDataSchema } from '../../contract/api/withdraw.js';
import type { HandlerDeps } from './deps.js';

export interface WithdrawIndexInput {
  accountId: string;
  /** The method the user chose: the answer then says whether it is usable yet. */
  methodId?: string;
}

export function withdrawHandlers({ api }: Pick<HandlerDeps, 'api'>) {
  return {
    /**
     * /api/v1/withdraw/index: the account's available cash, the fee, minimum, daily limit and
     * what remains of it, the maximum, the window, the security lock, whether the trade password
     * and the authenticator are set, and the chosen method's usability. Never throws; offline it
     * is a transport failure (nothing is cached).
     */
    async 'withdraw-index'({ accountId, methodId }: WithdrawIndexInput) {
      return api.read(
        '/api/v1/withdraw/index',
        withdrawIndexDataSchema,
        methodId === undefined ? { accountId } : { accountId, methodId },
      );
    },
  };
}
