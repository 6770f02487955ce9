/**
 * The server's messages, from the same locales/*.json catalogues the client uses.
 * The `lang` header carries the spec's codes (KO, EN, JP, CN, DE = Thai, FH = Vietnamese, TW).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../paths.js';
import fs from 'node:fs';
import { z } from 'zod';
import { DEFAULT_LOCALE, LANGUAGES, LOCALES, type Locale } from '../../contract/locales.js';

export { DEFAULT_LOCALE, headerCodeOf, LANGUAGES, LOCALES, type Locale } from '../../contract/locales.js';

const byHeader = new Map<string, Locale>();
for (const language of LANGUAGES) {
  byHeader.set(language.code.toLowerCase(), language.locale);
  byHeader.set(language.locale.toLowerCase(), language.locale);
}
byHeader
  .set('zh-cn', 'zh-Hans')
  .set('zh-tw', 'zh-Hant')
  .set('zh', 'zh-Hans')
  .set('ja-jp', 'ja')
  .set('ko-kr', 'ko');

/** The locale for a `lang` header value; unknown or absent gives the default (Simplified Chinese). */
export function localeFromHeader(value: string | string[] | undefined): Locale {
  const raw = Array.isArray(value) ? value[0] : value;
  return (raw && byHeader.get(raw.trim().toLowerCase())) || DEFAULT_LOCALE;
}

type Catalogue = Record<string, unknown>;
const catalogueSchema: z.ZodType<Catalogue> = z.record(z.string(), z.unknown());

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part]; // walking parsed JSON objects
  }
  return typeof node === 'string' ? node : undefined;
}

export type Vars = Record<string, string | number>;

export interface Translator {
  /** Translates a catalogue key with `{{name}}` placeholders; falls back to zh-Hans, then to the key. */
  t(locale: Locale, key: string, vars?: Vars): string;
  has(key: string): boolean;
}

/** Loads every catalogue once; throws when one is missing or not an object. */
export function loadTranslator(
  localesDir: URL = pathToFileURL(projectPath('locales') + path.sep),
): Translator {
  const catalogues = new Map<Locale, Catalogue>();
  for (const locale of LOCALES) {
    const file = new URL(`${locale}.json`, localesDir);
    catalogues.set(locale, catalogueSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))));
  }
  const fallback = catalogues.get(DEFAULT_LOCALE) ?? {};
  return {
    t(locale, key, vars) {
      const template = lookup(catalogues.get(locale) ?? fallback, key) ?? lookup(fallback, key) ?? key;
      return vars
        ? template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(vars[name] ?? whole))
        : template;
    },
    has: (key) => lookup(fallback, key) !== undefined,
  };
}
