/** The five bottom tabs in the spec's order: links, so the keyboard and screen readers can use them. */
import { useTranslation } from 'react-i18next';
import { LineIcon } from '../ui/LineIcon.js';
import { NavLink } from 'react-router-dom';
import { TABS } from './paths.js';

const ICONS: Record<(typeof TABS)[number]['icon'], string> = {
  home: 'M4 11l8-7 8 7v9a1 1 0 0 1-1 1h-4v-6H9v6H5a1 1 0 0 1-1-1z',
  hosting: 'M12 3l8 4v5c0 5-3.5 8-8 9-4.5-1-8-4-8-9V7z',
  team: 'M8 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm8 0a3 3 0 1 0 0-6M2 20c0-3.3 2.7-6 6-6s6 2.7 6 6M15 14c3 0 7 1.5 7 6',
  assets: 'M3 7h18v12H3zM3 7l3-4h12l3 4M16 13h2',
  trading: 'M4 18l5-6 4 3 7-9M15 6h5v5',
};

export function TabBar() {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('tabs.label')}>
      {TABS.map((tab) => (
        <NavLink
          key={tab.path}
          to={tab.path}
          className={({ isActive }) => `tab-bar__item${isActive ? ' tab-bar__item--active' : ''}`}
        >
          <LineIcon size={24} path={ICONS[tab.icon]} strokeWidth={1.8} linecap="round" linejoin="round" />
          <span>{t(tab.label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
