/**
 * The end-to-end harness: a production build of the client per test file (a copy, in a folder of
 * its own which a test may change in place to deploy a "new version", of the build the test run
 * shares for that build environment), a real Coffer on
 * loopback serving it beside the API, a real SMTP server for the mailed codes, Debian's
 * Chromium through playwright-core, and, where a file asks for it, a loopback proxy in front of
 * Coffer that a test can cut to make offline real (Playwright's `setOffline` does not reach
 * service workers). Pages are driven by role and label, with the names taken from the locale
 * catalogues, as a user or a screen reader sees them.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import type { CofferServer } from '../../server/app.js';
import { startHttpCoffer, type HttpCoffer } from '../helpers/http-coffer.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.js';
import { httpAdminClient, setUpOperator, type AdminClient } from '../helpers/operator.js';
import { startSmtp, type LocalSmtp } from '../helpers/smtp.js';
import { LoopbackProxy } from './proxy.js';
import { parseMoney } from '../../contract/money.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { customerBook } from '../../server/ledger/books.js';
import { transfer } from '../../server/ledger/ledger.js';
import { open } from '../../server/http/envelope-codec.js';
import { ROUTES } from '../../src/app/paths.js';

export const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const ROOT_INVITE = 'E2EROOT1';
/** The trade password `customer` binds. */
export const TRADE_PASSWORD = 'trade-secret1';

/** Types TRADE_PASSWORD into the field labelled `passwordLabel` within `scope` and presses `button`. */
export async function confirmWithTradePassword(
  scope: Page | Locator,
  passwordLabel: string,
  button: string,
): Promise<void> {
  await scope.getByLabel(passwordLabel, { exact: true }).first().fill(TRADE_PASSWORD);
  await scope.getByRole('button', { name: button, exact: true }).click();
}
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
export const SLOW = { timeout: 120_000 };
/** How long a page may take to show what a step expects (first loads fetch lazy chunks). */
export const WAIT_MS = 15_000;

export const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `[e2e] SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium); the end-to-end tests did not run`,
  );
}

// ---------------------------------------------------------------------------------------------
// The UI's words, from the locale catalogues (the same files the app loads).

/** A catalogue: groups of words, nested (`records.filter.label`); every word is a string. */
type Catalogue = { [key: string]: string | Catalogue };
const catalogueSchema: z.ZodType<Catalogue> = z.lazy(() =>
  z.record(z.string(), z.union([z.string(), catalogueSchema])),
);

/** A lookup of `namespace.key` (or a deeper path) in one catalogue; a missing key fails the test loudly. */
export function strings(locale: string): (key: string) => string {
  const file = path.join(ROOT_DIR, 'locales', `${locale}.json`);
  const catalogue = catalogueSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return (key) => {
    const value = key
      .split('.')
      .reduce<string | Catalogue | undefined>(
        (node, name) => (typeof node === 'object' ? node[name] : undefined),
        catalogue,
      );
    if (typeof value !== 'string') throw new Error(`${locale}.json has no ${key}`);
    return value;
  };
}
export const en = strings('en');
export const ja = strings('ja');
export const th = strings('th');
export const zh = strings('zh-Hans');

// ---------------------------------------------------------------------------------------------
// Coffer on loopback.

const answerSchema = z.object({ code: z.number(), message: z.string(), data: z.unknown() });
type Answer = z.infer<typeof answerSchema>;

// ---------------------------------------------------------------------------------------------
// Page helpers.

export interface Tab {
  page: Page;
  /** Console errors and uncaught page errors, checked at the end of every test. */
  errors: string[];
  /** Every request the page or its worker made to /api/. */
  apiCalls: string[];
  /** The same requests by the route they call: an envelope's inner `uri`, else the path. */
  apiRoutes: string[];
}

/** The route a request to /api/ calls: the inner `uri` of an envelope (spec Reading A), else its path. */
function routeOfRequest(url: string, body: string | null): string {
  const form = new URLSearchParams(body ?? '');
  const data = form.get('data');
  const handshake = form.get('handshake');
  if (data === null || handshake === null) return new URL(url).pathname;
  try {
    return z.object({ uri: z.string() }).parse(JSON.parse(open(data, handshake))).uri;
  } catch {
    return new URL(url).pathname;
  }
}

/** Waits for the page whose one h1 is `title`. */
export async function expectPage(page: Page, title: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor({ state: 'visible' });
  expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
}

export function routeOf(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, '');
}

/** The route is `route` now and still is a moment later (no redirect is on its way). */
export async function expectStaysAt(page: Page, route: string): Promise<void> {
  expect(routeOf(page)).toBe(route);
  await page.waitForTimeout(400);
  expect(routeOf(page)).toBe(route);
}

/** Nothing is wider than the screen (a long e-mail address included). */
export async function expectNoOverflow(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? PHONE.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${name}: scrollWidth at ${width} px`).toBeLessThanOrEqual(width);
}

/** The window event each toast dispatches (src/ui/toast.ts TOAST_EVENT), its detail the text. */
const TOAST_EVENT = 'coffer-toast';

/**
 * Runs in every document of a test's browser context before the app: keeps each toast's text in
 * `window.__cofferToasts`, so a test asserts a toast without racing its 2-second fade.
 */
function recordToasts(eventName: string): void {
  const said: string[] = [];
  Reflect.set(window, '__cofferToasts', said);
  window.addEventListener(eventName, (event) => {
    if (event instanceof CustomEvent && typeof event.detail === 'string') said.push(event.detail);
  });
}

/**
 * The page has shown the toast `message` (recorded by recordToasts, however briefly it was on
 * screen). Each call takes one recorded occurrence, so the same toast twice needs two toasts.
 */
export async function expectToast(page: Page, message: string | RegExp, timeout = WAIT_MS): Promise<void> {
  const pattern = typeof message === 'string' ? null : { source: message.source, flags: message.flags };
  const text = typeof message === 'string' ? message : null;
  const took = () =>
    page.evaluate(
      ({ text, pattern }) => {
        const said: unknown = Reflect.get(window, '__cofferToasts');
        if (!Array.isArray(said)) return false;
        const regex = pattern ? new RegExp(pattern.source, pattern.flags) : null;
        const at = said.findIndex((item) =>
          regex ? typeof item === 'string' && regex.test(item) : item === text,
        );
        if (at < 0) return false;
        said.splice(at, 1);
        return true;
      },
      { text, pattern },
    );
  await expect.poll(took, { timeout, message: `the toast ${String(message)}` }).toBe(true);
}

/** The error shown beside the input labelled `label`, which must be marked invalid. */
export async function fieldError(page: Page, label: string): Promise<string> {
  const input = page.getByLabel(label, { exact: true });
  await expect.poll(() => input.getAttribute('aria-invalid'), { timeout: WAIT_MS }).toBe('true');
  const describedBy = await input.getAttribute('aria-describedby');
  if (!describedBy) throw new Error(`${label} is invalid but names no description`);
  return (await page.locator(`[id="${describedBy}"]`).textContent()) ?? '';
}

/** The token the worker stored in `coffer-session` (CONTRACT.md "The client's own storage"). */
export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve, reject) => {
        const request = indexedDB.open('coffer-session');
        request.onerror = () => reject(new Error('cannot open coffer-session'));
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('session')) {
            db.close();
            resolve(null);
            return;
          }
          const read = db.transaction('session', 'readonly').objectStore('session').get('current');
          read.onerror = () => reject(new Error('cannot read the session'));
          read.onsuccess = () => {
            db.close();
            const record: unknown = read.result;
            const token =
              typeof record === 'object' && record !== null && 'token' in record ? record.token : null;
            resolve(typeof token === 'string' ? token : null);
          };
        };
      }),
  );
}

export async function logIn(page: Page, t: (key: string) => string, email: string, password: string) {
  await expectPage(page, t('auth.login_title'));
  await page.getByLabel(t('field.email'), { exact: true }).fill(email);
  await page.getByLabel(t('field.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('auth.login'), exact: true }).click();
  await expectPage(page, t('tabs.home'));
}

interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every CSS transition and animation on the page that ends has ended (a spinner's, which never
 * does, is left): a drawer or dialog half way through fading in reads to axe as low contrast.
 */
export async function animationsSettled(page: Page): Promise<void> {
  // antd's motions (rc-motion) mark an element first and start its CSS a frame or two later:
  // let two frames pass (or 100 ms, for a tab in the background that draws no frames) so an
  // animation about to start is among the page's animations; then wait for those, 5 s at most.
  await page.evaluate(async () => {
    await new Promise<void>((resolve) => {
      requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      setTimeout(resolve, 100);
    });
    const running = document
      .getAnimations()
      .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined));
    await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 5000))]);
  });
}

/**
 * The page as a screen reader and a phone see it: no serious or critical axe violation, one h1,
 * nothing wider than the screen. A toast fading in or out is half transparent, which axe reads
 * as low contrast, so the check waits until none is on screen and every finite animation is over.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await animationsSettled(page);
  // Evaluated through the DevTools protocol: the app's CSP refuses an inline <script> tag.
  await page.evaluate(axeSource);
  let violations: AxeViolation[] = [];
  // A toast announced just before may render a frame later, after the wait saw none: a run
  // during which a toast was on screen is repeated once it has gone.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
    const run = await page.evaluate(async () => {
      const axe = Reflect.get(window, 'axe') as { run(): Promise<AxeResults> }; // injected just above
      const toastBefore = document.querySelector('.adm-toast-mask') !== null;
      const results = await axe.run();
      const toastAfter = document.querySelector('.adm-toast-mask') !== null;
      return {
        toast: toastBefore || toastAfter,
        violations: results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            help: violation.help,
            nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
          })),
      };
    });
    violations = run.violations;
    if (!run.toast) break;
  }
  if (violations.length > 0) console.warn(`[e2e] axe on ${name}:`, JSON.stringify(violations, null, 2));
  expect(violations, name).toEqual([]);
  expect(await page.getByRole('heading', { level: 1 }).count(), name).toBe(1);
  await expectNoOverflow(page, name);
}

/** In-app navigation (no reload, so the launch rule does not send the page home). */
export async function navigateInApp(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, route);
}

/** Goes to `route` in the app, as `navigateInApp` does, and waits for its page, whose one h1 is `title`. */
export async function goToPage(page: Page, route: string, title: string): Promise<void> {
  await navigateInApp(page, route);
  await expectPage(page, title);
}

export function expectNoErrors(tab: Tab): void {
  expect(tab.errors, tab.errors.join('\n')).toEqual([]);
}

/**
 * No error of the app's: the browser's console line for each request that failed (one the cut
 * link refused, an answer with an error status) is the browser's, and is left out.
 */
export function expectNoAppErrors(tab: Tab): void {
  const errors = tab.errors.filter((error) => !error.includes('Failed to load resource'));
  expect(errors, errors.join('\n')).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

export interface HarnessOptions {
  /** Put a LoopbackProxy between the browser and Coffer (the browser's origin is the proxy's). */
  proxy?: boolean;
  /** More of Coffer's environment, read when it starts (after the file's earlier beforeAll hooks). */
  env?: () => Record<string, string>;
  /**
   * The client build's environment, e.g. `VITE_TRANSPORT: 'plain'` for a file whose server runs
   * on `COFFER_NOW` (the envelope's timestamp, from the browser's real clock, would be stale).
   */
  build?: Record<string, string>;
}

/**
 * Registers this file's setup and teardown hooks and returns what its tests use. Call it once,
 * inside the file's `describe`.
 */
const accountListSchema = z.object({ items: z.array(z.object({ id: z.string() })) });
const ledgerCheckSchema = z.object({ ok: z.boolean() });
const tokenSchema = z.object({ token: z.string() });

/** A customer the harness registered: its credentials and session token. */
export interface Customer {
  email: string;
  password: string;
  token: string;
}

/** What `customer` sets up beyond signing in. */
export interface CustomerOptions {
  /** The finance operator's token that adjusts `funds` in. */
  finance: string;
  /** The amounts adjusted into the main account, in this order. */
  funds: Partial<Record<'USDT' | 'RAB', string>>;
  /** The adjustments' reason. */
  reason: string;
  /** The login page's language (English by default). */
  t?: (key: string) => string;
  /** Bind TRADE_PASSWORD (true by default). */
  tradePassword?: boolean;
}

export function e2eHarness(options: HarnessOptions = {}) {
  /** The app built for this file, in a folder of its own (npm start and the bench serve dist/). */
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-dist-'));
  let smtp: LocalSmtp | undefined;
  let coffer: HttpCoffer | undefined;
  let proxy: LoopbackProxy | undefined;
  let browser: Browser | undefined;
  /** Contexts opened by the running test; closed after it, pass or fail. */
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // The run's production build of the client for this environment, copied into this file's
    // own folder, served beside the API.
    await clientBuild(distDir, options.build);
    smtp = await startSmtp();
    coffer = await startHttpCoffer({
      smtpPort: smtp.port,
      rootInvite: ROOT_INVITE,
      env: { COFFER_RATE_LIMIT: '0', ...options.env?.() },
      distDir,
    });
    if (options.proxy === true) proxy = await LoopbackProxy.start(new URL(coffer.base));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  }, 180_000);

  afterEach(async ({ task }) => {
    proxy?.up();
    if (task.result?.state === 'fail') await keepScreens(contexts, task.name);
    await Promise.allSettled(contexts.splice(0).map((context) => context.close()));
  });

  afterAll(async () => {
    await Promise.allSettled(contexts.splice(0).map((context) => context.close()));
    await browser?.close().catch(() => undefined);
    await proxy?.close();
    await coffer?.close().catch(() => undefined);
    fs.rmSync(distDir, { recursive: true, force: true });
    await smtp?.close();
  }, 60_000);

  /**
   * The running setup: `base` is where the browser goes (the proxy when there is one), `direct`
   * is Coffer itself (for the test's own calls, which must work while the proxy is cut).
   */
  function running(): {
    base: string;
    direct: string;
    server: CofferServer;
    smtp: LocalSmtp;
    browser: Browser;
    proxy: LoopbackProxy | undefined;
  } {
    if (!coffer || !smtp || !browser) throw new Error('the end-to-end setup did not finish');
    const base = proxy ? `http://127.0.0.1:${proxy.port}` : coffer.base;
    return { base, direct: coffer.base, server: coffer.server, smtp, browser, proxy };
  }

  /** A fresh browser profile (its own IndexedDB) on a phone-size screen. */
  async function openTab(locale = 'en-US', viewport = PHONE): Promise<Tab> {
    const context = await running().browser.newContext({ viewport, locale });
    contexts.push(context);
    await context.addInitScript(recordToasts, TOAST_EVENT);
    return watchedTab(await context.newPage());
  }

  /** Loads the app anew (a new document, so the launch rule runs) at `route`. */
  /**
   * Opens the app at `route` as a new document, its tab in front (a tab in the background draws
   * no frames: its animations never end). A connection the loopback proxy reset while a page of an
   * earlier step closed is tried once more.
   */
  async function launch(page: Page, route: string): Promise<void> {
    await page.bringToFront();
    await page.goto('about:blank');
    const url = `${running().base}/#${route}`;
    await page.goto(url).catch(async (error: unknown) => {
      if (!String(error).includes('ERR_CONNECTION_RESET')) throw error;
      await page.goto(url);
    });
  }

  async function api(uri: string, params: Record<string, unknown> = {}, token?: string): Promise<Answer> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      lang: 'EN',
      'idempotency-key': crypto.randomUUID(),
    };
    if (token) headers['authorization'] = `Bearer ${token}`;
    const response = await fetch(`${running().direct}${uri}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.status).toBe(200);
    return answerSchema.parse(await response.json());
  }

  /** The 6-digit code of the first mail to `address` after the first `after` messages. */
  async function codeMailedTo(address: string, after: number): Promise<string> {
    const { smtp: mailbox } = running();
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = mailbox.received.slice(after).find((item) => item.rcptTo.includes(address));
      if (found) {
        const code = (found.mail.text ?? '').match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
        if (!code) throw new Error(`no 6-digit code in ${JSON.stringify(found.mail.text)}`);
        return code;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Registers `email` straight through the API (for tests about something else), through
   * `invite` (the root's by default); the register call's answer, which must be a success.
   */
  async function registerByApi(email: string, password: string, invite = ROOT_INVITE): Promise<Answer> {
    const before = running().smtp.received.length;
    expect((await api('/api/v1/sso/sendRegisterCode', { email })).code).toBe(200);
    const code = await codeMailedTo(email, before);
    const registered = await api('/api/v1/sso/register', {
      email,
      code,
      inviteCode: invite,
      password,
      confirmPassword: password,
    });
    expect(registered.code, registered.message).toBe(200);
    return registered;
  }

  let serial = 0;
  const newAddress = (name: string) => `e2e.${name}.${Date.now()}.${++serial}@example.com`;

  /** A new address named after `name`, registered through the API with the password `<name>-secret1`. */
  async function registered(name: string): Promise<{ email: string; password: string }> {
    const email = newAddress(name);
    const password = `${name}-secret1`;
    await registerByApi(email, password);
    return { email, password };
  }

  /**
   * A customer registered as `registered` does, then logged in through the login page on `page`
   * in the language of `t`, or, with no page, through the API.
   */
  async function signedIn(name: string, page: Page | null, t = en): Promise<Customer> {
    const { email, password } = await registered(name);
    if (page === null) {
      const login = await api('/api/v1/sso/emailLogin', { email, password });
      expect(login.code, login.message).toBe(200);
      return { email, password, token: tokenSchema.parse(login.data).token };
    }
    await launch(page, ROUTES.login);
    await logIn(page, t, email, password);
    const token = await storedToken(page);
    if (token === null) throw new Error('no stored token after logging in');
    return { email, password, token };
  }

  /**
   * A customer signed in as `signedIn` does, with TRADE_PASSWORD bound (unless told not to) and
   * `funds` adjusted into its main account; with that account's id.
   */
  async function customer(
    name: string,
    page: Page | null,
    options: CustomerOptions,
  ): Promise<Customer & { accountId: string }> {
    const signed = await signedIn(name, page, options.t);
    if (options.tradePassword !== false) {
      const bound = await api(
        '/api/v1/user/bindTradePassword',
        { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
        signed.token,
      );
      expect(bound.code, bound.message).toBe(200);
    }
    const accountId = await mainAccountId(signed.token);
    for (const [asset, amount] of Object.entries(options.funds) as Array<['USDT' | 'RAB', string]>) {
      await fund(options.finance, accountId, asset, amount, options.reason);
    }
    return { ...signed, accountId };
  }

  /**
   * A new operator with `role`, set up as the console does (its one-time password changed, an
   * authenticator bound) and signed in with a code; its token, within the step-up's 5 minutes.
   */
  async function operatorToken(role: 'finance' | 'content'): Promise<string> {
    const { direct, server } = running();
    const client: AdminClient = {
      ...httpAdminClient(direct, () => server.clock.now()),
      createOperator: async (email, operatorRole, password) => {
        await server.services.operators.create(cliContext(), { email, role: operatorRole, password });
      },
    };
    const operator = await setUpOperator(client, newAddress(role), role);
    return operator.token();
  }

  /** A new finance operator, logged in through the admin API; its token. */
  const financeToken = () => operatorToken('finance');

  /**
   * A new finance operator's token, a new tab in `locale`, and on it a customer set up as
   * `customer` does with that token: what a test of a customer's money page starts from.
   */
  async function customerTab(locale: string, name: string, options: Omit<CustomerOptions, 'finance'>) {
    const finance = await financeToken();
    const tab = await openTab(locale);
    const signed = await customer(name, tab.page, { ...options, finance });
    return { finance, tab, page: tab.page, ...signed };
  }

  /** The operators' RAB price, set through the admin API; it must go through. */
  async function setRabPrice(finance: string, usdt: string): Promise<void> {
    const answer = await api('/api/admin/settings/update', { rabPriceUsdt: usdt }, finance);
    expect(answer.code, answer.message).toBe(200);
  }

  /**
   * Moves `amount` USDT of the account's cash into its hosting book at `at`, as a hosting order
   * does, straight through the ledger (the cash must be there: adjust it in first).
   */
  async function moveToHosting(accountId: string, amount: string, at: Date): Promise<void> {
    serial += 1;
    await transfer(
      running().server.database.db,
      [
        {
          key: `e2e:hosting:${accountId}:${serial}`,
          kind: 'trust_deposit',
          asset: 'USDT',
          from: customerBook(Number(accountId), 'cash'),
          to: customerBook(Number(accountId), 'hosting'),
          amount: parseMoney(amount),
          ref: { table: 'e2e', id: String(serial) },
        },
      ],
      at,
    );
  }

  /** The id of the user's first account: the main one, made at registration. */
  async function mainAccountId(token: string): Promise<string> {
    return accountListSchema.parse((await api('/api/v1/account/list', {}, token)).data).items[0]?.id ?? '';
  }

  /** A finance operator's adjustment of `amount` `asset` into `accountId`, which must go through. */
  async function fund(
    finance: string,
    accountId: string,
    asset: 'USDT' | 'RAB',
    amount: string,
    reason: string,
  ) {
    const funded = await api('/api/admin/ledger/adjust', { accountId, asset, amount, reason }, finance);
    expect(funded.code, funded.message).toBe(200);
  }

  /** The ledger's invariants hold (`ledger check` through the admin API). */
  async function expectLedgerOk(finance: string): Promise<void> {
    const check = await api('/api/admin/ledger/check', {}, finance);
    expect(ledgerCheckSchema.parse(check.data).ok).toBe(true);
  }

  /**
   * Cuts the link (the loopback proxy) as a phone loses its signal, once the page's service worker
   * controls it with its precache complete: before that, a page not yet opened could not load
   * offline on a phone either, and a test would depend on how far the precache had got.
   */
  async function goOffline(page: Page): Promise<void> {
    const { proxy } = running();
    if (!proxy) throw new Error('this file runs behind the proxy');
    await serviceWorkerReady(page);
    proxy.down();
  }

  return {
    distDir,
    running,
    openTab,
    goOffline,
    launch,
    api,
    codeMailedTo,
    registerByApi,
    newAddress,
    registered,
    signedIn,
    customer,
    customerTab,
    operatorToken,
    financeToken,
    setRabPrice,
    moveToHosting,
    mainAccountId,
    fund,
    expectLedgerOk,
  };
}

/** Keeps a full-page screenshot named `name` when COFFER_E2E_SCREENS names a folder (a reviewer's look), else nothing. */
export async function keepScreen(page: Page, name: string): Promise<void> {
  const folder = process.env['COFFER_E2E_SCREENS'];
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

/** A catalogue string with its `{{name}}` placeholders filled (an unknown one is left as it is). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(values[name] ?? whole));
}

/** After a failure: a screenshot of every open page, named in the log. */
async function keepScreens(contexts: readonly BrowserContext[], testName: string): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-failure-'));
  const pages = contexts.flatMap((context) => context.pages());
  for (const [index, page] of pages.entries()) {
    const file = path.join(folder, `page-${index + 1}.png`);
    await page.screenshot({ path: file, timeout: 5_000 }).catch(() => undefined);
    const log = tabLogs.get(page) ?? [];
    fs.writeFileSync(path.join(folder, `page-${index + 1}.log`), log.join('\n'));
    console.warn(`[e2e] page ${index + 1} at ${page.url()}, its last lines:\n${log.slice(-40).join('\n')}`);
  }
  console.warn(`[e2e] "${testName}" failed: ${pages.length} screenshot(s) and logs in ${folder}`);
}

/** Each watched page's log (console lines, page errors, failed requests), printed when a test fails. */
const tabLogs = new WeakMap<Page, string[]>();

/** Watches a page for console errors, page errors and calls to /api/. */
export function watchedTab(page: Page): Tab {
  page.setDefaultTimeout(WAIT_MS);
  const errors: string[] = [];
  const apiCalls: string[] = [];
  const apiRoutes: string[] = [];
  const log: string[] = [];
  const stamp = () => new Date().toISOString().slice(11, 23);
  page.on('console', (message) => {
    log.push(`${stamp()} console.${message.type()}: ${message.text()}`);
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    log.push(`${stamp()} page error: ${error.stack ?? error.message}`);
    errors.push(`page: ${error.message}`);
  });
  page.context().on('requestfailed', (request) => {
    log.push(`${stamp()} request failed: ${request.url()} (${request.failure()?.errorText ?? '?'})`);
  });
  page.context().on('request', (request) => {
    if (!new URL(request.url()).pathname.startsWith('/api/')) return;
    apiCalls.push(request.url());
    apiRoutes.push(routeOfRequest(request.url(), request.postData()));
  });
  tabLogs.set(page, log);
  return { page, errors, apiCalls, apiRoutes };
}

/** How long a file waits for the build another file is making (a build takes about a minute). */
const SHARED_BUILD_WAIT_MS = 300_000;

/**
 * The client built for `env`, copied into `outDir`. A test run builds once per environment into
 * the folder the global setup names (COFFER_E2E_BUILDS): the first file to ask takes the lock
 * (creating a folder is atomic) and builds, the others wait for its `.done` mark (or its
 * `.failed` one, and fail with its error). Without that folder, it builds into `outDir`.
 */
export async function clientBuild(outDir: string, env: Record<string, string> = {}): Promise<void> {
  const builds = process.env['COFFER_E2E_BUILDS'];
  if (!builds) return buildClient(outDir, env);
  const key = crypto
    .createHash('sha256')
    .update(JSON.stringify(Object.entries(env).sort()))
    .digest('hex');
  const shared = path.join(builds, key.slice(0, 16));
  if (takeLock(`${shared}.lock`)) {
    try {
      await buildClient(shared, env);
      fs.writeFileSync(`${shared}.done`, '');
    } catch (error) {
      fs.writeFileSync(`${shared}.failed`, String(error));
      throw error;
    }
  } else {
    await sharedBuildDone(shared);
  }
  fs.cpSync(shared, outDir, { recursive: true });
}

function takeLock(lockDir: string): boolean {
  try {
    fs.mkdirSync(lockDir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function sharedBuildDone(shared: string): Promise<void> {
  const deadline = Date.now() + SHARED_BUILD_WAIT_MS;
  while (!fs.existsSync(`${shared}.done`)) {
    if (fs.existsSync(`${shared}.failed`)) {
      throw new Error(`the shared client build failed: ${fs.readFileSync(`${shared}.failed`, 'utf8')}`);
    }
    if (Date.now() > deadline) throw new Error(`the shared client build ${shared} took too long`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A production build of the client into `outDir`, with extra build-time environment. */
export async function buildClient(outDir: string, env: Record<string, string> = {}): Promise<void> {
  await promisify(execFile)(
    path.join(ROOT_DIR, 'node_modules', '.bin', 'vite'),
    ['build', '--logLevel', 'warn', '--mode', 'production', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: ROOT_DIR,
      timeout: 120_000,
      env: { ...process.env, NODE_ENV: 'production', ...env },
    },
  );
}

/**
 * Resolves once the page's service worker is active, its precache (the shell, every chunk)
 * complete, and controls the page (it claims a first visit): from then on a page not yet opened
 * loads offline from the precache.
 */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const container = navigator.serviceWorker;
    await container.ready;
    if (container.controller !== null) return;
    await new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
  });
}
