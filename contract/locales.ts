/**
 * The seven languages (spec section 1): locale file names under locales/, the spec's `lang`
 * header codes (KO, EN, JP, CN, DE = Thai, FH = Vietnamese, TW) and each language's own name.
 */
export const LOCALES = ['zh-Hans', 'zh-Hant', 'en', 'ja', 'ko', 'th', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-Hans';

export const LANGUAGES: ReadonlyArray<{ code: string; locale: Locale; name: string }> = [
  { code: 'CN', locale: 'zh-Hans', name: '简体中文' },
  { code: 'TW', locale: 'zh-Hant', name: '繁體中文' },
  { code: 'EN', locale: 'en', name: 'English' },
  { code: 'JP', locale: 'ja', name: '日本語' },
  { code: 'KO', locale: 'ko', name: '한국어' },
  { code: 'DE', locale: 'th', name: 'ไทย' },
  { code: 'FH', locale: 'vi', name: 'Tiếng Việt' },
];

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** The spec's header code for a locale (KO, EN, ...). */
export function headerCodeOf(locale: Locale): string {
  return LANGUAGES.find((language) => language.locale === locale)?.code ?? 'CN';
}
