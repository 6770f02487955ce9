/**
 * Offline made real, in Chromium: the browser reaches Coffer only through a loopback proxy of
 * the tests' own, which a test cuts (`down`), or lets requests through while losing every
 * answer (`mute`). Nothing tells the browser it is offline (navigator.onLine stays true, as on
 * a flaky mobile network), and the service worker is cut off too. What each test checks on the
 * server, it asks Coffer directly (offline reload, offline commands delivered exactly
 * once on reconnect, two tabs, a killed tab; spec section 4: the update flow).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { APP_VERSION_CODE } from '../../contract/constants.js';
import { HOT_VERSION_META, RELEASE_FILE, releaseOf } from '../../contract/release.js';
import {
  e2eHarness,
  en,
  expectPage,
  hasChromium,
  navigateInApp,
  goToPage,
  PHONE,
  serviceWorkerReady,
  SLOW,
  watchedTab,
} from './harness.js';
import { expectSameImageWithoutMetadata, PIXEL_PNG } from '../helpers/uploads.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { ROUTES } from '../../src/app/paths.js';

/** Reconnects are noticed by the outbox's own backoff (2, 4, 8, 16, 30 s): allow a full step and a send. */
const RECONNECT_MS = 60_000;

const ticketsSchema = z.object({
  items: z.array(z.object({ title: z.string(), status: z.string(), images: z.array(z.string()) })),
});
const infoSchema = z.object({ nickname: z.string() });

/** The commands the outbox page lists under `section` ('outbox.pending' or 'outbox.recent'). */
function outboxList(page: Page, section: 'outbox.pending' | 'outbox.recent') {
  return page.getByRole('region', { name: en(section), exact: true }).getByRole('listitem');
}

async function listedCommands(page: Page): Promise<number> {
  return outboxList(page, 'outbox.pending').count();
}

/**
 * Where the page's built files (/assets/) came from, as the browser's resource timing says: the
 * service worker's static route (public/sw-routes.js) reads the precache ('cache') and falls back
 * to the network on a miss ('network').
 */
function assetSources(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...new Set(
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/'))
        .map(
          (entry) =>
            (entry as PerformanceResourceTiming & { workerFinalSourceType?: string }).workerFinalSourceType ??
            '',
        ),
    ),
  ]);
}

describe.skipIf(!hasChromium)('offline through a loopback proxy, in Chromium', () => {
  const { running, openTab, launch, api, signedIn, distDir } = e2eHarness({ proxy: true });

  /** A user registered through the API, logged in on `page`; returns the session token. */
  const loggedIn = async (page: Page, name: string) => (await signedIn(name, page)).token;

  async function ticketsNamed(token: string, title: string) {
    const answer = await api('/api/v1/common/feedbackList', {}, token);
    return ticketsSchema.parse(answer.data).items.filter((ticket) => ticket.title === title);
  }

  async function ticketsOnServer(token: string, title: string): Promise<number> {
    return (await ticketsNamed(token, title)).length;
  }

  test(
    'offline, a reload still shows the shell, the news and the profile; a nickname and a ticket made offline in two tabs reach the server exactly once on reconnect and show as synced',
    { timeout: 180_000 },
    async () => {
      const { server, proxy } = running();
      if (!proxy) throw new Error('this file runs behind the proxy');
      const headline = `Markets open calm ${crypto.randomUUID().slice(0, 8)}`;
      await server.services.content.createNews(cliContext(), {
        title: headline,
        summary: 'Read on the train',
        body: 'The whole article, readable offline.',
      });

      const first = await openTab('en-US');
      const { page } = first;
      const token = await loggedIn(page, 'offline');
      await page.getByText(headline, { exact: true }).waitFor();
      await goToPage(page, ROUTES.profile, en('profile.title'));
      const before = infoSchema.parse((await api('/api/v1/user/info', {}, token)).data).nickname;
      await page.getByRole('heading', { level: 2, name: before, exact: true }).waitFor();
      await serviceWorkerReady(page);

      // The link goes; the reload comes from the service worker, the records from IndexedDB
      // (the launch rule starts a logged-in user at home).
      proxy.down();
      await page.reload();
      await expectPage(page, en('tabs.home'));
      await page.getByText(headline, { exact: true }).waitFor();
      // The browser still says it is online; the banner says the server cannot be reached.
      const banner = page.getByRole('status').filter({ hasText: en('sync.unreachable') });
      await banner.waitFor();
      await goToPage(page, ROUTES.profile, en('profile.title'));
      await page.getByRole('heading', { level: 2, name: before, exact: true }).waitFor();

      // Offline: a new nickname in this tab, a ticket in a second tab of the same browser.
      await page.getByLabel(en('field.nickname'), { exact: true }).fill('Offline Name');
      await page.getByRole('button', { name: en('profile.save'), exact: true }).click();
      await page
        .getByText(en('profile.pending_nickname').replace('{{nickname}}', 'Offline Name'), { exact: true })
        .waitFor();

      const second = watchedTab(await page.context().newPage());
      await second.page.goto(running().base);
      await expectPage(second.page, en('tabs.home'));
      await goToPage(second.page, ROUTES.feedback, en('feedback.title'));
      await second.page.getByLabel(en('field.title'), { exact: true }).fill('Written offline');
      await second.page.getByLabel(en('field.content'), { exact: true }).fill('Sent when the link returns');
      await second.page
        .getByLabel(en('feedback.images_label').replace('{{max}}', '9'), { exact: true })
        .setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: PIXEL_PNG });
      await second.page.getByRole('button', { name: en('feedback.submit'), exact: true }).click();
      await second.page.getByText(en('feedback.waiting'), { exact: true }).waitFor();

      await goToPage(page, ROUTES.outbox, en('outbox.title'));
      await expect.poll(() => listedCommands(page)).toBe(2);
      // Nothing reached the server while the link was down.
      expect(infoSchema.parse((await api('/api/v1/user/info', {}, token)).data).nickname).toBe(before);
      expect(await ticketsOnServer(token, 'Written offline')).toBe(0);

      // The link returns, unannounced: the outbox's backoff finds it, one tab sends both.
      proxy.up();
      await page.getByText(en('outbox.empty'), { exact: true }).waitFor({ timeout: RECONNECT_MS });
      await banner.waitFor({ state: 'hidden' });
      // Both show as confirmed ("Done") under "Recently sent".
      const recent = outboxList(page, 'outbox.recent');
      await expect.poll(() => recent.count()).toBe(2);
      expect(
        (await recent.allInnerTexts()).every((text) => text.includes(en('outbox.state_confirmed'))),
      ).toBe(true);
      expect(await recent.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(
        expect.arrayContaining([en('outbox.kind_profile-nickname'), en('outbox.kind_feedback-submit')]),
      );
      expect(infoSchema.parse((await api('/api/v1/user/info', {}, token)).data).nickname).toBe(
        'Offline Name',
      );
      const [ticket] = await ticketsNamed(token, 'Written offline');
      expect(ticket?.images).toHaveLength(1); // uploaded first, then named in the ticket
      const image = await fetch(`${running().direct}${ticket?.images[0] ?? ''}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(image.headers.get('content-type')).toBe('image/png');
      await expectSameImageWithoutMetadata(Buffer.from(await image.arrayBuffer()), PIXEL_PNG);

      // Both tabs show the results, pulled back from the server.
      await navigateInApp(page, ROUTES.profile);
      await page
        .getByRole('heading', { level: 2, name: 'Offline Name', exact: true })
        .waitFor({ timeout: 30_000 });
      await second.page
        .getByRole('heading', { level: 3, name: 'Written offline', exact: true })
        .waitFor({ timeout: 30_000 });
      await second.page.getByText(en('feedback.status_awaiting_reply'), { exact: true }).waitFor();
      // Still once, after every tab has pulled and drained again.
      await page.waitForTimeout(3_000);
      expect(await ticketsOnServer(token, 'Written offline')).toBe(1);
    },
  );

  test(
    'a tab killed while its ticket is on the wire (the server acted, the answer was lost): another tab takes over, resends with the same key, and the ticket exists once',
    { timeout: 180_000 },
    async () => {
      const { proxy } = running();
      if (!proxy) throw new Error('this file runs behind the proxy');
      const sender = await openTab('en-US');
      const token = await loggedIn(sender.page, 'killed');
      await serviceWorkerReady(sender.page);
      const other = watchedTab(await sender.page.context().newPage());
      await other.page.goto(running().base);
      await expectPage(other.page, en('tabs.home'));
      await goToPage(other.page, ROUTES.outbox, en('outbox.title'));

      // The ticket goes out at once; the server acts, the answer never comes back.
      await goToPage(sender.page, ROUTES.feedback, en('feedback.title'));
      proxy.mute();
      await sender.page.getByLabel(en('field.title'), { exact: true }).fill('Killed mid-send');
      await sender.page.getByLabel(en('field.content'), { exact: true }).fill('Exactly once all the same');
      await sender.page.getByRole('button', { name: en('feedback.submit'), exact: true }).click();
      await expect.poll(() => ticketsOnServer(token, 'Killed mid-send'), { timeout: 30_000 }).toBe(1);
      expect(proxy.lostBytes).toBeGreaterThan(0);
      // The other tab lists it as being sent (it shares the outbox).
      await other.page.getByText(en('outbox.state_sending'), { exact: true }).waitFor();
      expect(await listedCommands(other.page)).toBe(1);

      // The sending tab dies mid-send; the other takes the lease over and learns the answer.
      await sender.page.close();
      proxy.up();
      await other.page.getByText(en('outbox.empty'), { exact: true }).waitFor({ timeout: RECONNECT_MS });
      expect(await ticketsOnServer(token, 'Killed mid-send')).toBe(1);
      await navigateInApp(other.page, ROUTES.feedback);
      await other.page
        .getByRole('heading', { level: 3, name: 'Killed mid-send', exact: true })
        .waitFor({ timeout: 30_000 });
      expect(await ticketsOnServer(token, 'Killed mid-send')).toBe(1);
    },
  );

  test(
    'a page whose chunk cannot load says so with a retry; the next page opened draws itself (the failure stays with its page)',
    SLOW,
    async () => {
      // No service worker here: the chunk's request is the page's own, and it fails.
      const context = await running().browser.newContext({ viewport: PHONE, serviceWorkers: 'block' });
      try {
        await context.route('**/assets/ForgotPage-*.js', (route) => route.abort('timedout'));
        const tab = watchedTab(await context.newPage());
        const { page } = tab;
        await page.goto(`${running().base}/#${ROUTES.login}`);
        await expectPage(page, en('auth.login_title'));
        await goToPage(page, ROUTES.forgot, en('auth.forgot_title'));
        const retry = page
          .getByRole('alert')
          .getByRole('button', { name: en('errors.timeout_retry'), exact: true });
        await retry.waitFor();
        await goToPage(page, ROUTES.register, en('auth.register_title'));
        expect(await retry.count()).toBe(0);
      } finally {
        await context.close();
      }
    },
  );

  test("a cold start reads the built files from the precache by the service worker's static route; the console's, never precached, come from the network", async () => {
    const { page } = await openTab('en-US');
    await launch(page, ROUTES.login);
    await expectPage(page, en('auth.login_title'));
    await serviceWorkerReady(page);
    const cold = await page.context().newPage();
    await launch(cold, ROUTES.login);
    await expectPage(cold, en('auth.login_title'));
    expect(await assetSources(cold)).toEqual(['cache']);
    await cold.goto(`${running().base}/admin`);
    await cold.getByRole('heading', { level: 1 }).waitFor();
    expect(await assetSources(cold)).toEqual(['network']);
  });

  test(
    'spec section 4: a newer hot version is deployed; the app offers a forced update, installs it through the service worker, then restarts into it on the user’s word',
    SLOW,
    async () => {
      const { page } = await openTab('en-US');
      await loggedIn(page, 'update');
      await serviceWorkerReady(page);
      const installed = () =>
        page.evaluate(
          (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content'),
          HOT_VERSION_META,
        );
      expect(await installed()).toBe(String(APP_VERSION_CODE));

      deployHotVersion(distDir, APP_VERSION_CODE + 1);
      await launch(page, ROUTES.home);
      const dialog = page.getByRole('dialog', { name: en('update.title') });
      await dialog.getByText(en('update.major'), { exact: true }).waitFor({ timeout: 30_000 });
      await page.keyboard.press('Escape'); // forced: it stays
      await expect.poll(() => dialog.isVisible()).toBe(true);

      await dialog.getByRole('button', { name: en('update.now'), exact: true }).click();
      await dialog.getByText(en('update.installed'), { exact: true }).waitFor({ timeout: 60_000 });
      await Promise.all([
        page.waitForEvent('load'),
        dialog.getByRole('button', { name: en('update.restart'), exact: true }).click(),
      ]);
      await expectPage(page, en('tabs.home'));
      expect(await installed()).toBe(String(APP_VERSION_CODE + 1));
      // Up to date now: no offer after the check's delay.
      await page.waitForTimeout(4_000);
      expect(await page.getByRole('dialog').count()).toBe(0);
    },
  );
});

/**
 * Deploys a "new" web build in place: the shell stamped with a newer hot version, the release
 * file saying so, and the service worker's precache manifest naming the new shell's revision
 * (so the browser sees a new worker, as after a real build).
 */
function deployHotVersion(distDir: string, hotVersionCode: number): void {
  const indexFile = path.join(distDir, 'index.html');
  const swFile = path.join(distDir, 'sw.js');
  const oldIndex = fs.readFileSync(indexFile, 'utf8');
  const newIndex = oldIndex.replace(
    new RegExp(`(<meta name="${HOT_VERSION_META}" content=")\\d+(")`),
    `$1${hotVersionCode}$2`,
  );
  expect(newIndex).not.toBe(oldIndex);
  const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');
  const sw = fs.readFileSync(swFile, 'utf8');
  expect(sw).toContain(md5(oldIndex));
  fs.writeFileSync(indexFile, newIndex);
  fs.writeFileSync(swFile, sw.replace(md5(oldIndex), md5(newIndex)));
  fs.writeFileSync(path.join(distDir, RELEASE_FILE), JSON.stringify(releaseOf(String(hotVersionCode))));
}
