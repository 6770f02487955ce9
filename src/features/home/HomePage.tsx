/** pages/index/index, the home tab: total assets (zero until the money core lands), quotes and news to come. */
import { useTranslation } from 'react-i18next';

export default function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="page-padding stack">
      <section className="card card--accent" aria-labelledby="home-assets">
        <h2 id="home-assets" className="card__label">
          {t('home.total_assets')}
        </h2>
        <p className="card__figure">
          0 <span className="card__unit">USDT</span>
        </p>
      </section>
      <section className="card" aria-labelledby="home-market">
        <h2 id="home-market" className="card__title">
          {t('home.market')}
        </h2>
        <p className="muted">{t('home.market_empty')}</p>
      </section>
      <section className="card" aria-labelledby="home-news">
        <h2 id="home-news" className="card__title">
          {t('home.news')}
        </h2>
        <p className="muted">{t('home.news_empty')}</p>
      </section>
    </div>
  );
}
