/** The active account with its total in USDT, as the Assets and home tabs show it. */
import type { AccountRecord } from '../../../contract/api/account.js';
import { useActiveAccount, type ActiveAccount } from '../../../client-db/use-sync-db.js';
import { useAccounts, useAccountSyncedAt, useBalance, useRabPrice } from '../account/account-data.js';
import { accountTotal, EMPTY_BALANCE, type AccountTotal } from './totals.js';

export type AccountTotalView =
  | { state: 'loading' }
  /** Logged out, or no account synced yet. */
  | { state: 'none' }
  | {
      state: 'ready';
      active: ActiveAccount;
      account: AccountRecord;
      figures: AccountTotal;
      /** When the balances and the RAB price were last both caught up (null: never). */
      syncedAt: string | null;
    };

const ACCOUNT_COLLECTIONS = ['balances'] as const;
const PUBLIC_COLLECTIONS = ['prices'] as const;

export function useAccountTotal(): AccountTotalView {
  const accounts = useAccounts();
  const active = useActiveAccount();
  const balance = useBalance(active ?? null);
  const price = useRabPrice();
  const syncedAt = useAccountSyncedAt(active ?? null, ACCOUNT_COLLECTIONS, PUBLIC_COLLECTIONS);
  if (active === null) return { state: 'none' };
  const account = accounts?.find((candidate) => candidate.id === active?.accountId);
  if (active === undefined || balance === undefined || price === undefined || syncedAt === undefined)
    return { state: 'loading' };
  if (account === undefined) return { state: 'none' };
  return {
    state: 'ready',
    active,
    account,
    figures: accountTotal(balance ?? EMPTY_BALANCE, price),
    syncedAt,
  };
}
