/**
 * Live reads of the Trading tab: the market's terms now (asked of the server each time, never
 * stored), the public book and the account's orders (synced, so they read offline with their
 * age), and the account's OTC commands still in the outbox. Import from lazy pages only (it loads
 * the collections' schemas through client-db/).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { OtcBookRecord, OtcInfoData, OtcOrder } from '../../../contract/api/otc.js';
import type { OtcCommand } from '../../../worker/commands.js';
import { isOtcCommand } from '../outbox/command-kinds.js';
import { useServerRead, type ServerRead } from '../../app/use-server-read.js';
import { send } from '../../app/worker-client.js';
import {
  accountDatabase,
  publicDatabase,
  userDatabase,
  type ActiveAccount,
} from '../../../client-db/use-sync-db.js';
import type { OtcSide } from './otc-view.js';

/** /api/v1/otc/info for the account, asked again on `reload` and when the link comes back. */
export function useOtcInfo(accountId: string, online: boolean): ServerRead<OtcInfoData> {
  return useServerRead(accountId, String(online), () => send('otc-info', { accountId }));
}

/** The open orders of one side of the book as last pulled; undefined while loading. */
export function useOtcBook(side: OtcSide): OtcBookRecord[] | undefined {
  return useLiveQuery(() => publicDatabase().otc_book.where('side').equals(side).toArray(), [side]);
}

/** The account's orders of one side (every status), newest first; undefined while loading. */
export function useMyOtcOrders(active: ActiveAccount, side: OtcSide): OtcOrder[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const rows = await accountDatabase(userId, accountId).otc_orders.where('side').equals(side).toArray();
    return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || Number(b.id) - Number(a.id));
  }, [userId, accountId, side]);
}

/** The ids of the account's orders (a customer cannot take their own); undefined while loading. */
export function useMyOtcOrderIds(active: ActiveAccount): Set<string> | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    async () =>
      new Set((await accountDatabase(userId, accountId).otc_orders.toCollection().primaryKeys()).map(String)),
    [userId, accountId],
  );
}

/** The account's OTC commands still queued or being sent; undefined while loading. */
export function usePendingOtcCommands(active: ActiveAccount): OtcCommand[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const pending = await userDatabase(userId).outbox.where('state').anyOf('queued', 'sending').toArray();
    return pending.filter(
      (row): row is OtcCommand => isOtcCommand(row) && row.params.accountId === accountId,
    );
  }, [userId, accountId]);
}
