/** The team tab's frame: what it will hold, until its feature lands. */
import { useTranslation } from 'react-i18next';

export default function TeamPage() {
  const { t } = useTranslation();
  return (
    <div className="page-padding stack">
      <section className="card">
        <p>{t('team.intro')}</p>
        <p className="muted">{t('common.coming_soon')}</p>
      </section>
    </div>
  );
}
