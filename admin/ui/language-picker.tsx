/** The language picker, with its visible label (hidden visually at phone width, still read out). */
import { CONSOLE_LOCALES, useI18n, type ConsoleLocale } from '../i18n/i18n.js';

const isLocale = (value: string): value is ConsoleLocale =>
  CONSOLE_LOCALES.some((item) => item.locale === value);

/** A native select: the platform's own list on every device, keyboard and screen reader included. */
export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { t, locale, setLocale } = useI18n();
  return (
    <span className="console-language">
      {/* A sibling, not a wrapper: wrapped, the label's name would take in the chosen language too. */}
      <label htmlFor="console-language" className={compact ? 'console-visually-hidden' : undefined}>
        {t('language.label')}
      </label>
      <select
        id="console-language"
        className="console-language-select"
        value={locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) setLocale(event.target.value);
        }}
      >
        {CONSOLE_LOCALES.map((item) => (
          <option key={item.locale} value={item.locale}>
            {item.name}
          </option>
        ))}
      </select>
    </span>
  );
}
