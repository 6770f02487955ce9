/** Registers the service worker (vite-plugin-pwa, generateSW) that precaches the shell for offline starts. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  void import('workbox-window').then(({ Workbox }) => {
    const workbox = new Workbox('/sw.js', { scope: '/' });
    void workbox.register();
  });
}
