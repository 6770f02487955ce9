/**
 * i18next with one catalogue per language under locales/, loaded lazily (the first page only
 * carries the language it shows). zh-Hans is the default. There is no fallback catalogue to load
 * beside it: every catalogue has exactly the default's keys (tests/structure/locales.test.ts).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../contract/locales.js';
import type catalogue from '../../locales/zh-Hans.json';
import { send } from './worker-client.js';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof catalogue };
  }
}

const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*.json');

export async function loadCatalogue(locale: Locale): Promise<Record<string, unknown>> {
  const load = loaders[`../../locales/${locale}.json`];
  if (!load) throw new Error(`no catalogue for ${locale}`);
  return (await load()).default;
}

/** Starts i18next in `locale`; resolves when its catalogue is loaded. */
export async function startI18n(locale: string): Promise<void> {
  const lng = isLocale(locale) ? locale : DEFAULT_LOCALE;
  await i18next
    .use({
      type: 'backend',
      init() {},
      read(
        language: string,
        _namespace: string,
        callback: (error: Error | null, data: Record<string, unknown> | null) => void,
      ) {
        if (!isLocale(language)) return callback(new Error(`unknown language ${language}`), null);
        loadCatalogue(language).then(
          (data) => callback(null, data),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
        );
      },
    })
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: false,
      supportedLngs: [...LOCALES],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  document.documentElement.lang = lng;
}

/** Switches the language and the document's lang attribute. */
async function changeLocale(locale: Locale): Promise<void> {
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}

/** Set once the user picks a language in this visit: a first visit's default is then not saved. */
let picked = false;

/** The user's choice of language: stored (every later call's lang header follows it), then shown. */
export async function chooseLocale(locale: Locale): Promise<void> {
  picked = true;
  await send('session-set-locale', { locale });
  await changeLocale(locale);
}

/**
 * A first visit (no language stored): stores the language the page shows, so the worker's lang
 * header follows it, unless the user has picked one meanwhile (this runs after the first page,
 * and a choice made before it must not be overwritten by the browser's language).
 */
export function storeFirstLocale(locale: Locale): void {
  if (!picked) void send('session-set-locale', { locale });
}
