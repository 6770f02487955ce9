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

/**
 * The browser's preferred language among ours, for a first visit: from `navigator.languages` in
 * the app, from Accept-Language on the server (the first page drawn in it, contract/first-page.ts).
 */
export function preferredLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return /hant|tw|hk|mo/.test(lower) ? 'zh-Hant' : 'zh-Hans';
    const base = lower.split('-')[0] ?? '';
    const match = LOCALES.find((locale) => locale === base);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

/** The language tags of an Accept-Language header, most preferred first (RFC 9110 section 12.5.4). */
export function acceptedLanguages(header: string | undefined): string[] {
  const ranked: Array<{ tag: string; q: number; order: number }> = [];
  for (const [order, part] of (header ?? '').split(',').entries()) {
    const [tag = '', ...parameters] = part.trim().split(';');
    const q = parameters.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    if (tag && tag !== '*' && weight > 0) ranked.push({ tag: tag.trim(), q: weight, order });
  }
  return ranked.sort((a, b) => b.q - a.q || a.order - b.order).map((entry) => entry.tag);
}
