/**
 * `npm run bench:sync`: the offline sync layer, measured. Builds the client (production, into a
 * temporary folder), starts Coffer on an in-memory PGlite, seeds news, and prints
 * - the initial sync: from the start of the app's first pull (after a log-in in Chromium) until
 *   IndexedDB `coffer-public` holds every news record, with the pull pages and where the time
 *   goes (server, worker, between requests): with the app on Home (its news list re-rendered on
 *   every commit), then on Assets (no list: the sync layer's own cost); then the same engine in
 *   Node on fake-indexeddb;
 * - the cold start to cached records on screen: a fresh tab in the same browser context (service
 *   worker and IndexedDB in place), from navigation start to the first news title in the DOM,
 *   online and offline;
 * - the live update: one news item added on the server, a pull triggered the way the app does on
 *   focus, until the new title is in the DOM, and from the IndexedDB commit to the DOM;
 * - the sync layer's own size: sync/ bundled and minified, gzipped, against the target of 40 KB.
 * It measures and never judges: the exit code is 1 only when a measurement could not be taken.
 * Loopback only; Coffer runs in this process; Chromium is Debian's /usr/bin/chromium; the machine
 * may be shared, so read the figures as orders of magnitude and compare runs of the same machine.
 *
 * Environment:
 * - BENCH_SKIP_BUILD=1       measure the dist/ already there instead of building into a temporary folder
 * - BENCH_TIMEOUT_SECONDS    the bound on the whole run (default 420)
 * - BENCH_SYNC_RECORDS       news records seeded for the initial sync (default 10000)
 * - BENCH_SYNC_RUNS          repetitions of the cold start and of the live update (default 5)
 * - BENCH_SYNC_NODE=0        skip the initial sync in Node (fake-indexeddb)
 * - BENCH_SYNC_TRACE         a file to write a Chromium performance trace of the first online cold
 *                            start to (JSON: open it in DevTools' Performance panel)
 * - BENCH_SYNC_PULL_TRACE    the same for the initial sync on Home, from the log-in click to the
 *                            last page's commit (the worker's CPU profile shows each stage's cost)
 *
 * KB here is 1000 bytes, as Vite prints it. Times between processes (server, page, worker) are
 * wall-clock times of this machine, `performance.timeOrigin + performance.now()` on each side.
 */
// fake-indexeddb first: Dexie (loaded below through sync/) reads the global indexedDB when it loads.
// Only the Node run (1b) uses it; Chromium has its own.
import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build as viteBuild, minify, version as viteVersion, type Rolldown } from 'vite';
import { PULL_PAGE_SIZE } from '../contract/sync.js';
import { createServer, type CofferServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { insertNews } from '../server/repositories/content.repository.js';
import { appendAudit } from '../server/repositories/operator.repository.js';
import { recordChange } from '../server/repositories/sync.repository.js';
import { PUBLIC_DB_NAME } from '../client-db/schema.js';
import { MAX_PULL_PAGES, PULL_URI } from '../sync/pull.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/helpers/chromium.js';
import { CapturingMailer } from '../tests/helpers/server.js';
import { benchRun, gzipSize, kb, median, positiveNumber, seconds, seededRandom, table } from './report.js';
import { cliContext } from '../server/cli/cli-context.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VIEWPORT = { width: 390, height: 844 };
const LOGIN_PATH = '/#/pages/login/login';
/** ROUTES.home in src/app/routes.tsx. */
const HOME_PATH = '/#/pages/index/index';
/** HomePage's news titles. */
const TITLE_SELECTOR = '.news-list__title';
/** Dexie's BroadcastChannel: every commit of a Dexie write, in any tab or worker of the origin. */
const DEXIE_CHANNEL = 'x-storagemutated-1';
const ROOT_INVITE = 'BENCHROOT1';
const PASSWORD = 'bench-secret-1';
const SEED_BATCH = 1000;
const TARGET_GZIP_BYTES = 40_000;
/** The issue's range for comparable sync layers, gzipped. */
const PEERS = '35 to 160 KB';

const SKIP_BUILD = process.env['BENCH_SKIP_BUILD'] === '1';
const NODE_RUN = process.env['BENCH_SYNC_NODE'] !== '0';
const BOUND_MS = positiveNumber('BENCH_TIMEOUT_SECONDS', 420) * 1000;
const RECORDS = Math.floor(positiveNumber('BENCH_SYNC_RECORDS', 10_000));
const RUNS = Math.floor(positiveNumber('BENCH_SYNC_RUNS', 5));
const TRACE = process.env['BENCH_SYNC_TRACE'];

const { stage, unmeasured, closers, closeAll, command, doneLine, run } = benchRun(BOUND_MS);

/** Wall-clock milliseconds, comparable with the page's `performance.timeOrigin + performance.now()`. */
const wall = () => performance.timeOrigin + performance.now();
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');

/** `median (min to max)` of some milliseconds. */
function spread(values: number[]): string {
  if (values.length === 0) return 'n/a';
  return `${ms(median(values))} (${ms(Math.min(...values))} to ${ms(Math.max(...values))})`;
}

/* ------------------------------------------------------------------ build ------------------------------------------------------------------ */

/**
 * `vite build` for production into `outDir`, with its own TMPDIR so vite-plugin-pwa's temporary
 * sw.js folder goes with it (NODE_ENV=production, as tests/e2e does: an inherited NODE_ENV=test
 * or development would make a development build).
 */
async function buildClient(tmpDir: string, outDir: string): Promise<void> {
  const buildTmp = fs.mkdtempSync(path.join(tmpDir, 'vite-'));
  const begin = performance.now();
  const output = await command(
    'vite build',
    path.join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--mode', 'production', '--outDir', outDir, '--emptyOutDir'],
    { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', TMPDIR: buildTmp } },
  );
  const vite = /built in ([\d.]+\s*m?s)/.exec(output)?.[1];
  console.log(
    `vite build into a temporary folder: ${seconds(performance.now() - begin)}${vite ? ` (vite: built in ${vite})` : ''}`,
  );
}

/* ------------------------------------------------------------------ server ------------------------------------------------------------------ */

interface Span {
  start: number;
  end: number;
  /** The JSON the handler answered (pull pages only). */
  bytes: number;
}

/** What the server saw: envelope requests (the app's transport) and the pull handler's inner calls. */
interface ServerLog {
  gateway: Span[];
  pulls: Span[];
  /** Envelope requests being answered now. */
  inFlight: number;
  lastActivity: number;
}

/** Hooks that time every envelope request and every pull it carries (the gateway inject()s the inner call). */
function watchServer(server: CofferServer): ServerLog {
  const log: ServerLog = { gateway: [], pulls: [], inFlight: 0, lastActivity: wall() };
  const gatewayPath = `/api/${server.config.gatewaySegment}`;
  const startedAt = new WeakMap<FastifyRequest, number>();
  const bytes = new WeakMap<FastifyRequest, number>();
  const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? request.url;
  server.app.addHook('onRequest', async (request) => {
    const at = wall();
    startedAt.set(request, at);
    if (pathOf(request) === gatewayPath) {
      log.inFlight += 1;
      log.lastActivity = at;
    }
  });
  server.app.addHook('onSend', async (request, _reply, payload) => {
    if (pathOf(request) === PULL_URI && typeof payload === 'string') bytes.set(request, payload.length);
    return payload;
  });
  server.app.addHook('onResponse', async (request) => {
    const end = wall();
    const span = { start: startedAt.get(request) ?? end, end, bytes: bytes.get(request) ?? 0 };
    const pathname = pathOf(request);
    if (pathname === PULL_URI) log.pulls.push(span);
    if (pathname === gatewayPath) {
      log.gateway.push(span);
      log.inFlight -= 1;
      log.lastActivity = end;
    }
  });
  return log;
}

/** Resolves once no envelope request has been in flight or started for `quietMs`. */
async function serverQuiet(log: ServerLog, quietMs: number, limitMs = 30_000): Promise<void> {
  const until = performance.now() + limitMs;
  while (log.inFlight > 0 || wall() - log.lastActivity < quietMs) {
    if (performance.now() > until) throw new Error(`the app kept calling the server for ${seconds(limitMs)}`);
    await sleep(50);
  }
}

/** The envelope request that carried an inner call: the latest one that encloses it. */
function outerOf(log: ServerLog, inner: Span): Span | undefined {
  let found: Span | undefined;
  for (const span of log.gateway) {
    if (span.start <= inner.start && span.end >= inner.end && (!found || span.start > found.start))
      found = span;
  }
  return found;
}

/** Words for news text that reads like text (and compresses like it), from a fixed seed. */
const WORDS = (
  'market custody wallet transfer ledger account review report quarter growth volume asset price ' +
  'trading hosting network security update release policy holders exchange stable rates daily ' +
  'weekly monthly notice service clients partners region support launch record balance settlement ' +
  'compliance audit liquidity reserve coin chain block fee limit order spot futures index'
).split(' ');

function textMaker(seed: number): (words: number) => string {
  const random = seededRandom(seed);
  return (words) => {
    const chosen: string[] = [];
    for (let index = 0; index < words; index += 1) chosen.push(random.pick(WORDS));
    const sentence = chosen.join(' ');
    return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
  };
}

/**
 * Seeds `count` news the way ContentService.createNews writes one (from the CLI) (the news row, its audit
 * entry as actor `cli`, its change in `sync_changes`, in the writer's transaction), through the
 * same repository functions, SEED_BATCH records per transaction. Published one minute apart, all
 * in the past, so a news item added later is the newest.
 */
async function seedNews(server: CofferServer, count: number): Promise<{ bytes: number }> {
  const text = textMaker(20_260_105);
  const first = Date.now() - (count + 60) * 60_000;
  let bytes = 0;
  for (let done = 0; done < count; done += SEED_BATCH) {
    await server.database.db.transaction(async (tx) => {
      for (let index = done; index < Math.min(count, done + SEED_BATCH); index += 1) {
        const at = new Date(first + index * 60_000);
        const row = await insertNews(tx, {
          title: `${index + 1}. ${text(5)}`,
          summary: text(28),
          body: text(220),
          imageUrl: null,
          lang: null,
          publishedAt: at,
          updatedAt: at,
        });
        bytes += row.title.length + row.summary.length + row.body.length;
        await appendAudit(tx, {
          actor: 'cli',
          action: 'news.create',
          target: `news:${row.id}`,
          detail: {},
          at,
        });
        await recordChange(tx, {
          collection: 'news',
          scopeId: 0,
          recordId: String(row.id),
          deleted: false,
          at,
        });
      }
    });
  }
  return { bytes };
}

interface Bench {
  server: CofferServer;
  origin: string;
  log: ServerLog;
  mailer: CapturingMailer;
  tmpDir: string;
  email: string;
  token: string;
  userId: string;
}

/** Registers the bench user through the plain API with the mailed code; returns its token. */
async function registerUser(
  origin: string,
  mailer: CapturingMailer,
  email: string,
): Promise<{ token: string; userId: string }> {
  const post = async (uri: string, params: Record<string, unknown>) => {
    const response = await fetch(`${origin}${uri}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', lang: 'EN', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(params),
    });
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || !('code' in body) || body.code !== 200) {
      throw new Error(`${uri}: HTTP ${response.status} ${JSON.stringify(body)}`);
    }
    return 'data' in body && typeof body.data === 'object' && body.data !== null ? body.data : {};
  };
  await post('/api/v1/sso/sendRegisterCode', { email });
  const code = mailer.lastCode(email);
  const data = await post('/api/v1/sso/register', {
    email,
    code,
    inviteCode: ROOT_INVITE,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  const token = 'token' in data && typeof data.token === 'string' ? data.token : undefined;
  const userId = 'userId' in data && typeof data.userId === 'string' ? data.userId : undefined;
  if (!token || !userId) throw new Error(`register answered no token: ${JSON.stringify(data)}`);
  return { token, userId };
}

/* ------------------------------------------------------------------ the page's probe ------------------------------------------------------------------ */

interface Commit {
  /** Wall-clock ms when the page heard of the commit. */
  at: number;
  /** Dexie's changed parts, e.g. `idb://coffer-public/news/`. */
  keys: string[];
}

interface Probe {
  commits: Commit[];
  /** performance.now() (from navigation start) when the first news title entered the DOM, and the frame after. */
  firstTitleAt: number | null;
  firstTitleFrameAt: number | null;
  firstTitleInView: boolean | null;
  longTasks: { count: number; ms: number };
}

declare global {
  interface Window {
    cofferBench?: Probe;
  }
}

/**
 * Installed in every page before its scripts: hears Dexie's commit broadcasts (the worker's
 * writes included), notes when the first news title enters the DOM, and sums long tasks. A
 * string, so nothing of this file's compilation leaks into the page; it also defines `__name`,
 * which tsx (esbuild's keepNames) wraps around named functions inside page.evaluate callbacks.
 */
const PROBE_SCRIPT = `(() => {
  globalThis.__name ??= (target) => target;
  const probe = { commits: [], firstTitleAt: null, firstTitleFrameAt: null, firstTitleInView: null, longTasks: { count: 0, ms: 0 } };
  window.cofferBench = probe;
  const channel = new BroadcastChannel(${JSON.stringify(DEXIE_CHANNEL)});
  channel.onmessage = (event) => {
    const data = event.data;
    probe.commits.push({ at: performance.timeOrigin + performance.now(), keys: data && typeof data === 'object' ? Object.keys(data) : [] });
  };
  const observer = new MutationObserver(() => {
    const title = document.querySelector(${JSON.stringify(TITLE_SELECTOR)});
    if (!title) return;
    probe.firstTitleAt = performance.now();
    probe.firstTitleInView = title.getBoundingClientRect().top < window.innerHeight;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { probe.firstTitleFrameAt = performance.now(); }, 0));
  });
  observer.observe(document, { childList: true, subtree: true });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) { probe.longTasks.count += 1; probe.longTasks.ms += entry.duration; }
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

/** A commit of `coffer-public` that wrote news. */
const isNewsCommit = (commit: Commit) =>
  commit.keys.some((key) => key.includes(`/${PUBLIC_DB_NAME}/`) && key.includes('/news/'));

async function probeOf(page: Page): Promise<Probe> {
  const probe = await page.evaluate(() => window.cofferBench);
  if (!probe) throw new Error('the page has no probe');
  return probe;
}

/** News records in `coffer-public`, read with the raw IndexedDB API (0 while the database does not exist). */
async function countNews(page: Page): Promise<number> {
  return page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((database) => database.name === name)) return 0;
    return new Promise<number>((resolve) => {
      const open = indexedDB.open(name);
      // Never create the database under Dexie: it would then find an empty version 1.
      open.onupgradeneeded = () => open.transaction?.abort();
      open.onerror = () => resolve(0);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('news')) {
          db.close();
          resolve(0);
          return;
        }
        const request = db.transaction('news', 'readonly').objectStore('news').count();
        request.onsuccess = () => {
          db.close();
          resolve(request.result);
        };
        request.onerror = () => {
          db.close();
          resolve(0);
        };
      };
    });
  }, PUBLIC_DB_NAME);
}

/* ------------------------------------------------------------------ 1. initial sync in Chromium ------------------------------------------------------------------ */

let browser: Browser | undefined;
let mainContext: BrowserContext | undefined;

/** A fresh context (its own IndexedDB, service worker and cache) with the probe in every page. */
async function newContext(tmpDir: string): Promise<BrowserContext> {
  if (!browser) {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    env['TMPDIR'] = tmpDir; // Chromium's org.chromium.Chromium.* folders go with the bench's
    const launched = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
      env,
      timeout: 30_000,
    });
    browser = launched;
    closers.set('chromium', () => launched.close());
  }
  const ctx = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  await ctx.addInitScript({ content: PROBE_SCRIPT });
  return ctx;
}

/** The context of the initial sync on Home, the cold starts and the live update. */
async function openContext(tmpDir: string): Promise<BrowserContext> {
  mainContext ??= await newContext(tmpDir);
  return mainContext;
}

/** The page whose initial sync was measured on Home: the service worker installs from it. */
let syncPage: Page | undefined;
const monitors = new Map<BrowserContext, Page>();

/**
 * An idle tab of the same origin that does not run the app (`/api/health`: the service worker's
 * navigation fallback leaves /api/ alone). It polls IndexedDB and hears Dexie's commits without
 * waiting for a main thread busy rendering, as the app's own page is after every commit.
 */
async function monitorPage(bench: Bench, ctx: BrowserContext): Promise<Page> {
  let monitor = monitors.get(ctx);
  if (!monitor || monitor.isClosed()) {
    monitor = await ctx.newPage();
    monitors.set(ctx, monitor);
    await monitor.goto(`${bench.origin}/api/health`, { timeout: 30_000 });
  }
  return monitor;
}

/** The news commits of coffer-public the context's monitor heard from `from` (wall ms) on. */
async function newsCommits(bench: Bench, ctx: BrowserContext, from: number): Promise<Commit[]> {
  const probe = await probeOf(await monitorPage(bench, ctx));
  return probe.commits.filter((commit) => isNewsCommit(commit) && commit.at >= from);
}

/**
 * Logs in in a fresh context and measures until coffer-public holds every news record. On Home
 * the app shows the news list meanwhile (what a user sees); otherwise it goes to the Assets tab as
 * soon as Home shows, so the figure is the sync layer's with no news list re-rendering.
 */
async function initialSyncInBrowser(bench: Bench, ctx: BrowserContext, onHome: boolean): Promise<void> {
  const { log, origin } = bench;
  const watcher = await monitorPage(bench, ctx);
  const page = await ctx.newPage();
  if (onHome) syncPage = page;
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}${LOGIN_PATH}`, { timeout: 30_000 });
  await page.getByRole('heading', { level: 1, name: 'Log in', exact: true }).waitFor({ timeout: 20_000 });
  await page.getByLabel('E-mail', { exact: true }).fill(bench.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  const pullsBefore = log.pulls.length;
  const pullTrace = onHome ? process.env['BENCH_SYNC_PULL_TRACE'] : undefined;
  if (pullTrace !== undefined) await browser?.startTracing(page, { path: pullTrace, screenshots: false });
  const loginAt = wall();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  const home = page.getByRole('heading', { level: 1, name: 'Home', exact: true });
  let leftHomeAt: number | undefined;
  const away = onHome
    ? Promise.resolve()
    : home.waitFor({ timeout: 30_000 }).then(async () => {
        await page.evaluate(() => {
          window.location.hash = '#/pages/my/my';
        });
        await page
          .getByRole('heading', { level: 1, name: 'Assets', exact: true })
          .waitFor({ timeout: 30_000 });
        leftHomeAt = wall();
      });

  // Polled from the monitor tab with the raw IndexedDB API; the app's own catch-up pulls bounded
  // pull after bounded pull (sync/engine.ts), with nothing from the bench.
  const limitMs = 180_000;
  let reachedAt: number | undefined;
  let lastCount = -1;
  while (wall() - loginAt < limitMs) {
    const count = await countNews(watcher);
    const at = wall();
    lastCount = count;
    if (count >= RECORDS) {
      reachedAt = at;
      break;
    }
    await sleep(25);
  }
  await away;
  if (pullTrace !== undefined) {
    await browser?.stopTracing();
    console.log(`trace of this initial sync: ${pullTrace}`);
  }
  const firstInner = log.pulls[pullsBefore];
  if (!firstInner) throw new Error(`no pull reached the server within ${seconds(limitMs)} of logging in`);
  const firstOuter = outerOf(log, firstInner) ?? firstInner;
  if (reachedAt === undefined) {
    throw new Error(
      `coffer-public holds ${grouped(lastCount)} of ${grouped(RECORDS)} news ${seconds(limitMs)} after logging in (${log.pulls.length - pullsBefore} pull pages)`,
    );
  }
  // The end: the commit that completed the set (the last news commit the poll had seen).
  const commits = (await newsCommits(bench, ctx, firstOuter.start)).filter(
    (commit) => commit.at <= reachedAt,
  );
  const doneAt = commits.at(-1)?.at ?? reachedAt;
  const pulls = log.pulls.slice(pullsBefore).filter((span) => span.start < doneAt);
  const probe = await probeOf(page);
  const total = doneAt - firstOuter.start;
  const jsonBytes = sum(pulls.map((span) => span.bytes));
  table(
    ['records', 'seconds', 'records/s', 'pull pages', 'JSON', `pulls (of ${MAX_PULL_PAGES} pages at most)`],
    [
      [
        grouped(RECORDS),
        (total / 1000).toFixed(2),
        grouped(RECORDS / (total / 1000)),
        String(pulls.length),
        `${(jsonBytes / 1e6).toFixed(1)} MB`,
        String(Math.ceil(pulls.length / MAX_PULL_PAGES)),
      ],
    ],
    [0, 1, 2, 3, 4, 5],
  );
  console.log(
    `from the first pull's request (${ms(firstOuter.start - loginAt)} after the log-in click) to the commit that completed ${grouped(RECORDS)} news in coffer-public (the poll with the raw IndexedDB API saw them all ${ms(reachedAt - doneAt)} later); ${PULL_PAGE_SIZE} records a page, envelope transport`,
  );

  // Where the time goes, page by page: the server's answer, the worker until its commit of
  // coffer-public, the worker from that commit to its next request (the user database's write,
  // reading cursors, sealing; and between pulls, the wait for a trigger).
  const rows: Array<{ server: number; handler: number; toCommit: number; toNext: number }> = [];
  for (const [index, inner] of pulls.entries()) {
    const outer = outerOf(log, inner) ?? inner;
    const commit = commits.find((candidate) => candidate.at >= outer.end);
    const nextInner = pulls[index + 1];
    const next = nextInner ? (outerOf(log, nextInner) ?? nextInner) : undefined;
    rows.push({
      server: outer.end - outer.start,
      handler: inner.end - inner.start,
      toCommit: commit ? commit.at - outer.end : Number.NaN,
      toNext: commit && next ? next.start - commit.at : 0,
    });
  }
  const phase = (name: string, values: number[]) => {
    const known = values.filter((value) => Number.isFinite(value));
    const phaseTotal = sum(known);
    return [
      name,
      seconds(phaseTotal),
      ms(phaseTotal / Math.max(1, known.length)),
      `${((phaseTotal / total) * 100).toFixed(0)}%`,
    ];
  };
  const server = rows.map((row) => row.server);
  const handler = rows.map((row) => row.handler);
  const toCommit = rows.map((row) => row.toCommit);
  const toNext = rows.map((row) => row.toNext);
  const pullStarts = pulls
    .map((inner) => (outerOf(log, inner) ?? inner).start)
    .filter((_start, index) => index % MAX_PULL_PAGES === 0);
  console.log(
    `\nwhere the time goes (${pulls.length} pages, ${commits.length} news commits of coffer-public heard):`,
  );
  table(
    ['phase', 'total', 'per page', 'share'],
    [
      phase('server: envelope request, open to sealed answer', server),
      phase('  of which the pull handler (SQL, records)', handler),
      phase("worker: answer to coffer-public's commit", toCommit),
      phase('worker: commit to next request', toNext),
    ],
    [1, 2, 3],
  );
  console.log(
    `  (the worker's part includes the transfer, the decryption (WebCrypto), zod's parse of each record and the IndexedDB transaction; its page, in the same browser, shared the CPU)`,
  );
  console.log(
    `the app's page meanwhile: ${probe.longTasks.count} long tasks, ${seconds(probe.longTasks.ms)} in all${onHome ? ' (HomePage re-reads its first news on each commit)' : ''}`,
  );
  if (pullStarts.length > 1) {
    const gaps = pullStarts.slice(1).map((start, index) => start - (pullStarts[index] ?? start));
    console.log(
      `${pullStarts.length} bounded pulls (of ${MAX_PULL_PAGES} pages at most) back to back, the app's own catch-up, started ${gaps.map(seconds).join(', ')} apart`,
    );
  }
  const left = leftHomeAt;
  if (left !== undefined) {
    const before = commits.filter((commit) => commit.at < left).length;
    console.log(
      `the app showed Home until ${ms(left - firstOuter.start)} after the first pull's request (${before} page(s) of news in by then), then Assets`,
    );
  }
  if (errors.length > 0) console.log(`page errors: ${errors.join('; ')}`);
  if (onHome) await home.waitFor({ timeout: 10_000 });
}

/* ------------------------------------------------------------------ 1b. initial sync in Node ------------------------------------------------------------------ */

/** The same engine and worker handlers, in this process, on fake-indexeddb, over real HTTP. */
async function initialSyncInNode(bench: Bench): Promise<void> {
  const { createHandlers } = await import('../worker/handlers/index.js');
  const { MemorySessionStore } = await import('../worker/session.js');
  const { openPublicDb } = await import('../client-db/schema.js');
  const { MemoryLocks } = await import('../sync/lease.js');
  const session = new MemorySessionStore();
  await session.saveSession({ token: bench.token, userId: bench.userId, email: bench.email });
  const handlers = createHandlers({
    transport: {
      mode: 'envelope',
      gatewayPath: `/api/${bench.server.config.gatewaySegment}`,
      fetch: globalThis.fetch.bind(globalThis),
      nowSeconds: () => Date.now() / 1000,
      baseUrl: bench.origin,
    },
    session,
    sync: { locks: new MemoryLocks(), online: () => true, persist: async () => null },
  });
  const pullsBefore = bench.log.pulls.length;
  const begin = wall();
  let runs = 0;
  for (;;) {
    const summary = await handlers['sync-pull']();
    runs += 1;
    if (summary.status === 'failed') throw new Error(`pull failed: ${JSON.stringify(summary.failure)}`);
    if (summary.status === 'done') break;
  }
  const elapsed = wall() - begin;
  const db = openPublicDb();
  const count = await db.news.count();
  db.close();
  const pulls = bench.log.pulls.slice(pullsBefore);
  const server = sum(
    pulls.map((inner) => {
      const outer = outerOf(bench.log, inner) ?? inner;
      return outer.end - outer.start;
    }),
  );
  table(
    ['records', 'seconds', 'records/s', 'pull pages', 'pulls', 'server share'],
    [
      [
        grouped(count),
        (elapsed / 1000).toFixed(2),
        grouped(count / (elapsed / 1000)),
        String(pulls.length),
        String(runs),
        `${((server / elapsed) * 100).toFixed(0)}%`,
      ],
    ],
    [0, 1, 2, 3, 4, 5],
  );
  console.log(
    `NODE, not a browser: node ${process.version}, fake-indexeddb (pure JavaScript, in memory), engine and server in this one process sharing its CPU; the engine's catch-up, pull after bounded pull`,
  );
}

/* ------------------------------------------------------------------ 2. cold start ------------------------------------------------------------------ */

/** The cold start's steps before the first title: the page's HTML in, then src/main.tsx's marks. */
const COLD_STEPS = ['html', 'entry', 'language', 'render'] as const;

interface ColdStart {
  /** Navigation start to each step (ms). */
  steps: Record<(typeof COLD_STEPS)[number], number>;
  titleMs: number;
  frameMs: number;
  inView: boolean;
  controlled: boolean;
  items: number;
  longTaskMs: number;
}

/** A fresh tab at the home route, until the first news title is in the DOM and the frame after it. */
async function coldStartOnce(bench: Bench, ctx: BrowserContext, trace?: string): Promise<ColdStart> {
  const page = await ctx.newPage();
  if (trace !== undefined) await browser?.startTracing(page, { path: trace, screenshots: false });
  try {
    await page.goto(`${bench.origin}${HOME_PATH}`, { waitUntil: 'commit', timeout: 30_000 });
    await page.waitForFunction(() => window.cofferBench?.firstTitleFrameAt != null, undefined, {
      timeout: 30_000,
      polling: 50,
    });
    const probe = await probeOf(page);
    const facts = await page.evaluate(
      (selector) => ({
        controlled: navigator.serviceWorker.controller !== null,
        items: document.querySelectorAll(selector).length,
        html:
          (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
            ?.responseEnd ?? Number.NaN,
        marks: Object.fromEntries(
          performance.getEntriesByType('mark').map((entry) => [entry.name, entry.startTime]),
        ),
      }),
      TITLE_SELECTOR,
    );
    if (trace !== undefined) {
      await browser?.stopTracing();
      console.log(`trace of this cold start: ${trace}`);
    }
    const markAt = (name: string) => facts.marks[`coffer:${name}`] ?? Number.NaN;
    return {
      steps: {
        html: facts.html,
        entry: markAt('entry'),
        language: markAt('language'),
        render: markAt('render'),
      },
      titleMs: probe.firstTitleAt ?? Number.NaN,
      frameMs: probe.firstTitleFrameAt ?? Number.NaN,
      inView: probe.firstTitleInView === true,
      controlled: facts.controlled,
      items: facts.items,
      longTaskMs: probe.longTasks.ms,
    };
  } finally {
    await page.close();
  }
}

async function coldStart(bench: Bench, offline: boolean): Promise<void> {
  const ctx = await openContext(bench.tmpDir);
  if (syncPage && !syncPage.isClosed()) {
    // The service worker installs from the first page (precache); then that tab goes, so each
    // fresh tab starts alone (an open home tab re-renders on every commit of the new tab's pull).
    const active = await syncPage.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
      ]),
    );
    console.log(`service worker active before the cold starts: ${active ? 'yes' : 'NO (within 30 s)'}`);
    await syncPage.close();
  }
  if (offline) await ctx.setOffline(true);
  try {
    const runs: ColdStart[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      runs.push(await coldStartOnce(bench, ctx, run === 0 && !offline ? TRACE : undefined));
      if (!offline) await serverQuiet(bench.log, 300);
      else await sleep(300);
    }
    table(
      [
        'run',
        ...COLD_STEPS,
        'title in DOM',
        'frame after',
        'in view',
        'controlled by SW',
        'titles rendered',
        'long tasks',
      ],
      runs.map((run, index) => [
        String(index + 1),
        ...COLD_STEPS.map((step) => ms(run.steps[step])),
        ms(run.titleMs),
        ms(run.frameMs),
        run.inView ? 'yes' : 'no',
        run.controlled ? 'yes' : 'NO',
        grouped(run.items),
        ms(run.longTaskMs),
      ]),
      [1, 2, 3, 4, 5, 6, 9, 10],
    );
    console.log(
      `steps (navigation start to each, median): HTML in ${ms(median(runs.map((run) => run.steps.html)))}, entry module running ${ms(median(runs.map((run) => run.steps.entry)))}, language ready ${ms(median(runs.map((run) => run.steps.language)))}, first render asked ${ms(median(runs.map((run) => run.steps.render)))} (src/main.tsx's marks)`,
    );
    console.log(
      `${offline ? 'OFFLINE (context.setOffline: the service worker serves the shell, the worker cannot pull)' : 'online'}: navigation start to the first news title in the DOM: median ${spread(runs.map((run) => run.titleMs))}; to the frame after it: ${spread(runs.map((run) => run.frameMs))}`,
    );
  } finally {
    if (offline) await ctx.setOffline(false);
  }
}

/* ------------------------------------------------------------------ 3. live update ------------------------------------------------------------------ */

interface LiveRun {
  toRequest: number;
  server: number;
  toCommit: number;
  commitToDom: number;
  triggerToDom: number;
  domToFrame: number;
  /** The page's main thread busy in long tasks from the focus to the frame after the DOM update. */
  longTaskMs: number;
}

async function liveUpdate(bench: Bench): Promise<void> {
  const ctx = await openContext(bench.tmpDir);
  const page = await ctx.newPage();
  try {
    await page.goto(`${bench.origin}${HOME_PATH}`, { waitUntil: 'commit', timeout: 30_000 });
    await page.waitForFunction(() => window.cofferBench?.firstTitleFrameAt != null, undefined, {
      timeout: 30_000,
    });
    await serverQuiet(bench.log, 1000); // the new tab's own start pull is done

    const read = await page.evaluate(async (name) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(new Error(`cannot open ${name}`));
      });
      const begin = performance.now();
      const records = await new Promise<number>((resolve, reject) => {
        const request = db.transaction('news', 'readonly').objectStore('news').index('publishedAt').getAll();
        request.onsuccess = () => resolve(request.result.length);
        request.onerror = () => reject(new Error('getAll failed'));
      });
      const elapsed = performance.now() - begin;
      db.close();
      return { records, elapsed };
    }, PUBLIC_DB_NAME);
    console.log(
      `for scale: reading all ${grouped(read.records)} news in this page with one raw IndexedDB getAll on the publishedAt index: ${ms(read.elapsed)} (HomePage's live query reads them all, sorted, on every commit)`,
    );

    const text = textMaker(7);
    const runs: LiveRun[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const title = `Live update ${run} ${crypto.randomBytes(3).toString('hex')}`;
      await bench.server.services.content.createNews(cliContext(), {
        title,
        summary: text(28),
        body: text(220),
      });
      const pullsBefore = bench.log.pulls.length;
      const seen = await page.evaluate(
        async ({ title: wanted, selector }) => {
          const longTasksBefore = window.cofferBench?.longTasks.ms ?? 0;
          const found = () => document.querySelector(selector)?.textContent === wanted;
          const dom = new Promise<number>((resolve, reject) => {
            const observer = new MutationObserver(() => {
              if (!found()) return;
              observer.disconnect();
              resolve(performance.now());
            });
            observer.observe(document.body, { childList: true, subtree: true, characterData: true });
            setTimeout(() => {
              observer.disconnect();
              reject(new Error(`"${wanted}" not in the DOM within 20 s`));
            }, 20_000);
          });
          const triggeredAt = performance.now();
          window.dispatchEvent(new Event('focus'));
          const domAt = await dom;
          const frameAt = await new Promise<number>((resolve) =>
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
          );
          await new Promise((resolve) => setTimeout(resolve, 50)); // long task entries arrive after their task
          const toWall = (at: number) => performance.timeOrigin + at;
          return {
            triggeredAt: toWall(triggeredAt),
            domAt: toWall(domAt),
            frameAt: toWall(frameAt),
            longTaskMs: (window.cofferBench?.longTasks.ms ?? 0) - longTasksBefore,
          };
        },
        { title, selector: TITLE_SELECTOR },
      );
      const inner = bench.log.pulls.slice(pullsBefore).find((span) => span.start >= seen.triggeredAt);
      const outer = inner ? (outerOf(bench.log, inner) ?? inner) : undefined;
      const commit = (await newsCommits(bench, ctx, seen.triggeredAt))[0];
      runs.push({
        toRequest: outer ? outer.start - seen.triggeredAt : Number.NaN,
        server: outer ? outer.end - outer.start : Number.NaN,
        toCommit: outer && commit ? commit.at - outer.end : Number.NaN,
        commitToDom: commit ? seen.domAt - commit.at : Number.NaN,
        triggerToDom: seen.domAt - seen.triggeredAt,
        domToFrame: seen.frameAt - seen.domAt,
        longTaskMs: seen.longTaskMs,
      });
      await serverQuiet(bench.log, 300);
    }
    table(
      [
        'run',
        '(a) focus to DOM',
        'to request',
        'server',
        'answer to commit',
        '(b) commit to DOM',
        'DOM to frame',
        'long tasks',
      ],
      runs.map((run, index) => [
        String(index + 1),
        ms(run.triggerToDom),
        ms(run.toRequest),
        ms(run.server),
        ms(run.toCommit),
        ms(run.commitToDom),
        ms(run.domToFrame),
        ms(run.longTaskMs),
      ]),
      [1, 2, 3, 4, 5, 6, 7],
    );
    const finite = (values: number[]) => values.filter((value) => Number.isFinite(value));
    console.log(
      `(a) from the focus event to the new title in the DOM: median ${spread(runs.map((run) => run.triggerToDom))}`,
    );
    console.log(
      `(b) from coffer-public's commit (Dexie's broadcast, heard in an idle tab) to the new title in the DOM (useLiveQuery re-reads, React renders): median ${spread(finite(runs.map((run) => run.commitToDom)))}`,
    );
  } finally {
    await page.close();
  }
}

/* ------------------------------------------------------------------ 4. the sync layer's size ------------------------------------------------------------------ */

/** Every module of sync/ but the in-memory test twin, re-exported: the sync layer the app ships. */
const SIZE_ENTRY = path.join(ROOT, 'sync', '__bench-sync-entry__.ts');

interface Bundle {
  raw: number;
  minified: number;
  gzip: number;
  /** Rendered (pre-minification) bytes per group: sync/, contract/, worker/, dexie, zod, other. */
  groups: Map<string, number>;
}

function groupOf(id: string): string {
  if (id.startsWith('\0')) return 'bundler runtime';
  const relative = path.relative(ROOT, id).split(path.sep).join('/');
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(relative)?.[1];
  if (dependency) return dependency;
  return relative.split('/')[0] ?? relative;
}

/** Bundles the entry with Vite (rolldown) in lib mode, then minifies it with oxc (compress and mangle). */
async function bundle(entryCode: string, external: (id: string) => boolean): Promise<Bundle> {
  const result = await viteBuild({
    configFile: false,
    logLevel: 'silent',
    root: ROOT,
    plugins: [
      {
        name: 'bench-sync-entry',
        resolveId: (id) => (id === SIZE_ENTRY ? SIZE_ENTRY : null),
        load: (id) => (id === SIZE_ENTRY ? entryCode : null),
      },
    ],
    build: {
      write: false,
      // Lib mode keeps whitespace in ES output at any `minify`; `minify` below does it all.
      minify: false,
      target: 'es2022',
      lib: { entry: SIZE_ENTRY, formats: ['es'], fileName: 'sync' },
      rolldownOptions: { external },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[]; // build() without watch
  const totals: Bundle = { raw: 0, minified: 0, gzip: 0, groups: new Map() };
  for (const output of outputs) {
    for (const chunk of output.output) {
      if (chunk.type !== 'chunk') continue;
      const minified = await minify(chunk.fileName, chunk.code, { compress: true, mangle: true });
      totals.raw += Buffer.byteLength(chunk.code);
      totals.minified += Buffer.byteLength(minified.code);
      totals.gzip += gzipSize(minified.code);
      for (const [id, module] of Object.entries(chunk.modules)) {
        const group = groupOf(id);
        totals.groups.set(group, (totals.groups.get(group) ?? 0) + module.renderedLength);
      }
    }
  }
  return totals;
}

async function syncSize(): Promise<void> {
  const modules = fs
    .readdirSync(path.join(ROOT, 'sync'))
    .filter((name) => name.endsWith('.ts') && name !== 'memory-storage.ts' && !name.startsWith('__'))
    .sort();
  const entryCode = modules.map((name) => `export * from './${name.replace(/\.ts$/, '.js')}';`).join('\n');
  const isDexie = (id: string) => /^dexie(\/|$)/.test(id) || /node_modules[\\/]dexie[\\/]/.test(id);
  const isZod = (id: string) => /^zod(\/|$)/.test(id) || /node_modules[\\/]zod[\\/]/.test(id);
  const isOwn = (id: string) => /(^|[\\/])(contract|worker)[\\/]/.test(id) && !id.includes('node_modules');
  const variants: Array<[string, (id: string) => boolean]> = [
    [
      '(a) sync/ alone (dexie, zod, contract/, worker/ external)',
      (id) => isDexie(id) || isZod(id) || isOwn(id),
    ],
    ['(b) sync/ + dexie (zod, contract/, worker/ external)', (id) => isZod(id) || isOwn(id)],
    ['    sync/ + dexie + contract/ + worker/ (zod external)', (id) => isZod(id)],
    ['(c) everything (dexie, zod, contract/, worker/ included)', () => false],
  ];
  const rows: string[][] = [];
  let everything: Bundle | undefined;
  for (const [name, external] of variants) {
    const result = await bundle(entryCode, external);
    everything = result;
    rows.push([
      name,
      kb(result.raw),
      kb(result.minified),
      kb(result.gzip),
      `${result.gzip <= TARGET_GZIP_BYTES ? 'within' : 'OVER'} by ${kb(Math.abs(TARGET_GZIP_BYTES - result.gzip))}`,
    ]);
  }
  console.log(
    `entry: ${modules.map((name) => `sync/${name}`).join(', ')} (memory-storage.ts, a test twin, left out)`,
  );
  table(
    ['bundle', 'unminified', 'minified', 'gzipped', `target ${kb(TARGET_GZIP_BYTES)} gzipped`],
    rows,
    [1, 2, 3],
  );
  if (everything) {
    const total = sum([...everything.groups.values()]);
    console.log(
      `(c) by origin, share of the unminified bundle: ${[...everything.groups]
        .sort((a, b) => b[1] - a[1])
        .map(([group, bytes]) => `${group} ${((bytes / total) * 100).toFixed(0)}%`)
        .join(', ')}`,
    );
  }
  console.log(
    `vite ${viteVersion} (rolldown) in lib mode, ES, target es2022, then oxc minify (compress + mangle), gzip level 9; peers weigh ${PEERS} gzipped`,
  );
}

/* ------------------------------------------------------------------ main ------------------------------------------------------------------ */

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `Coffer sync bench: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, node ${process.version}, ${grouped(RECORDS)} records, ${RUNS} runs, bound ${seconds(BOUND_MS)}`,
  );
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-sync-'));
  closers.set('temporary files', () => fs.rmSync(tmpDir, { recursive: true, force: true }));
  try {
    const distDir = SKIP_BUILD ? path.join(ROOT, 'dist') : path.join(tmpDir, 'dist');
    if (SKIP_BUILD) {
      console.log('\n== build\nskipped (BENCH_SKIP_BUILD=1): serving the dist/ already there');
      if (!fs.existsSync(path.join(distDir, 'index.html'))) throw new Error('dist/index.html is missing');
    } else await stage('build', 150_000, () => buildClient(tmpDir, distDir));
    if (unmeasured.includes('build')) return;

    const bench = await stage('Coffer server and seed', 120_000, async (): Promise<Bench> => {
      const dataDir = path.join(tmpDir, 'data');
      fs.mkdirSync(dataDir);
      const config = loadConfig({
        DATA_DIR: dataDir,
        COFFER_ROOT_INVITE: ROOT_INVITE,
        COFFER_SCRYPT_COST: '4',
        COFFER_JOBS: 'off',
        LOG_LEVEL: 'silent',
        COFFER_RATE_LIMIT: '0',
      });
      const mailer = new CapturingMailer();
      const server = await createServer({
        config,
        mailer,
        logger: false,
        database: await openDatabase({}),
        distDir,
      });
      closers.set('coffer', () => server.close());
      const log = watchServer(server);
      const origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
      console.log(`listening on ${origin}, database ${server.database.kind} (in memory), rate limit off`);
      const begin = performance.now();
      const { bytes } = await seedNews(server, RECORDS);
      console.log(
        `seeded ${grouped(RECORDS)} news (~${Math.round(bytes / RECORDS)} characters of text each) through the repository functions ContentService uses (news, audit, sync_changes), ${SEED_BATCH} a transaction: ${seconds(performance.now() - begin)}`,
      );
      const email = `bench.sync.${crypto.randomBytes(4).toString('hex')}@example.com`;
      const { token, userId } = await registerUser(origin, mailer, email);
      return { server, origin, log, mailer, tmpDir, email, token, userId };
    });
    if (bench === undefined) return;

    const syncLimit = 240_000;
    await stage(
      `1. initial sync of ${grouped(RECORDS)} news into Dexie, Chromium, the app on Home (showing the news list)`,
      syncLimit,
      async () => initialSyncInBrowser(bench, await openContext(tmpDir), true),
    );
    await stage(
      `1a. the same in a fresh context, the app on Assets (no news list on screen): the sync layer's own figure`,
      syncLimit,
      async () => {
        const ctx = await newContext(tmpDir);
        try {
          await initialSyncInBrowser(bench, ctx, false);
        } finally {
          monitors.delete(ctx);
          await ctx.close();
        }
      },
    );
    if (NODE_RUN) {
      await stage(
        `1b. initial sync of ${grouped(RECORDS)} news, the engine in NODE on fake-indexeddb`,
        120_000,
        () => initialSyncInNode(bench),
      );
    }
    await stage('2. cold start to cached news on screen, online', 90_000, () => coldStart(bench, false));
    await stage('2b. cold start to cached news on screen, OFFLINE', 90_000, () => coldStart(bench, true));
    await stage('3. live update: a news item added on the server, pulled on focus, on screen', 90_000, () =>
      liveUpdate(bench),
    );
    await stage("4. the sync layer's own size", 60_000, syncSize);
  } finally {
    await closeAll();
    console.log(doneLine());
  }
}

run(main);
