/** The way to the outbox (pending, failed and recently sent commands), with a badge counting pending and failed ones. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES } from '../../app/paths.js';
import { useUserDb } from '../../../client-db/use-sync-db.js';
import { attentionCount } from './outbox-view.js';

export function OutboxLink() {
  const { t } = useTranslation();
  const db = useUserDb();
  const count = useLiveQuery(
    async () => (db === null ? 0 : attentionCount(await db.outbox.toArray())),
    [db],
    0,
  );
  return (
    <Link className="list-link header-link" to={ROUTES.outbox}>
      <span>{t('outbox.title')}</span>
      {count > 0 && (
        <span className="badge" aria-label={t('outbox.count', { count })}>
          {count}
        </span>
      )}
    </Link>
  );
}
