/**
 * Issue 26, the first page drawn into the HTML (contract/first-page.ts): the gate's choice before
 * the first paint, the app's scripts after it, a held submit; the page made from Vite's shell; the
 * language Accept-Language picks. The whole flow in Chromium is in tests/e2e/first-page.test.ts.
 */
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import {
  APP_SCRIPTS_WAIT_MS,
  firstPageHtml,
  gateScript,
  PRERENDER_ID,
  PRERENDERED_CLASS,
  SCRIPT_NONCE_PLACEHOLDER,
  SIGNED_IN_KEY,
  SUBMITTED_ATTRIBUTE,
} from '../../contract/first-page.js';
import { acceptedLanguages, preferredLocale } from '../../contract/locales.js';

const LOGIN = '/pages/login/login';
const SCRIPTS = {
  entry: '/assets/index-A1.js',
  preload: ['/assets/runtime-B2.js', '/assets/LoginPage-C3.js'],
};

interface Visit {
  hash?: string;
  controlled?: boolean;
  signedIn?: string | null;
  storageRefuses?: boolean;
  paintObserver?: boolean;
}

/** Runs the gate in a page made of just what it touches. */
function runGate({
  hash = '',
  controlled = false,
  signedIn = null,
  storageRefuses = false,
  paintObserver = true,
}: Visit) {
  const appended: Array<Record<string, string>> = [];
  const classes = new Set<string>();
  const submitListeners: Array<(event: unknown) => void> = [];
  const observers: Array<() => void> = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const addresses: string[] = [];
  const context = {
    document: {
      head: { appendChild: (element: Record<string, string>) => appended.push(element) },
      createElement: (tag: string) => ({ tag }),
      documentElement: { classList: { add: (name: string) => classes.add(name) } },
      addEventListener: (type: string, listener: (event: unknown) => void, capture: boolean) => {
        if (type === 'submit' && capture) submitListeners.push(listener);
      },
    },
    location: { hash },
    history: {
      state: null,
      replaceState: (_state: unknown, _title: string, url: string) => addresses.push(url),
    },
    navigator: { serviceWorker: { controller: controlled ? {} : null } },
    localStorage: {
      getItem: (key: string) => {
        if (storageRefuses) throw new Error('SecurityError');
        return key === SIGNED_IN_KEY ? signedIn : null;
      },
    },
    PerformanceObserver: paintObserver
      ? class {
          constructor(private readonly callback: () => void) {}
          observe(options: { type: string; buffered: boolean }) {
            if (options.type === 'paint' && options.buffered) observers.push(this.callback);
          }
        }
      : undefined,
    setTimeout: (run: () => void, ms: number) => timers.push({ run, ms }),
  };
  vm.runInNewContext(gateScript(SCRIPTS, LOGIN), context);
  return {
    shown: () => classes.has(PRERENDERED_CLASS),
    loaded: () =>
      appended.map(
        (element) =>
          `${element['tag']} ${element['rel'] ?? element['type']} ${element['href'] ?? element['src']}`,
      ),
    paint: () => observers.forEach((callback) => callback()),
    wait: () => timers.forEach((timer) => timer.run()),
    timers,
    addresses,
    submit(insideDrawnPage: boolean) {
      const marks: string[] = [];
      let prevented = false;
      const form = {
        closest: (selector: string) => (insideDrawnPage && selector === `#${PRERENDER_ID}` ? {} : null),
        setAttribute: (name: string) => marks.push(name),
      };
      for (const listener of submitListeners)
        listener({ target: form, preventDefault: () => (prevented = true) });
      return { prevented, marks };
    },
  };
}

const APP_LOADED = [
  'link modulepreload /assets/runtime-B2.js',
  'link modulepreload /assets/LoginPage-C3.js',
  'script module /assets/index-A1.js',
];

describe('the gate of the drawn login page', () => {
  test.each(['', '#/', `#${LOGIN}`, `#${LOGIN}?from=start`])(
    'a first visit at "%s" (no service worker, no signed-in mark) sees the drawn page at the login route; the app loads after its first paint, once',
    (hash) => {
      const visit = runGate({ hash });
      expect(visit.shown()).toBe(true);
      expect(visit.addresses).toEqual(hash.startsWith(`#${LOGIN}`) ? [] : [`#${LOGIN}`]);
      expect(visit.loaded()).toEqual([]);
      visit.paint();
      expect(visit.loaded()).toEqual(APP_LOADED);
      visit.paint();
      visit.wait();
      expect(visit.loaded()).toEqual(APP_LOADED);
    },
  );

  test(`without a paint (a tab in the background), the app loads after ${APP_SCRIPTS_WAIT_MS} ms; without paint timing, at once`, () => {
    const background = runGate({});
    expect(background.timers.map((timer) => timer.ms)).toEqual([APP_SCRIPTS_WAIT_MS]);
    background.wait();
    expect(background.loaded()).toEqual(APP_LOADED);
    const old = runGate({ paintObserver: false });
    expect(old.shown()).toBe(true);
    expect(old.loaded()).toEqual(APP_LOADED);
  });

  test.each<[string, Visit]>([
    ['a visit a service worker serves', { controlled: true }],
    ['a signed-in visitor', { signedIn: '1' }],
    ['another route', { hash: '#/pages/register/register' }],
    ['a page whose storage refuses to be read', { storageRefuses: true }],
  ])('%s never sees the drawn page: the app loads at once', (_name, visit) => {
    const gate = runGate(visit);
    expect(gate.shown()).toBe(false);
    expect(gate.addresses).toEqual([]);
    expect(gate.loaded()).toEqual(APP_LOADED);
  });

  test('a submit of the drawn form is held (no GET with the password in the address) and marked for the app; other forms are left alone', () => {
    const visit = runGate({});
    expect(visit.submit(true)).toEqual({ prevented: true, marks: [SUBMITTED_ATTRIBUTE] });
    expect(visit.submit(false)).toEqual({ prevented: false, marks: [] });
  });
});

/** The head and body Vite writes into dist/index.html. */
const SHELL = `<!doctype html>
<html lang="zh-Hans">
  <head>
    <title>Coffer</title>
    <script type="module" crossorigin src="/assets/index-A1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-B2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-D4.css">
    <link rel="modulepreload" crossorigin href="/assets/LoginPage-C3.js">
    <link rel="preload" as="style" crossorigin href="/assets/LoginPage-E5.css">
  </head>
  <body>
    <div id="root"><div class="boot">Coffer</div></div>
  </body>
</html>`;

describe('a locale first page made from the built shell', () => {
  const page = firstPageHtml(SHELL, 'en', '<h1>Log in</h1>', LOGIN);

  test('in its language, with the login page drawn beside #root and its stylesheets linked (the drawing needs them to paint)', () => {
    expect(page).toContain('<html lang="en">');
    expect(page).toContain(`<div id="${PRERENDER_ID}" data-locale="en"><h1>Log in</h1></div><div id="root">`);
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-D4.css">');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/LoginPage-E5.css">');
    expect(page).not.toContain('rel="preload"');
  });

  test('the app scripts move into the gate, the one inline script, carrying the nonce placeholder', () => {
    expect(page).not.toContain('<script type="module"');
    expect(page).not.toContain('modulepreload" crossorigin href');
    expect([...page.matchAll(/<script\b/g)]).toHaveLength(1);
    expect(page).toContain(
      `<script nonce="${SCRIPT_NONCE_PLACEHOLDER}">${gateScript(SCRIPTS, LOGIN)}</script></head>`,
    );
  });

  test('a shell not as Vite writes it fails the build rather than ship a page without its app', () => {
    expect(() => firstPageHtml(SHELL.replace(/<script[^]*?<\/script>/, ''), 'en', '', LOGIN)).toThrow(
      /entry/,
    );
    expect(() => firstPageHtml(SHELL.replace('<div id="root">', '<main>'), 'en', '', LOGIN)).toThrow(/root/);
  });
});

describe("a first visit's language from Accept-Language", () => {
  test('tags most preferred first (q, then order); the wildcard and q=0 are not preferences', () => {
    expect(acceptedLanguages('fr-CA, ja;q=0.9, en;q=0.95, *;q=0.5, ko;q=0')).toEqual(['fr-CA', 'en', 'ja']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('')).toEqual([]);
  });

  test.each([
    ['ja-JP,ja;q=0.9,en-US;q=0.8', 'ja'],
    ['fr-CA, en;q=0.5', 'en'],
    ['zh-TW,zh;q=0.9', 'zh-Hant'],
    ['zh-CN', 'zh-Hans'],
    ['de-DE', 'zh-Hans'],
    ['th;q=0.2, vi;q=0.8', 'vi'],
  ])('%s picks %s (zh-Hans when none is ours)', (header, locale) => {
    expect(preferredLocale(acceptedLanguages(header))).toBe(locale);
  });
});
