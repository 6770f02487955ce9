/** The standard 44 px header: back button and the page's one heading. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from './paths.js';
import { LineIcon } from '../ui/LineIcon.js';

export function PageHeader({ title, back }: { title: string; back: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <header className="page-header">
      {back && (
        <button
          type="button"
          className="page-header__back"
          aria-label={t('common.back')}
          onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(ROUTES.home))}
        >
          <LineIcon size={22} path="M15 5l-7 7 7 7" strokeWidth={2.2} linecap="round" linejoin="round" />
        </button>
      )}
      <h1 className="page-header__title">{title}</h1>
    </header>
  );
}
