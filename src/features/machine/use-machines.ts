/**
 * Live reads and the command of the mining machine pages, all from IndexedDB so the
 * pages read offline: the machines on offer (the public `machines`), the account's holdings
 * (`owned_machines`), tickets (`tickets`) and mining records (`income` of type mining_machine),
 * and the kinds of the buy or rent command. Import from lazy pages only (it
 * loads the collections' schemas through client-db/).
 */
import { Dexie } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import type { IncomeRecord } from '../../../contract/api/income.js';
import type {
  MachineRecord,
  OwnedMachineRecord,
  TicketRecord,
  TicketStatus,
} from '../../../contract/api/machine.js';
import { accountDatabase, publicDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';

/** The machines on offer (active), in the operators' order (by id); undefined while loading. */
export function useOfferedMachines(): MachineRecord[] | undefined {
  return useLiveQuery(async () => {
    const rows = await publicDatabase().machines.where('status').equals('active').toArray();
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }, []);
}

/** The account's holdings, newest first; undefined while loading. */
export function useHoldings(active: ActiveAccount): OwnedMachineRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () => accountDatabase(userId, accountId).owned_machines.orderBy('createdAt').reverse().toArray(),
    [userId, accountId],
  );
}

/** The account's newest `limit` tickets, of one status or all, newest first; undefined while loading. */
export function useTickets(
  active: ActiveAccount,
  status: TicketStatus | 'all',
  limit: number,
): TicketRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const table = accountDatabase(userId, accountId).tickets;
    const rows =
      status === 'all'
        ? await table.orderBy('createdAt').reverse().limit(limit).toArray()
        : await table.where('status').equals(status).reverse().sortBy('createdAt');
    return status === 'all' ? rows : rows.slice(0, limit);
  }, [userId, accountId, status, limit]);
}

/** How many tickets the account has available, as synced; undefined while loading. */
export function useAvailableTickets(active: ActiveAccount): number | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () => accountDatabase(userId, accountId).tickets.where('status').equals('available').count(),
    [userId, accountId],
  );
}

/** The account's newest `limit` income lines of type mining_machine; undefined while loading. */
export function useMiningIncome(active: ActiveAccount, limit: number): IncomeRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () =>
      accountDatabase(userId, accountId)
        .income.where('[type+createdAt]')
        .between(['mining_machine', Dexie.minKey], ['mining_machine', Dexie.maxKey])
        .reverse()
        .limit(limit)
        .toArray(),
    [userId, accountId, limit],
  );
}

/** The kinds of a machine's buy or rent, followed together on the machine's form. */
export const MACHINE_KINDS = ['machine-buy', 'machine-rent'] as const;

export { usePullOnOpen } from '../../app/use-pull-on-open.js';
