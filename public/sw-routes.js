/* global self */
/**
 * The service worker's static routes (Chromium 123 and later; a classic script the generated
 * worker loads with importScripts, vite.config.ts). The built files under /assets/ are named by
 * their content, so the precache's copy is always the right one: the browser reads them from
 * Cache Storage itself, without starting the worker or waiting for its fetch handler (each of the
 * first page's scripts waited 90 to 180 ms for it in a traced cold start, BENCH_SYNC_TRACE). A
 * file that is not in the cache (the console's, never precached) goes to the network, as before.
 * Other browsers have no addRoutes and keep the fetch handler for everything.
 */
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  event.waitUntil(
    event.addRoutes({
      condition: { urlPattern: { pathname: '/assets/*' }, requestMethod: 'get' },
      source: 'cache',
    }),
  );
});
