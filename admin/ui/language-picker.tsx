/** The language picker, with its visible label (hidden visually at phone width, still read out). */
import { Select } from 'antd';
import { CONSOLE_LOCALES, useI18n, type ConsoleLocale } from '../i18n/i18n.js';

export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { t, locale, setLocale } = useI18n();
  return (
    <span className="console-language">
      {/* A sibling, not a wrapper: wrapped, the label's name would take in the chosen language too. */}
      <label htmlFor="console-language" className={compact ? 'console-visually-hidden' : undefined}>
        {t('language.label')}
      </label>
      <Select<ConsoleLocale>
        id="console-language"
        value={locale}
        onChange={setLocale}
        options={CONSOLE_LOCALES.map((item) => ({ value: item.locale, label: item.name }))}
        popupMatchSelectWidth={false}
      />
    </span>
  );
}
