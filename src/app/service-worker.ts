/**
 * The service worker (vite-plugin-pwa, generateSW) that precaches the shell for offline starts,
 * and the hot update of spec section 4: fetch the newer worker, wait until it is installed,
 * then, on the user's word, activate it and reload. A new worker never takes over on its own
 * (`registerType: 'prompt'`), so nothing reloads while a command is being sent: the caller
 * quiesces the outbox first.
 */

import { REQUEST_TIMEOUT_MS } from '../../contract/constants.js';
import { send } from './worker-client.js';

/** The longest a reload waits for a send on the wire: one request's timeout, and a little. */
const QUIESCE_LIMIT_MS = REQUEST_TIMEOUT_MS + 5_000;

/** The page's registration, once registered; null where there is no service worker (dev). */
let registration: Promise<ServiceWorkerRegistration | null> = Promise.resolve(null);
/** Set just before this tab activates an update: its own `controllerchange` reloads it. */
let activatingHere = false;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registration = import('workbox-window')
    .then(({ Workbox }) => new Workbox('/sw.js', { scope: '/' }).register())
    .then((registered) => registered ?? null)
    .catch(() => null);
}

/** Resolves with the installed (waiting) worker, or null when none installs within `timeoutMs`. */
function installedWorker(found: ServiceWorkerRegistration, timeoutMs: number): Promise<ServiceWorker | null> {
  if (found.waiting) return Promise.resolve(found.waiting);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    const settle = (worker: ServiceWorker | null) => {
      clearTimeout(timer);
      resolve(worker);
    };
    const watch = (worker: ServiceWorker | null) => {
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed') settle(found.waiting ?? worker);
        if (worker.state === 'redundant') settle(null);
      });
    };
    watch(found.installing);
    found.addEventListener('updatefound', () => watch(found.installing));
  });
}

/**
 * Downloads the newer version: 'ready' once its worker is installed and waiting, 'failed' when
 * the download fails or takes longer than `timeoutMs` (spec: 60 s), 'no-worker' where the page
 * has no service worker (a reload alone then loads the new version).
 */
export async function downloadUpdate(timeoutMs: number): Promise<'ready' | 'failed' | 'no-worker'> {
  const found = await registration;
  if (found === null) return 'no-worker';
  try {
    await found.update();
  } catch {
    return 'failed';
  }
  return (await installedWorker(found, timeoutMs)) === null ? 'failed' : 'ready';
}

/** Activates the waiting worker and reloads once it controls the page (at once without one). */
export async function activateUpdate(): Promise<void> {
  const found = await registration;
  const waiting = found?.waiting ?? null;
  if (waiting === null) {
    window.location.reload();
    return;
  }
  activatingHere = true;
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

/**
 * Calls `listener` when another tab activated a new version under this one: this page's code is
 * now older than its worker's, and it should restart when the user agrees.
 */
export function onUpdatedElsewhere(listener: () => void): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  const container = navigator.serviceWorker;
  let hadController = container.controller !== null;
  const changed = () => {
    if (hadController && !activatingHere) listener();
    hadController = true;
  };
  container.addEventListener('controllerchange', changed);
  return () => container.removeEventListener('controllerchange', changed);
}

/**
 * Stops this tab's sending and waits until none of its commands is on the wire, so a reload
 * never cuts a send; bounded, so a worker that no longer answers cannot hold the page forever
 * (a command cut then is still sent once, by its key, after the reload).
 */
export async function quiesceSending(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    send('sync-quiesce').catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIESCE_LIMIT_MS))),
  ]);
  clearTimeout(timer);
}

/** Reloads the page once none of this tab's commands is on the wire. */
export async function reloadWhenQuiet(): Promise<void> {
  await quiesceSending();
  window.location.reload();
}
