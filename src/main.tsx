/** The app's entry: language first (so the first paint is in it), then the shell. */
import '../contract/zod-jitless.js'; // first: before any schema parses (CSP, no eval)
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { startI18n, storeFirstLocale } from './app/i18n.js';
import { preferredLocale } from '../contract/locales.js';
import { afterFirstPage } from './app/first-page.js';
import { registerServiceWorker } from './app/service-worker.js';
import { readStoredSession, storedLocale } from '../client-db/use-session.js';
import { launchTarget, preloadPage } from './app/routes.js';
import { preloadToasts } from './ui/toast.js';
import { keepPrerenderIn } from './app/prerender.js';
import './styles.css';

/**
 * User Timing marks of the cold start (`npm run bench:sync` prints them): the entry running, the
 * language ready, the first render asked for. Free when nobody reads them.
 */
const mark = (name: string) => performance.mark(`coffer:${name}`);

async function start() {
  mark('entry');
  // The first page's chunk loads while the session and the language do: the page the address
  // names at once, then the one the launch rule picks (home with a stored token, else login).
  const path = window.location.hash.replace(/^#/, '').split('?')[0] || '/';
  preloadPage(path);
  void readStoredSession().then(
    (session) => preloadPage(launchTarget(path, session !== null) ?? path),
    () => undefined,
  );
  const browserLocale = preferredLocale(navigator.languages);
  const stored = await storedLocale();
  const locale = stored ?? browserLocale;
  keepPrerenderIn(locale);
  await startI18n(locale);
  mark('language');
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root element');
  mark('render');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  afterFirstPage(() => {
    registerServiceWorker();
    preloadToasts();
    if (stored === undefined) storeFirstLocale(browserLocale);
  });
}

void start();
