/** A news article (pages/second/second?id=...), read from `coffer-public`. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { publicDatabase, useSyncedAt } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { DateTime } from '../../ui/DateTime.js';

const db = publicDatabase();
const COLLECTIONS = ['news'] as const;

export default function ArticlePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  // null: no such article (yet); undefined: still reading.
  const article = useLiveQuery(async () => (id === '' ? null : ((await db.news.get(id)) ?? null)), [id]);
  const syncedAt = useSyncedAt(db, COLLECTIONS);
  if (article === undefined) return null;
  if (article === null)
    return (
      <div className="page-padding stack">
        <p className="card muted">{t('home.article_missing')}</p>
      </div>
    );
  return (
    <article className="page-padding stack" aria-labelledby="article-title">
      <h2 id="article-title" className="card__title">
        {article.title}
      </h2>
      <p className="muted">
        <DateTime at={article.publishedAt} style="medium" />
      </p>
      {article.imageUrl && <img className="article__image" src={article.imageUrl} alt="" />}
      <p className="article__body">{article.body}</p>
      <AsOf syncedAt={syncedAt} />
    </article>
  );
}
