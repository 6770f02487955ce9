/**
 * The OTC market. What the market allows now (the guide price and its band, the fee
 * rates, the minimum, the account's available money) is read from the server each time and kept
 * nowhere, as the exchange's price is: a band is only worth showing while it is current, and the
 * server checks every listing against its own. The book and the account's orders are the synced
 * `otc_book` and `otc_orders` collections, read by the UI from IndexedDB, so they show offline;
 * listing, taking and cancelling are the outbox commands `otc-buy`, `otc-sell`, `otc-take` and
 * `otc-cancel` (otc.commands.ts).
 */
import { otcInfoDataSchema } from '../../contract/api/otc.js';
import type { HandlerDeps } from './deps.js';

export function otcHandlers({ api }: Pick<HandlerDeps, 'api'>) {
  return {
    /** /api/v1/otc/info for the account. Never throws; offline it is a transport failure (nothing is cached). */
    async 'otc-info'({ accountId }: { accountId: string }) {
      return api.read('/api/v1/otc/info', otcInfoDataSchema, { accountId });
    },
  };
}
