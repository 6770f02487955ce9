/**
 * AI dividends. The records are the synced `dividend_releases` collection, read by the
 * UI from IndexedDB (so they show offline), and a claim is the outbox command `dividend-claim`
 * (dividend.commands.ts: it may wait an hour for the network). Only the rules come from the server
 * here, each time the page opens, and are kept nowhere.
 */
import { aiInfoDataSchema } from '../../contract/api/dividend.js';
import type { HandlerDeps } from './deps.js';

export function dividendHandlers({ api }: Pick<HandlerDeps, 'api'>) {
  return {
    /**
     * /api/v1/user/aiInfo: the account's claimable and claimed sums and the rules (the valid
     * hosting threshold, the claim days, the time zone of a dividend's day). Never throws;
     * offline it is a transport failure.
     */
    async 'dividend-info'({ accountId }: { accountId: string }) {
      return api.read('/api/v1/user/aiInfo', aiInfoDataSchema, { accountId });
    },
  };
}
