/**
 * Live reads and the commands of the Hosting tab: the products the worker stored
 * (`hosting-config`, asked for again when the tab opens, the link comes back or the language
 * changes), the account's synced orders, their changes and its income, and the hosting commands
 * in the outbox, followed to their end. Import from lazy pages only (it loads the collections'
 * schemas through client-db/).
 */
import { Dexie } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { HostingChangeRecord, HostingOrderRecord } from '../../../contract/api/hosting.js';
import type { IncomeRecord, IncomeType } from '../../../contract/api/income.js';
import type { HostingCommand } from '../../../worker/commands.js';
import { isHostingCommand } from '../outbox/command-kinds.js';
import type { HostingConfigRecord } from '../../../client-db/schema.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { accountDatabase, userDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';

/**
 * Where the products stand: `loading` (asked, no answer yet), `fresh` (the server answered),
 * `saved` (the server was not reached; what this device saved is shown), `refused` (told as a
 * toast).
 */
export type ConfigState = 'loading' | 'fresh' | 'saved' | 'refused';

export interface HostingConfigView {
  /** As stored: undefined while it loads, null before it was ever fetched. */
  config: HostingConfigRecord | null | undefined;
  state: ConfigState;
}

/** The products on offer, stored by the worker and read live; asked for again when the link or language changes. */
export function useHostingConfig(userId: string, online: boolean, locale: string): HostingConfigView {
  const handle = useOutcome();
  const [answered, setAnswered] = useState<{ key: string; state: ConfigState } | null>(null);
  const config = useLiveQuery(
    async () => (await userDatabase(userId).hostingConfig.get('current')) ?? null,
    [userId],
  );
  const key = `${userId}/${String(online)}/${locale}`;

  useEffect(() => {
    let live = true;
    void send('hosting-config').then((result) => {
      if (!live) return;
      if (result.kind === 'refused') handle(result);
      setAnswered({
        key,
        state: result.kind === 'ok' ? 'fresh' : result.kind === 'refused' ? 'refused' : 'saved',
      });
    });
    return () => {
      live = false;
    };
  }, [key, handle]);

  return { config, state: answered?.key === key ? answered.state : 'loading' };
}

/** The account's hosting orders (every status); undefined while loading. */
export function useHostingOrders(active: ActiveAccount): HostingOrderRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () => accountDatabase(userId, accountId).hosting_orders.orderBy('createdAt').reverse().toArray(),
    [userId, accountId],
  );
}

/** The account's change records, newest first, grouped by order; undefined while loading. */
export function useHostingChanges(active: ActiveAccount): Map<string, HostingChangeRecord[]> | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const rows = await accountDatabase(userId, accountId)
      .hosting_changes.orderBy('createdAt')
      .reverse()
      .toArray();
    const byOrder = new Map<string, HostingChangeRecord[]>();
    for (const row of rows) {
      const list = byOrder.get(row.orderId) ?? [];
      list.push(row);
      byOrder.set(row.orderId, list);
    }
    // Changes in one minute share their time: the later id is the later change.
    for (const list of byOrder.values())
      list.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || Number(b.id) - Number(a.id));
    return byOrder;
  }, [userId, accountId]);
}

/** The account's newest `limit` income lines, of one type or all, newest first; undefined while loading. */
export function useIncome(
  active: ActiveAccount,
  type: IncomeType | 'all',
  limit: number,
): IncomeRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(() => {
    const table = accountDatabase(userId, accountId).income;
    const ordered =
      type === 'all'
        ? table.orderBy('createdAt')
        : table.where('[type+createdAt]').between([type, Dexie.minKey], [type, Dexie.maxKey]);
    return ordered.reverse().limit(limit).toArray();
  }, [userId, accountId, type, limit]);
}

/** The account's hosting commands still queued or being sent, oldest first; undefined while loading. */
export function usePendingHostingCommands(active: ActiveAccount): HostingCommand[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const pending = await userDatabase(userId).outbox.where('state').anyOf('queued', 'sending').toArray();
    return pending
      .filter((row): row is HostingCommand => isHostingCommand(row) && row.params.accountId === accountId)
      .sort((a, b) => a.seq - b.seq);
  }, [userId, accountId]);
}

export { usePullOnOpen } from '../../app/use-pull-on-open.js';
