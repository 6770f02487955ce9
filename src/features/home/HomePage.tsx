/**
 * pages/index/index, the home tab: the notice marquee, the active account's total assets (as the
 * Assets tab computes it), market quotes with a chart, and the news list from `coffer-public`.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { NewsRecord, NoticeRecord, QuoteRecord } from '../../../contract/api/content.js';
import { ROUTES } from '../../app/paths.js';
import { publicDatabase, syncedAtOf } from '../../../client-db/use-sync-db.js';
import { AsOf } from '../../ui/AsOf.js';
import { oldestSync } from '../../../client-db/freshness.js';
import { formatMoney } from '../../../contract/money.js';
import { useAccountTotal } from '../assets/use-account-total.js';
import { inLanguage, NEWS_PAGE } from './news.js';
import { sparklinePath, SPARKLINE_HEIGHT, SPARKLINE_WIDTH, trendOf } from './sparkline.js';
import { DateTime } from '../../ui/DateTime.js';
import { CardSection } from '../../ui/Card.js';
import { PagedRows, usePaging, type Paging } from '../../ui/RecordsSection.js';
import { LineIcon } from '../../ui/LineIcon.js';

const db = publicDatabase();
const COLLECTIONS = ['news', 'notices', 'quotes'] as const;

export default function HomePage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const paging = usePaging(NEWS_PAGE, 'home.news_more');
  // The page's public records in one read (one transaction, one render when it answers).
  const shown = useLiveQuery(
    () =>
      db.transaction('r', [db.notices, db.quotes, db.news, db.cursors], async () => {
        const [notices, quotes, news, syncedAt] = await Promise.all([
          db.notices.orderBy('updatedAt').reverse().toArray(),
          db.quotes.orderBy('id').toArray(),
          // One more than shown, to know whether "more" has anything to add; the cursor stops there.
          db.news
            .orderBy('publishedAt')
            .reverse()
            .filter((item) => inLanguage(item.lang, language))
            .limit(paging.shown + 1)
            .toArray(),
          syncedAtOf(db, COLLECTIONS),
        ]);
        return {
          notices: notices.filter((notice) => inLanguage(notice.lang, language)),
          quotes,
          news,
          syncedAt,
        };
      }),
    [language, paging.shown],
  );
  const { notices, quotes, news, syncedAt } = shown ?? {};
  const total = useAccountTotal();

  return (
    <div className="page-padding stack">
      <Notices notices={notices} />
      <section
        className="card card--accent"
        aria-labelledby="home-assets"
        aria-busy={total.state === 'loading'}
      >
        <h2 id="home-assets" className="card__label">
          {t('home.total_assets')}
        </h2>
        <p className="card__figure">
          {total.state === 'ready' ? formatMoney(total.figures.total) : total.state === 'loading' ? '…' : '0'}{' '}
          <span className="card__unit">USDT</span>
        </p>
      </section>
      {/* One "as of" for the page: it is as fresh as its stalest part, the total included. */}
      <AsOf
        syncedAt={
          total.state === 'ready' && syncedAt !== undefined
            ? oldestSync([syncedAt, total.syncedAt])
            : syncedAt
        }
      />
      <Quotes quotes={quotes} />
      <News news={news} paging={paging} />
    </div>
  );
}

function Notices({ notices }: { notices: NoticeRecord[] | undefined }) {
  const { t } = useTranslation();
  if (!notices || notices.length === 0) return null;
  return (
    <section className="card marquee" aria-labelledby="home-notices">
      <h2 id="home-notices" className="visually-hidden">
        {t('home.notices')}
      </h2>
      <LineIcon size={20} path="M4 10v4h3l5 4V6L7 10zM16 9a4 4 0 0 1 0 6" strokeWidth={1.8} />
      <div className="marquee__viewport">
        <p className="marquee__track">
          {notices.map((notice) => (
            <span key={notice.id} className="marquee__item">
              {notice.text}
            </span>
          ))}
        </p>
      </div>
    </section>
  );
}

function Quotes({ quotes }: { quotes: QuoteRecord[] | undefined }) {
  const { t } = useTranslation();
  return (
    <CardSection id="home-market" title={t('home.market')}>
      {quotes && quotes.length === 0 && <p className="muted">{t('home.market_empty')}</p>}
      {quotes && quotes.length > 0 && (
        <ul className="quote-list">
          {quotes.map((quote) => {
            const trend = trendOf(quote.changePercent);
            const path = sparklinePath(quote.history.map((point) => point.price));
            return (
              <li key={quote.id} className="quote">
                <div>
                  <p className="quote__name">{quote.id}</p>
                  <p className="muted">{quote.name}</p>
                </div>
                {path === '' ? (
                  <span />
                ) : (
                  <svg
                    className={`sparkline quote__change--${trend}`}
                    viewBox={`-1 -1 ${SPARKLINE_WIDTH + 2} ${SPARKLINE_HEIGHT + 2}`}
                    preserveAspectRatio="none"
                    role="img"
                    aria-label={t('home.chart_label', { symbol: quote.id })}
                  >
                    <path
                      d={path}
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="1.5"
                      vectorEffect="non-scaling-stroke"
                    />
                  </svg>
                )}
                <div className="quote__figures">
                  <p>{quote.price}</p>
                  <p className={`quote__change--${trend}`}>
                    {t('home.change', { percent: formatPercent(quote.changePercent) })}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </CardSection>
  );
}

/** '+1.25' stays, '1.25' gains its '+', '-0.5' stays: the sign is always shown. */
function formatPercent(changePercent: string): string {
  return /^[+-]/.test(changePercent) || Number(changePercent) === 0 ? changePercent : `+${changePercent}`;
}

function News({ news, paging }: { news: NewsRecord[] | undefined; paging: Paging }) {
  const { t } = useTranslation();
  return (
    <CardSection id="home-news" title={t('home.news')}>
      {news && news.length === 0 && <p className="muted">{t('home.news_empty')}</p>}
      <PagedRows rows={news} paging={paging} className="news-list" label={t('home.news')}>
        {(item) => (
          <li>
            <Link to={`${ROUTES.article}?id=${encodeURIComponent(item.id)}`}>
              <span className="news-list__title">{item.title}</span>
              <DateTime className="muted" at={item.publishedAt} style="date" />
              <span className="news-list__summary">{item.summary}</span>
            </Link>
          </li>
        )}
      </PagedRows>
    </CardSection>
  );
}
