/**
 * Live reads of the money screens beside client-db's (the active account, its database): the
 * user's accounts, one account's balances, the RAB price, how fresh they are, and how an
 * account is named. Import from lazy pages only (it loads the collections' schemas).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountRecord, BalanceRecord } from '../../../contract/api/account.js';
import {
  accountDatabase,
  publicDatabase,
  useUserDb,
  type ActiveAccount,
} from '../../../client-db/use-sync-db.js';
import { oldestSync } from '../../../client-db/freshness.js';
import { RECORDS_PAGE, usePaging, type RecordsList } from '../../ui/RecordsSection.js';

/** The user's accounts as synced (unordered): undefined while loading, [] when none. */
export function useAccounts(): AccountRecord[] | undefined {
  const db = useUserDb();
  return useLiveQuery(async () => (db === null ? [] : await db.accounts.toArray()), [db]);
}

/** One account's synced balances: undefined while loading, null before the first sync. */
export function useBalance(active: ActiveAccount | null): BalanceRecord | null | undefined {
  const userId = active?.userId ?? null;
  const accountId = active?.accountId ?? null;
  return useLiveQuery(
    async () =>
      userId === null || accountId === null
        ? null
        : ((await accountDatabase(userId, accountId).balances.get(accountId)) ?? null),
    [userId, accountId],
  );
}

/** The operator's RAB price in USDT: undefined while loading, null before it was synced. */
export function useRabPrice(): string | null | undefined {
  return useLiveQuery(async () => (await publicDatabase().prices.get('RAB'))?.usdt ?? null, []);
}

/**
 * When the given collections of the active account (and, with `publicCollections`, of
 * `coffer-public`) were all last caught up: the oldest, null when one never was, undefined
 * while loading.
 */
export function useAccountSyncedAt(
  active: ActiveAccount | null,
  collections: readonly string[],
  publicCollections: readonly string[] = [],
): string | null | undefined {
  const userId = active?.userId ?? null;
  const accountId = active?.accountId ?? null;
  const key = `${collections.join(',')}|${publicCollections.join(',')}`;
  return useLiveQuery(async () => {
    if (userId === null || accountId === null) return null;
    const [own = '', shared = ''] = key.split('|');
    const rows = [
      ...(await accountDatabase(userId, accountId).cursors.bulkGet(own.split(',').filter(Boolean))),
      ...(await publicDatabase().cursors.bulkGet(shared.split(',').filter(Boolean))),
    ];
    return oldestSync(rows.map((row) => row?.syncedAt ?? null));
  }, [userId, accountId, key]);
}

/**
 * What a records list's section takes beside its rows (`<RecordsSection {...list} records={…}>`):
 * its words, its paging and when the account's collections it shows were last caught up.
 */
export function useRecordsList(active: ActiveAccount | null, list: RecordsList) {
  const paging = usePaging(RECORDS_PAGE, list.more);
  const syncedAt = useAccountSyncedAt(active, list.collections);
  return { words: list, paging, syncedAt };
}

/**
 * How an account is named on screen: the main account by its role in the user's language (the
 * server names every main account `main`), a sub-account by the name the user gave it.
 */
export function useAccountName(): (account: Pick<AccountRecord, 'kind' | 'name'>) => string {
  const { t } = useTranslation();
  return useCallback((account) => (account.kind === 'main' ? t('accounts.main') : account.name), [t]);
}
