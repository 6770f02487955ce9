/**
 * The console's languages: Simplified Chinese (the default, as in the app) and English. The
 * choice is kept in localStorage; the `lang` header of every call follows it.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { headerCodeOf } from '../../contract/locales.js';
import { en, type Catalogue, type MessageKey } from './en.js';
import { zhHans } from './zh-Hans.js';

export const CONSOLE_LOCALES = [
  { locale: 'zh-Hans', name: '简体中文' },
  { locale: 'en', name: 'English' },
] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number]['locale'];
export type { MessageKey };

const CATALOGUES: Record<ConsoleLocale, Catalogue> = { 'zh-Hans': zhHans, en };
const STORAGE_KEY = 'coffer-console-language';

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

/** The text of `key` in `locale`, its `{{name}}` placeholders filled. */
export function translate(
  locale: ConsoleLocale,
  key: MessageKey,
  vars: Record<string, string | number> = {},
): string {
  return CATALOGUES[locale][key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    String(vars[name] ?? whole),
  );
}

export function storedLocale(): ConsoleLocale {
  const stored = localStorage.getItem(STORAGE_KEY);
  return CONSOLE_LOCALES.find((item) => item.locale === stored)?.locale ?? 'zh-Hans';
}

/** The `lang` header for a locale (the spec's codes: CN, EN). */
export const langHeaderOf = (locale: ConsoleLocale): string => headerCodeOf(locale);

interface I18n {
  locale: ConsoleLocale;
  setLocale(locale: ConsoleLocale): void;
  t: Translate;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({
  children,
  onChange,
}: {
  children: ReactNode;
  onChange(locale: ConsoleLocale): void;
}) {
  const [locale, setLocaleState] = useState(storedLocale);
  const value = useMemo<I18n>(
    () => ({
      locale,
      setLocale: (next) => {
        localStorage.setItem(STORAGE_KEY, next);
        document.documentElement.lang = next;
        onChange(next);
        setLocaleState(next);
      },
      t: (key, vars) => translate(locale, key, vars),
    }),
    [locale, onChange],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
