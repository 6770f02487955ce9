/** The hosting tab's frame: what it will hold, until its feature lands, and its record pages. */
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/paths.js';
import { LinkList } from '../../ui/LinkList.js';

const RECORD_ENTRIES = [
  ['dividends.title', ROUTES.dividends],
  ['delivery.title', ROUTES.delivery],
] as const;

export default function HostingPage() {
  const { t } = useTranslation();
  return (
    <div className="page-padding stack">
      <section className="card">
        <p>{t('hosting.intro')}</p>
        <p className="muted">{t('common.coming_soon')}</p>
      </section>
      <LinkList entries={RECORD_ENTRIES} />
    </div>
  );
}
