/** The landing screen: who is signed in and the screens their role may use. */
import { Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { ConsoleScreenKey } from '../../contract/admin-menu.js';
import { useConsole } from '../app/context.js';
import { useI18n } from '../i18n/i18n.js';
import { Page } from '../ui/page.js';

export function HomePage({ screens }: { screens: ConsoleScreenKey[] }) {
  const { t } = useI18n();
  const { me } = useConsole();
  return (
    <Page title={t('home.title')}>
      <Typography.Paragraph>
        {t('home.intro', { email: me.email, role: t(`role.${me.role}`) })}
      </Typography.Paragraph>
      {screens.length === 0 ? (
        <Typography.Paragraph>{t('home.nothing')}</Typography.Paragraph>
      ) : (
        <ul className="console-home-list">
          {screens.map((key) => (
            <li key={key}>
              <Link to={`/${key}`}>{t(`nav.${key}`)}</Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
