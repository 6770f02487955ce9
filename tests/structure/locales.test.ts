import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const LANGUAGES = ['zh-Hans', 'zh-Hant', 'en', 'ja', 'ko', 'th', 'vi'] as const;
type Language = (typeof LANGUAGES)[number];

const DEFAULT_LANGUAGE: Language = 'zh-Hans';
const SOURCE_LANGUAGE: Language = 'en';
const LOCALES_DIR = new URL('../../locales/', import.meta.url);

/** i18next plural suffixes; `key_one` and `key_other` both count as `key`. */
const PLURAL_SUFFIX = /_(?:zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([^{}\s,]+)[^{}]*\}\}/g;
/** Names that stay in Latin letters in every language. */
const UNTRANSLATED_NAMES = ['Idempotency-Key', 'Coffer'];
/** Keys whose value may legitimately equal the English one. */
const UNTRANSLATED_KEYS = new Set(['field.idempotencyKey']);

function fileUrl(lang: Language): URL {
  return new URL(`${lang}.json`, LOCALES_DIR);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nested catalogue -> Map of dotted path -> leaf value (leaves may be any non-object). */
function flatten(
  node: Record<string, unknown>,
  prefix = '',
  out = new Map<string, unknown>(),
): Map<string, unknown> {
  for (const [key, value] of Object.entries(node)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isPlainObject(value)) flatten(value, path, out);
    else out.set(path, value);
  }
  return out;
}

function baseKey(path: string): string {
  return path.replace(PLURAL_SUFFIX, '');
}

function placeholders(value: string): Set<string> {
  return new Set(Array.from(value.matchAll(PLACEHOLDER), (m) => m[1] ?? ''));
}

function sorted(values: Iterable<string>): string[] {
  return [...values].sort();
}

/** True when a value holds nothing to translate: only brand/header names, placeholders, digits, punctuation. */
function hasNothingToTranslate(value: string): boolean {
  let rest = value.replace(PLACEHOLDER, '');
  for (const name of UNTRANSLATED_NAMES) rest = rest.split(name).join('');
  return rest.replace(/[\p{P}\p{S}\p{N}\s]/gu, '') === '';
}

type Loaded = { ok: true; flat: Map<string, unknown> } | { ok: false; error: string };

function load(lang: Language): Loaded {
  const url = fileUrl(lang);
  if (!existsSync(url)) return { ok: false, error: `${lang}: file ${url.pathname} does not exist` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(url, 'utf8'));
  } catch (err) {
    return {
      ok: false,
      error: `${lang}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  if (!isPlainObject(parsed)) return { ok: false, error: `${lang}: top level is not a JSON object` };
  return { ok: true, flat: flatten(parsed) };
}

const loaded = new Map<Language, Loaded>(LANGUAGES.map((lang) => [lang, load(lang)]));

/** The flattened catalogue of a language; throws (failing the test) if it could not be loaded. */
function catalogue(lang: Language): Map<string, unknown> {
  const entry = loaded.get(lang);
  if (entry === undefined) throw new Error(`${lang}: not a known language`);
  if (!entry.ok) throw new Error(entry.error);
  return entry.flat;
}

function stringEntries(lang: Language): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of catalogue(lang)) if (typeof value === 'string') out.push([key, value]);
  return out;
}

describe('locale catalogues', () => {
  test('every language has a catalogue file that exists and parses as a JSON object', () => {
    const problems = LANGUAGES.flatMap((lang) => {
      const entry = loaded.get(lang);
      return entry === undefined || entry.ok ? [] : [entry.error];
    });
    expect(problems).toEqual([]);
  });

  test(`every language has exactly the keys of the default ${DEFAULT_LANGUAGE} catalogue`, () => {
    const expected = new Set([...catalogue(DEFAULT_LANGUAGE).keys()].map(baseKey));
    const problems: { lang: Language; missing: string[]; extra: string[] }[] = [];
    for (const lang of LANGUAGES) {
      const actual = new Set([...catalogue(lang).keys()].map(baseKey));
      const missing = sorted([...expected].filter((key) => !actual.has(key)));
      const extra = sorted([...actual].filter((key) => !expected.has(key)));
      if (missing.length > 0 || extra.length > 0) problems.push({ lang, missing, extra });
    }
    expect(problems).toEqual([]);
  });

  test('every value is a non-empty string', () => {
    const problems: string[] = [];
    for (const lang of LANGUAGES) {
      for (const [key, value] of catalogue(lang)) {
        if (typeof value !== 'string')
          problems.push(`${lang} ${key}: ${JSON.stringify(value)} is not a string`);
        else if (value.trim() === '') problems.push(`${lang} ${key}: is empty`);
      }
    }
    expect(problems).toEqual([]);
  });

  test(`every value uses the same {{placeholders}} as the ${DEFAULT_LANGUAGE} value for its key`, () => {
    const reference = new Map<string, string>();
    for (const [key, value] of stringEntries(DEFAULT_LANGUAGE)) reference.set(key, value);
    const referenceByBase = new Map<string, Set<string>>();
    for (const [key, value] of reference) {
      const names = referenceByBase.get(baseKey(key)) ?? new Set<string>();
      for (const name of placeholders(value)) names.add(name);
      referenceByBase.set(baseKey(key), names);
    }

    const problems: string[] = [];
    for (const lang of LANGUAGES) {
      for (const [key, value] of stringEntries(lang)) {
        const exact = reference.get(key);
        const expectedSet = exact !== undefined ? placeholders(exact) : referenceByBase.get(baseKey(key));
        if (expectedSet === undefined) continue; // key not in the default catalogue: reported by the key test
        const isPlural = PLURAL_SUFFIX.test(key);
        // A plural form such as `_one` may spell out the number instead of using {{count}}.
        const wanted = sorted([...expectedSet].filter((n) => !(isPlural && n === 'count')));
        const actual = sorted([...placeholders(value)].filter((n) => !(isPlural && n === 'count')));
        if (JSON.stringify(wanted) !== JSON.stringify(actual)) {
          problems.push(
            `${lang} ${key}: has {{${actual.join('}}, {{')}}} but ${DEFAULT_LANGUAGE} has {{${wanted.join('}}, {{')}}}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('no translation is left identical to the English text, except brand and header names', () => {
    const english = new Map(stringEntries(SOURCE_LANGUAGE));
    const problems: string[] = [];
    for (const lang of LANGUAGES) {
      if (lang === SOURCE_LANGUAGE) continue;
      for (const [key, value] of stringEntries(lang)) {
        if (UNTRANSLATED_KEYS.has(key) || english.get(key) !== value || hasNothingToTranslate(value))
          continue;
        problems.push(`${lang} ${key}: ${JSON.stringify(value)} is still English`);
      }
    }
    expect(problems).toEqual([]);
  });
});
