/* global self, URL */
/**
 * Web push in the service worker (docs/protocol.md section 34), a classic script the generated
 * worker loads with importScripts (vite.config.ts). A push carries JSON {title, body, url}
 * (decrypted by the browser): it is shown as a notification; a tap focuses an open window of the
 * app and takes it to `url`, or opens a new one there. Only pages of the app's own origin are
 * opened, whatever a payload says.
 */
(function installPushHandlers(scope) {
  const FALLBACK = { title: 'Coffer', body: '', url: '/' };

  /** The push's {title, body, url}, or the fallback when it carries none that reads. */
  function payloadOf(event) {
    try {
      const data = event.data ? event.data.json() : null;
      if (data && typeof data.title === 'string' && typeof data.body === 'string') {
        return { title: data.title, body: data.body, url: typeof data.url === 'string' ? data.url : '/' };
      }
    } catch {
      // not JSON: shown as the fallback (a push must always show something)
    }
    return FALLBACK;
  }

  /** `url` as an absolute address of the app's origin; another origin's becomes the app's start. */
  function appUrl(url) {
    const origin = scope.location.origin;
    try {
      const target = new URL(url, origin);
      return target.origin === origin ? target.href : `${origin}/`;
    } catch {
      return `${origin}/`;
    }
  }

  scope.addEventListener('push', (event) => {
    const payload = payloadOf(event);
    event.waitUntil(
      scope.registration.showNotification(payload.title, {
        body: payload.body,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { url: appUrl(payload.url) },
      }),
    );
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data;
    const target = appUrl(data && typeof data.url === 'string' ? data.url : '/');
    event.waitUntil(
      (async () => {
        const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const open = windows.find((client) => new URL(client.url).origin === scope.location.origin);
        if (open) {
          const client = (await open.focus()) || open;
          if (client.url === target) return;
          try {
            // navigate() works on windows this worker controls; another opens a window instead.
            if (await client.navigate(target)) return;
          } catch {
            // not controlled by this worker
          }
        }
        await scope.clients.openWindow(target);
      })(),
    );
  });
})(self);
