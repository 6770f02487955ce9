/**
 * Issue 26 in Chromium: a first visit's login page drawn into the HTML (contract/first-page.ts),
 * painted before any script of the app has arrived, in the visitor's language, accessible; what
 * the visitor does on it before the app arrives (typing, the focus, pressing Log in) carries over;
 * a signed-in visitor, or one a service worker serves, never sees it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { PRERENDERED_CLASS, SIGNED_IN_KEY } from '../../contract/first-page.js';
import { ROUTES } from '../../src/app/paths.js';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectPage,
  hasChromium,
  ja,
  routeOf,
  SLOW,
  watchedTab,
} from './harness.js';

/** Holds the app's entry script until `release` is called: the page as a slow network shows it. */
async function holdAppScripts(page: Page): Promise<{ release: () => void; asked: () => boolean }> {
  let release!: () => void;
  let asked = false;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  return { release, asked: () => asked };
}

const drawnShown = (page: Page) =>
  page.evaluate((name) => document.documentElement.classList.contains(name), PRERENDERED_CLASS);

describe.skipIf(!hasChromium)('the first page drawn into the HTML', () => {
  const { running, openTab, registered } = e2eHarness();

  /** A first visit at `route` with the app's scripts held back, on the drawn login page. */
  async function firstVisit(locale: string, route: string, t: (key: string) => string) {
    const tab = await openTab(locale);
    const app = await holdAppScripts(tab.page);
    await tab.page.goto(`${running().base}/${route}`);
    await expectPage(tab.page, t('auth.login_title'));
    return { tab, page: tab.page, app };
  }

  test(
    'a first visit in Japanese sees the login page before the app arrives, accessible; the address typed, the focus and a Log in pressed meanwhile carry over: the visitor lands on Home',
    SLOW,
    async () => {
      const { email, password } = await registered('drawn.login');
      const { tab, page, app } = await firstVisit('ja-JP', '', ja);
      expect(await drawnShown(page)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
      await expectAccessible(page, 'the drawn login page (ja)');
      // Painted first, the app asked for after: its entry is on its way but has not run.
      await expect.poll(app.asked).toBe(true);
      expect(await page.locator('#root .boot').count()).toBe(1);

      await page.getByLabel(ja('field.email'), { exact: true }).fill(email);
      await page.getByLabel(ja('field.password'), { exact: true }).fill(password);
      await page.getByRole('button', { name: ja('auth.login'), exact: true }).click();
      expect(new URL(page.url()).search).toBe(''); // held: never a GET with the password in it
      expect(await drawnShown(page)).toBe(true);

      app.release();
      await expectPage(page, ja('tabs.home'));
      expect(routeOf(page)).toBe(ROUTES.home);
      expect(await drawnShown(page)).toBe(false);
      expect(await page.locator('#prerender').count()).toBe(0);
      expect(await page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_KEY)).toBe('1');
      expectNoErrors(tab);
    },
  );

  test(
    'typing in the drawn page and the focus carry over to the app’s own page, which then shows alone',
    SLOW,
    async () => {
      const { tab, page, app } = await firstVisit('en-US', `#${ROUTES.login}`, en);
      expect(await drawnShown(page)).toBe(true);
      await page.getByLabel(en('field.email'), { exact: true }).fill('early.typist@example.com');
      await page.getByLabel(en('field.password'), { exact: true }).focus();
      app.release();
      await expect.poll(() => page.locator('#prerender').count()).toBe(0);
      await expectPage(page, en('auth.login_title'));
      await expect
        .poll(() => page.getByLabel(en('field.email'), { exact: true }).inputValue())
        .toBe('early.typist@example.com');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe(
        'password',
      );
      expectNoErrors(tab);
    },
  );

  test(
    'a link followed on the drawn page before the app arrives is where the app opens: the launch rule ran at login (spec section 4)',
    SLOW,
    async () => {
      const { tab, page, app } = await firstVisit('en-US', '', en);
      expect(routeOf(page)).toBe(ROUTES.login);
      await page.getByRole('link', { name: en('auth.forgot_link'), exact: true }).click();
      expect(routeOf(page)).toBe(ROUTES.forgot);
      app.release();
      await expectPage(page, en('auth.forgot_title'));
      expect(routeOf(page)).toBe(ROUTES.forgot);
      expectNoErrors(tab);
    },
  );

  test(
    'a signed-in visitor no service worker serves (a hard reload) never sees the drawn login page: Home comes',
    SLOW,
    async () => {
      const context = await running().browser.newContext({ locale: 'en-US', serviceWorkers: 'block' });
      try {
        const tab = watchedTab(await context.newPage());
        const { page } = tab;
        const { email, password } = await registered('drawn.returning');
        await page.goto(`${running().base}/`);
        await expectPage(page, en('auth.login_title'));
        await page.getByLabel(en('field.email'), { exact: true }).fill(email);
        await page.getByLabel(en('field.password'), { exact: true }).fill(password);
        await page.getByRole('button', { name: en('auth.login'), exact: true }).click();
        await expectPage(page, en('tabs.home'));

        const app = await holdAppScripts(page);
        await page.goto(`${running().base}/`, { waitUntil: 'domcontentloaded' });
        expect(await drawnShown(page)).toBe(false);
        expect(await page.getByRole('heading', { name: en('auth.login_title') }).count()).toBe(0);
        app.release();
        await expectPage(page, en('tabs.home'));
        expectNoErrors(tab);
      } finally {
        await context.close();
      }
    },
  );
});
