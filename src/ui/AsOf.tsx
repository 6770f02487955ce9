/** "As of <time>" for synced data, with a stale badge once it is older than STALE_AFTER_MS. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isStale } from '../../client-db/freshness.js';
import { formatTime } from './DateTime.js';

/** Re-renders every `everyMs`, so staleness shows without new data arriving. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function AsOf({ syncedAt }: { syncedAt: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  if (syncedAt === undefined) return null;
  const stale = isStale(syncedAt, now);
  return (
    <p className="as-of">
      <span>
        {syncedAt === null
          ? t('sync.never_synced')
          : t('sync.as_of', {
              time: formatTime(syncedAt, i18n.language, 'short'),
            })}
      </span>
      {stale && <span className="badge badge--warning">{t('sync.stale')}</span>}
    </p>
  );
}
