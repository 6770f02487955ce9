/**
 * Wallet records (pages/blance_record/blance_record): the active account's synced `records`,
 * newest first, filtered by kind. Read from IndexedDB in pages of RECORDS_PAGE as the user
 * reaches the end of the list (or presses "more"), so it opens offline and stays cheap.
 */
import { Dexie } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordKind, WalletRecord } from '../../../contract/api/account.js';
import { accountDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';
import { syncedListPage } from '../account/PerAccount.js';
import { kindKey, RECORD_KIND_LIST, RECORDS_PAGE } from './records-view.js';
import { emptyNote, RecordsFilter, useRecordsFilter } from '../../ui/RecordsSection.js';
import { MoneyLine } from '../../ui/MoneyLine.js';
import { MoreButton } from '../../ui/MoreButton.js';

const COLLECTIONS = ['records'] as const;

export default syncedListPage(COLLECTIONS, Records);

function Records({ active }: { active: ActiveAccount }) {
  const { t } = useTranslation();
  const filter = useRecordsFilter<RecordKind>(RECORD_KIND_LIST, kindKey, 'records.filter');
  const kind = filter.value;
  const [shown, setShown] = useState(RECORDS_PAGE);
  // One more than shown, to know whether there is more; the cursor stops there.
  const records = useLiveQuery(() => {
    const table = accountDatabase(active.userId, active.accountId).records;
    const ordered =
      kind === 'all'
        ? table.orderBy('createdAt')
        : table.where('[kind+createdAt]').between([kind, Dexie.minKey], [kind, Dexie.maxKey]);
    return ordered
      .reverse()
      .limit(shown + 1)
      .toArray();
  }, [active.userId, active.accountId, kind, shown]);
  const hasMore = records !== undefined && records.length > shown;
  const more = () => setShown((count) => count + RECORDS_PAGE);

  return (
    <>
      <RecordsFilter filter={filter} onReset={() => setShown(RECORDS_PAGE)} />
      {records !== undefined && records.length === 0 && (
        <p className="card muted">{t(emptyNote(filter, 'records.empty'))}</p>
      )}
      {records !== undefined && records.length > 0 && (
        <ul className="card row-list" aria-label={t('records.title')}>
          {records.slice(0, shown).map((record) => (
            <RecordLine key={record.id} record={record} />
          ))}
        </ul>
      )}
      {hasMore && <MoreSentinel key={shown} onReached={more} />}
      {hasMore && <MoreButton onClick={more}>{t('records.more')}</MoreButton>}
      {records !== undefined && records.length > RECORDS_PAGE && !hasMore && (
        <p className="muted records__end">{t('records.end')}</p>
      )}
    </>
  );
}

function RecordLine({ record }: { record: WalletRecord }) {
  const { t } = useTranslation();
  return (
    <MoneyLine
      kind={t(kindKey(record.kind))}
      amount={record.amount}
      unit={record.asset}
      detail={[t(`records.book_${record.book}`), record.asset]}
      at={record.createdAt}
    >
      <p className="muted record__after">
        {t('records.balance_after', { amount: record.balanceAfter, asset: record.asset })}
      </p>
    </MoneyLine>
  );
}

/**
 * Calls `onReached` when it scrolls into view: the next page is read before the user asks. Keyed
 * by the count shown, so it observes afresh after each page (it may still be in view then).
 */
function MoreSentinel({ onReached }: { onReached: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onReached);
  useEffect(() => {
    latest.current = onReached;
  }, [onReached]);
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return <div ref={ref} aria-hidden="true" className="records__sentinel" />;
}
