/** The app's entry: language first (so the first paint is in it), then the shell. */
import '../contract/zod-jitless.js'; // first: before any schema parses (CSP, no eval)
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { preferredLocale, startI18n } from './app/i18n.js';
import { registerServiceWorker } from './app/service-worker.js';
import { send } from './app/worker-client.js';
import { storedLocale } from '../client-db/use-session.js';
import { preloadToasts } from './ui/toast.js';
import './styles.css';

/** The login page is the first page of most starts: fetch its chunk while the language loads. */
function prefetchFirstPage(): void {
  const hash = window.location.hash;
  if (hash === '' || hash === '#/' || hash.startsWith('#/pages/login/login'))
    void import('./features/auth/LoginPage.js');
}

async function start() {
  prefetchFirstPage();
  const stored = await storedLocale();
  const locale = stored ?? preferredLocale(navigator.languages);
  await startI18n(locale);
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root element');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  registerServiceWorker();
  preloadToasts();
  // A first visit: the worker's lang header follows the language the page shows.
  if (stored === undefined) void send('session-set-locale', { locale });
}

void start();
