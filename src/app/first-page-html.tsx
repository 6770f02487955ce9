/**
 * Build time only (vite.config.ts, `prerenderFirstPage`): the login page's markup in one language,
 * drawn by the same components as the app draws it (contract/first-page.ts). Rendered with React's
 * static renderer in Node, which waits for the lazy page.
 */
import { createInstance } from 'i18next';
import { prerender } from 'react-dom/static';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createPath, Router, type Navigator } from 'react-router-dom';
import type { Locale } from '../../contract/locales.js';
import { RoutePage } from './App.js';
import { loadCatalogue } from './i18n.js';
import { ROUTES } from './paths.js';
import { routeOf } from './routes.js';

/** Links as the app's HashRouter writes them; nothing navigates at build time. */
const hashNavigator: Navigator = {
  createHref: (to) => `#${typeof to === 'string' ? to : createPath(to)}`,
  go: () => undefined,
  push: () => undefined,
  replace: () => undefined,
};

export async function renderFirstPage(locale: Locale): Promise<string> {
  // The page is drawn as a browser with passkeys shows it (every current one): the passkey button
  // is there. One without them loses the button when the app takes over.
  (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential ??= class PublicKeyCredential {};
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: locale,
    resources: { [locale]: { translation: await loadCatalogue(locale) } },
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  const entry = routeOf(ROUTES.login);
  if (!entry) throw new Error('no login route');
  const { prelude } = await prerender(
    <I18nextProvider i18n={i18n}>
      <Router location={ROUTES.login} navigator={hashNavigator}>
        <div className="app">
          <RoutePage entry={entry} loggedIn={false} />
        </div>
      </Router>
    </I18nextProvider>,
  );
  return new Response(prelude).text();
}
