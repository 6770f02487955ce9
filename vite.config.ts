import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { HOT_VERSION_META, RELEASE_FILE, releaseOf } from './contract/release.js';

/** Stamps the build's hot version into the shell (meta tag) and dist/version.json (contract/release.ts). */
function release(): Plugin {
  const current = releaseOf(process.env.COFFER_HOT_VERSION_CODE);
  return {
    name: 'coffer-release',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { name: HOT_VERSION_META, content: String(current.hot_version_code) },
        injectTo: 'head',
      },
    ],
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: RELEASE_FILE, source: `${JSON.stringify(current)}\n` });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    release(),
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Coffer',
        short_name: 'Coffer',
        description: 'USDT custody, hosting and trading',
        start_url: '/#/pages/index/index',
        scope: '/',
        display: 'standalone',
        background_color: '#f4f6f5',
        theme_color: '#0f5f57',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // Images (avatars, news pictures) once seen stay readable offline; never /api/, whose
            // images belong to one user and need the token the service worker never sees.
            urlPattern: ({ request, url }) =>
              request.destination === 'image' && !url.pathname.startsWith('/api/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'coffer-images',
              expiration: { maxEntries: 100, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
  worker: { format: 'es' },
  build: { outDir: 'dist', target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
