/** The team tab's frame: what it will hold, until its feature lands. */
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../app/paths.js';
import { LinkList } from '../../ui/LinkList.js';

/** Mining machines (issue 13) are reached from the Team tab. */
const MINING_ENTRIES = [['machine.title', ROUTES.machines]] as const;

export default function TeamPage() {
  const { t } = useTranslation();
  return (
    <div className="page-padding stack">
      <section className="card">
        <p>{t('team.intro')}</p>
        <p className="muted">{t('common.coming_soon')}</p>
      </section>
      <LinkList entries={MINING_ENTRIES} />
    </div>
  );
}
