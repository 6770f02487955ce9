import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, createServer, defineConfig, type Alias, type LogLevel, type Plugin } from 'vite';
import { FIRST_PAGE_DIR, firstPageFile, firstPageHtml } from './contract/first-page.js';
import { LOCALES, type Locale } from './contract/locales.js';
import { ROUTES } from './src/app/paths.js';
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

/**
 * The operator console is its own build (vite.console.config.ts, on React for antd), into the same
 * folder after the app's: `vite build` makes both. Its files live under assets/console/, which the
 * customer's service worker never precaches (an operator's tool is online only).
 */
function consoleBuild(): Plugin {
  let outDir = 'dist';
  let mode = 'production';
  let logLevel: LogLevel | undefined;
  return {
    name: 'coffer-console-build',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      mode = config.mode;
      logLevel = config.logLevel;
    },
    async closeBundle() {
      await build({
        configFile: fileURLToPath(new URL('./vite.console.config.ts', import.meta.url)),
        mode,
        ...(logLevel && { logLevel }),
        build: { outDir, emptyOutDir: false },
      });
    },
  };
}

/** The login page: a first visit's page, so its chunk is named in the shell (see `preloadLoginPage`). */
const LOGIN_PAGE = /[\\/]src[\\/]features[\\/]auth[\\/]LoginPage\.tsx$/;

/**
 * The shell names the login page's chunk and stylesheet for preloading: a first visit's page comes
 * with the entry instead of one round trip after it (the entry would ask for it only once it runs).
 * A returning user's Home fetches the 7 KB chunk from the service worker's precache.
 */
function preloadLoginPage(): Plugin {
  return {
    name: 'coffer-preload-login-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const login = Object.values(bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.moduleIds.some((id) => LOGIN_PAGE.test(id)),
        );
        if (login?.type !== 'chunk') throw new Error('the build has no chunk for the login page');
        const styles = [...(login.viteMetadata?.importedCss ?? [])];
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${login.fileName}` },
            injectTo: 'head',
          },
          ...styles.map((css) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${css}` },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

/**
 * The login page drawn into the HTML in each language (contract/first-page.ts): rendered after the
 * bundle is written, by the app's own components, through a Vite server that loads them in Node
 * (React's static renderer; the drawn page is replaced, never hydrated, so Preact need not draw it).
 */
function prerenderFirstPage(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'coffer-prerender-first-page',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false, watch: null },
        // Node loads the modules: no dependency scan and pre-bundling for a browser.
        optimizeDeps: { noDiscovery: true, include: [] },
        // antd-mobile's modules import their stylesheets, which Node cannot load: Vite drops them.
        ssr: { noExternal: ['antd-mobile'] },
        plugins: [react()],
      });
      try {
        const { renderFirstPage } = (await server.ssrLoadModule('/src/app/first-page-html.tsx')) as {
          renderFirstPage(locale: Locale): Promise<string>;
        };
        fs.mkdirSync(path.join(outDir, FIRST_PAGE_DIR), { recursive: true });
        for (const locale of LOCALES) {
          const markup = await renderFirstPage(locale);
          fs.writeFileSync(
            path.join(outDir, firstPageFile(locale)),
            firstPageHtml(shell, locale, markup, ROUTES.login),
          );
        }
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * The customer app renders with Preact's React-compatible layer: the same components, hooks and
 * libraries (react-router, react-i18next, antd-mobile, dexie-react-hooks) at a tenth of react-dom's
 * weight, so the first page stays within its budget (README, design notes). Unit tests render
 * with React; the end-to-end tests run this build.
 */
const PREACT: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

export default defineConfig({
  plugins: [
    react(),
    release(),
    preloadLoginPage(),
    prerenderFirstPage(),
    consoleBuild(),
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
        importScripts: ['/push-sw.js', '/sw-routes.js'],
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['admin.html', 'assets/console/**', `${FIRST_PAGE_DIR}/**`],
        // A first visit is controlled as soon as its worker is active, so a page it has not
        // opened yet loads offline from the precache (an update still waits for the user's word:
        // no skipWaiting, and a page already controlled moves to the new worker only then).
        clientsClaim: true,
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
  resolve: { alias: PREACT },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // The first page in three scripts instead of 25 (issue 26): rolldown's automatic chunking
        // gave each module shared by the entry and the lazy pages a chunk of its own (paths,
        // constants, toast, ...) and the login page's shared parts ten more of 1 to 4 KB. On a slow
        // phone each is a request (HTTP/1.1: six at a time) and a round trip before the login page
        // paints (Lighthouse's simulated LCP 2.6 -> 2.2 s). What the entry loads statically becomes
        // the entry; the login page and all it imports one chunk, which later pages share.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'] },
            { name: 'LoginPage', test: LOGIN_PAGE },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
