/**
 * The RAB/USDT exchange. What an exchange can do now (the price and its version, the
 * fee rate, the bounds) is read from the server each time and kept nowhere: a price is only
 * worth quoting while it is current, and the server refuses any other version anyway. The
 * exchange itself is the outbox command `exchange-submit` (exchange.commands.ts: sent only while
 * online, expired after a minute); the records are the synced `exchanges` collection, read by
 * the UI from IndexedDB, so they show offline.
 */
import { exchangeIndexDataSchema } from '../../contract/api/exchange.js';
import type { HandlerDeps } from './deps.js';

export function exchangeHandlers({ api }: Pick<HandlerDeps, 'api'>) {
  return {
    /**
     * /api/v1/exchange/index: the account's available RAB and USDT, the RAB price with its
     * `priceVersion`, the fee rate and the bounds of an amount. Never throws; offline it is a
     * transport failure (nothing is cached).
     */
    async 'exchange-index'({ accountId }: { accountId: string }) {
      return api.read('/api/v1/exchange/index', exchangeIndexDataSchema, { accountId });
    },
  };
}
