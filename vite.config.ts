import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { OutputBundle } from 'rolldown';
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

/** The two pages of the build: the customer app and the operator console (admin.html, admin/). */
const ENTRIES = {
  main: fileURLToPath(new URL('./index.html', import.meta.url)),
  admin: fileURLToPath(new URL('./admin.html', import.meta.url)),
};

/** Output files only the console loads (its HTML, its chunks and their CSS), found by consoleApart. */
const consoleOnlyFiles = new Set<string>(['admin.html']);

/** Every output file an entry loads, at once or later (static and dynamic imports, imported CSS). */
function reachable(bundle: OutputBundle, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (seen.has(fileName) || !chunk) return;
    seen.add(fileName);
    if (chunk.type !== 'chunk') return;
    for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css);
    for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
  };
  visit(entry);
  return seen;
}

/**
 * Keeps the console out of the customer's service worker: notes the files reachable from the
 * console's entry and not from the app's, which the precache manifest then leaves out.
 */
function consoleApart(): Plugin {
  return {
    name: 'coffer-console-apart',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entryOf = (page: string) =>
        Object.values(bundle).find((item) => item.type === 'chunk' && item.facadeModuleId === page)?.fileName;
      const main = entryOf(ENTRIES.main);
      const admin = entryOf(ENTRIES.admin);
      if (!main || !admin) return;
      const customer = reachable(bundle, main);
      for (const file of reachable(bundle, admin)) if (!customer.has(file)) consoleOnlyFiles.add(file);
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    release(),
    consoleApart(),
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
        // Web push: shows pushes and opens the page a tap is about (public/push-sw.js).
        importScripts: ['/push-sw.js'],
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['admin.html'],
        // The console's own chunks (consoleApart): an operator's tool is online only.
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter((entry) => !consoleOnlyFiles.has(entry.url.replace(/^\//, ''))),
            warnings: [],
          }),
        ],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/admin/],
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
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: { input: ENTRIES },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
