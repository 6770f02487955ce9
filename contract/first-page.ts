/**
 * The first page drawn into the HTML (issue 26): the build renders the login page in each language
 * into `dist/first/<locale>.html` (vite.config.ts, `prerenderFirstPage`); the server answers `/`
 * with the one the browser's Accept-Language picks (server/http/static.ts); the app takes the
 * drawn page over once its own is on screen (src/app/prerender.ts). A first visit sees the login
 * page as soon as the HTML and its stylesheets arrive, before any JavaScript, which loads after.
 *
 * The gate, a small script in the page's head, decides before the first paint whether the drawn
 * page may show: only on a visit no service worker serves (a returning visitor's page comes from
 * the precache, without it), with no signed-in mark, at the login route or none. Otherwise the
 * page starts as every other does.
 */

/** The folder under dist/ with one first page per locale. */
export const FIRST_PAGE_DIR = 'first';
/** Where the drawn page is: a sibling of `#root`, hidden unless the gate shows it. */
export const PRERENDER_ID = 'prerender';
/** Set on `<html>` by the gate while the drawn page shows (and `#root` is hidden). */
export const PRERENDERED_CLASS = 'prerendered';
/** Marked on the drawn form when it was submitted before the app could: the app submits it then. */
export const SUBMITTED_ATTRIBUTE = 'data-submitted';
/**
 * localStorage: "1" while a session is stored (the app keeps it, src/app/prerender.ts). The
 * session itself is in IndexedDB, which a script cannot read before the first paint; this mark
 * tells the gate that a signed-in visitor must not see the login page even for a moment.
 */
export const SIGNED_IN_KEY = 'coffer.signed-in';
/** Replaced by a fresh nonce in every answer, and named in that answer's script-src. */
export const SCRIPT_NONCE_PLACEHOLDER = '__COFFER_SCRIPT_NONCE__';
/**
 * The longest the app's scripts wait for the drawn page's first paint (a tab opened in the
 * background paints only when shown).
 */
export const APP_SCRIPTS_WAIT_MS = 1000;

/** The file of a locale's first page, under dist/. */
export function firstPageFile(locale: string): string {
  return `${FIRST_PAGE_DIR}/${locale}.html`;
}

/** What the gate loads: the app's entry and the modules to preload beside it. */
export interface AppScripts {
  entry: string;
  preload: readonly string[];
}

/**
 * The gate's source, for an inline `<script>`. It shows the drawn page or drops it; where it shows,
 * the address names the login route (as the app's launch rule would), the app's scripts are asked
 * for only once the page has been painted (so they never compete with its stylesheets), and a
 * submit of the drawn form is held (never sent as a GET with the password in the address) and
 * marked for the app to send.
 */
export function gateScript(scripts: AppScripts, loginRoute: string): string {
  const settings = JSON.stringify({
    entry: scripts.entry,
    preload: scripts.preload,
    login: loginRoute,
    id: PRERENDER_ID,
    shown: PRERENDERED_CLASS,
    submitted: SUBMITTED_ATTRIBUTE,
    key: SIGNED_IN_KEY,
    wait: APP_SCRIPTS_WAIT_MS,
  });
  return `(function (s) {
  var d = document, loaded = false;
  function load() {
    if (loaded) return;
    loaded = true;
    s.preload.forEach(function (href) {
      var link = d.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      d.head.appendChild(link);
    });
    var script = d.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = s.entry;
    d.head.appendChild(script);
  }
  var show = false;
  try {
    var route = location.hash.replace(/^#/, '').split('?')[0];
    show = !(navigator.serviceWorker && navigator.serviceWorker.controller) &&
      localStorage.getItem(s.key) !== '1' &&
      (route === '' || route === '/' || route === s.login);
  } catch (error) {}
  if (!show) return load();
  d.documentElement.classList.add(s.shown);
  if (route !== s.login) history.replaceState(history.state, '', '#' + s.login);
  d.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.closest || !form.closest('#' + s.id)) return;
    event.preventDefault();
    form.setAttribute(s.submitted, '');
  }, true);
  try {
    new PerformanceObserver(load).observe({ type: 'paint', buffered: true });
  } catch (error) {
    load();
  }
  setTimeout(load, s.wait);
})(${settings});`;
}

/**
 * A locale's first page from the built shell (dist/index.html): the language on `<html>`, the
 * login page's stylesheets linked rather than preloaded (the drawn page needs them to paint), the
 * entry script and the module preloads moved into the gate, and the drawn page beside `#root`.
 * Throws when the shell is not as Vite writes it, so a changed build fails rather than ships a
 * page without its app.
 */
export function firstPageHtml(shell: string, locale: string, markup: string, loginRoute: string): string {
  const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(shell);
  if (!entryTag?.[1]) throw new Error('the shell has no entry <script type="module">');
  const preload = [...shell.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
  const gate = gateScript(
    { entry: entryTag[1], preload: preload.map((match) => match[1] ?? '') },
    loginRoute,
  );
  let html = shell.replace(entryTag[0], '');
  for (const match of preload) html = html.replace(match[0], '');
  html = html
    .replace(/<html lang="[^"]*">/, `<html lang="${locale}">`)
    .replaceAll(
      /<link rel="preload" as="style" (crossorigin )?href="([^"]+)">/g,
      '<link rel="stylesheet" $1href="$2">',
    )
    .replace('</head>', `<script nonce="${SCRIPT_NONCE_PLACEHOLDER}">${gate}</script></head>`)
    .replace(
      '<div id="root">',
      `<div id="${PRERENDER_ID}" data-locale="${locale}">${markup}</div><div id="root">`,
    );
  if (!html.includes(`id="${PRERENDER_ID}"`) || !html.includes(SCRIPT_NONCE_PLACEHOLDER))
    throw new Error('the shell has no <div id="root"> or no </head>');
  return html;
}
