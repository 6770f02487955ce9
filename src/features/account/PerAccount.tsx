/**
 * A page about the active account: nothing while the account loads, a note when the user has
 * none, otherwise `children` for the account, keyed by it, so switching accounts starts the
 * page's own state again (its form, its chosen method, its page of records).
 */
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveAccount, type ActiveAccount } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { useAccountSyncedAt } from './account-data.js';

export function PerAccount({ children }: { children: (active: ActiveAccount) => ReactNode }) {
  const { t } = useTranslation();
  const active = useActiveAccount();
  if (active === undefined) return null;
  if (active === null)
    return (
      <div className="page-padding">
        <p className="card muted">{t('my.no_account')}</p>
      </div>
    );
  return <KeyedByAccount key={`${active.userId}/${active.accountId}`}>{children(active)}</KeyedByAccount>;
}

function KeyedByAccount({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/** A whole page about the active account, as PerAccount shows it: another account starts it again. */
export function perAccountPage(Page: ComponentType<{ active: ActiveAccount }>): () => ReactNode {
  return function AccountPage() {
    return <PerAccount>{(active) => <Page active={active} />}</PerAccount>;
  };
}

/**
 * A whole page that is one of the active account's synced lists (its records, its withdrawals):
 * the as-of line of its `collections`, then `List`.
 */
export function syncedListPage(
  collections: readonly string[],
  List: ComponentType<{ active: ActiveAccount }>,
): () => ReactNode {
  return perAccountPage(function SyncedListPage({ active }) {
    const syncedAt = useAccountSyncedAt(active, collections);
    return (
      <div className="page-padding stack">
        <AsOf syncedAt={syncedAt} />
        <List active={active} />
      </div>
    );
  });
}
