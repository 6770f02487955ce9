/**
 * Live reads and the command of the exchange page: the exchange's terms now (asked of the server
 * each time, never stored, and asked again as soon as a newer price is pulled), the synced RAB
 * price, the exchange command in the outbox followed to its end, and the account's synced
 * exchanges. Import from lazy pages only (it loads the collections' schemas through client-db/).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { PriceRecord } from '../../../contract/api/account.js';
import type { ExchangeIndexData, ExchangeRecord } from '../../../contract/api/exchange.js';
import { useServerRead, type ServerRead } from '../../app/use-server-read.js';
import { send } from '../../app/worker-client.js';
import { accountDatabase, publicDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';

/** The RAB price as last pulled (the public `prices` record): undefined while loading, null before it was synced. */
export function useSyncedPrice(): PriceRecord | null | undefined {
  return useLiveQuery(async () => (await publicDatabase().prices.get('RAB')) ?? null, []);
}

/**
 * /api/v1/exchange/index for the account, asked again on `reload`, when the link comes back and
 * when a price version other than the one shown is pulled (`pulledVersion`), so the quote follows
 * the operators' price live.
 */
export function useExchangeTerms(
  accountId: string,
  online: boolean,
  pulledVersion: string | null,
): ServerRead<ExchangeIndexData> {
  return useServerRead(accountId, `${String(online)}/${pulledVersion ?? ''}`, () =>
    send('exchange-index', { accountId }),
  );
}

/** The account's newest `limit` exchanges, newest first; undefined while loading. */
export function useExchanges(active: ActiveAccount, limit: number): ExchangeRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () => accountDatabase(userId, accountId).exchanges.orderBy('createdAt').reverse().limit(limit).toArray(),
    [userId, accountId, limit],
  );
}

export { usePullOnOpen } from '../../app/use-pull-on-open.js';
