/** The language picker: each language in its own name; the choice persists and sets the lang header. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isLocale, LANGUAGES } from '../../contract/locales.js';
import { chooseLocale } from '../app/i18n.js';

export function LanguageSelect({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const choose = async (locale: string) => {
    if (isLocale(locale)) await chooseLocale(locale);
  };
  return (
    <div className={`language-select${compact ? ' language-select--compact' : ''}`}>
      <label htmlFor={id} className={compact ? 'visually-hidden' : 'field__label'}>
        {t('settings.language')}
      </label>
      <select
        id={id}
        className="language-select__input"
        value={i18n.language}
        onChange={(event) => void choose(event.target.value)}
      >
        {LANGUAGES.map((language) => (
          <option key={language.locale} value={language.locale} lang={language.locale}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}
