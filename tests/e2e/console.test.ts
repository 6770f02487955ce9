/**
 * The operator console in Chromium, end to end: the first operator signs in with the one-time
 * password the first start made, changes it, binds an authenticator from the key the page shows,
 * and lands on the shell; creates a finance and a content operator (the step-up dialog asks for a
 * code first: a sign-in before the authenticator was bound is not stepped up); the content
 * operator sees no Withdrawals and the API refuses them, and publishes news the customer API
 * shows; a session whose step-up ran out asks again before an access action. Every console page
 * is axe clean at desktop and phone width, in zh-Hans and English, with no CSP violation.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { en as consoleEn, type MessageKey } from '../../admin/i18n/en.js';
import { zhHans as consoleZh } from '../../admin/i18n/zh-Hans.js';
import { sessions } from '../../server/db/schema.js';
import { totpCode, totpStep, TOTP_PERIOD_SECONDS } from '../../server/security/totp.js';
import {
  e2eHarness,
  expectAccessible,
  expectNoErrors,
  expectPage,
  hasChromium,
  WAIT_MS,
  type Tab,
  DESKTOP,
} from './harness.js';
import { openConsole, openConsoleScreen } from './console-harness.js';

const PHONE = { width: 375, height: 812 };
const NEW_PASSWORD = 'console-pass-1';

type Words = (key: MessageKey, vars?: Record<string, string>) => string;
const wordsOf =
  (catalogue: Record<MessageKey, string>): Words =>
  (key, vars = {}) =>
    catalogue[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => vars[name] ?? whole);
const en = wordsOf(consoleEn);
const zh = wordsOf(consoleZh);

/** Codes of an authenticator, each of a time step the server has not seen yet (waits for the next step when it must). */
function authenticator(secret: string) {
  let lastStep = 0;
  return async (): Promise<string> => {
    while (totpStep(new Date()) <= lastStep) await new Promise((resolve) => setTimeout(resolve, 500));
    lastStep = totpStep(new Date());
    return totpCode(secret, new Date(lastStep * TOTP_PERIOD_SECONDS * 1000));
  };
}

/** Records CSP violations in the page (`window.__cspViolations`), from the first script on. */
function recordViolations(): void {
  const seen: string[] = [];
  Reflect.set(window, '__cspViolations', seen);
  document.addEventListener('securitypolicyviolation', (event) =>
    seen.push(`${event.violatedDirective} ${event.blockedURI}`),
  );
}

async function expectNoViolations(tab: Tab): Promise<void> {
  const seen = await tab.page.evaluate(() => Reflect.get(window, '__cspViolations') as unknown);
  expect(seen).toEqual([]);
  expectNoErrors(tab);
}

async function chooseLanguage(page: Page, from: Words, to: 'English' | '简体中文'): Promise<void> {
  await page.getByLabel(from('language.label'), { exact: true }).selectOption({ label: to });
}

describe.skipIf(!hasChromium)('the operator console in Chromium', () => {
  const { running, openTab, api, distDir } = e2eHarness();
  const tokenOf = async (page: Page) =>
    (await page.evaluate(() => sessionStorage.getItem('coffer-console-token'))) ?? '';

  async function consoleTab(viewport = DESKTOP): Promise<Tab> {
    const tab = await openTab('en-US', viewport);
    await tab.page.context().addInitScript(recordViolations);
    await openConsole(tab.page, running().base);
    return tab;
  }

  /** Signs in a new operator with its one-time password, sets the password and binds an authenticator. */
  async function firstSignIn(page: Page, t: Words, email: string, oneTime: string) {
    await expectPage(page, t('signin.title'));
    await page.getByLabel(t('field.email'), { exact: true }).fill(email);
    await page.getByLabel(t('field.password'), { exact: true }).fill(oneTime);
    await page.getByRole('button', { name: t('signin.submit'), exact: true }).click();
    await expectPage(page, t('password.title'));
    await page.getByLabel(t('field.oldPassword'), { exact: true }).fill(oneTime);
    await page.getByLabel(t('field.newPassword'), { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel(t('field.repeatPassword'), { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: t('password.submit'), exact: true }).click();
    await expectPage(page, t('authenticator.title'));
    const secretText = page.getByTestId('authenticator-secret');
    await secretText.waitFor({ timeout: WAIT_MS });
    const nextCode = authenticator((await secretText.innerText()).trim());
    await page.getByLabel(t('field.googleCode'), { exact: true }).fill(await nextCode());
    await page.getByRole('button', { name: t('authenticator.submit'), exact: true }).click();
    await expectPage(page, t('home.title'));
    return nextCode;
  }

  /**
   * Starts recording the zoom steps a dialog goes through; the returned call reads them. Without
   * motion, rc-motion still passes through a brief `-prepare` step (the dialog's origin is set
   * there), so only the steps that animate count: `-start` and `-active`, which motion always takes.
   */
  async function recordZoomSteps(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const recorder = window as unknown as { zoomSteps: string[]; zoomObserver?: MutationObserver };
      recorder.zoomObserver?.disconnect();
      const seen: string[] = [];
      recorder.zoomSteps = seen;
      recorder.zoomObserver = new MutationObserver((changes) => {
        for (const change of changes) {
          const nodes = change.type === 'attributes' ? [change.target] : [...change.addedNodes];
          for (const node of nodes) {
            if (!(node instanceof Element)) continue;
            for (const element of [node, ...node.querySelectorAll('[class*="ant-zoom"]')]) {
              for (const name of element.classList) {
                if (/^ant-zoom-(appear|enter)-(start|active)$/.test(name)) seen.push(name);
              }
            }
          }
        }
      });
      recorder.zoomObserver.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['class'],
      });
    });
    return () => page.evaluate(() => (window as unknown as { zoomSteps: string[] }).zoomSteps);
  }

  /** Creates an operator of `role` from the Operators screen; its one-time password. */
  async function createOperator(
    page: Page,
    email: string,
    role: 'finance' | 'content',
    code?: () => Promise<string>,
  ) {
    const zoomSteps = await recordZoomSteps(page);
    await page.getByRole('button', { name: en('operators.create'), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: en('operators.create') });
    await dialog.waitFor();
    // The console honours the operator's wish for reduced motion: the dialog opens without zooming.
    await expect.poll(() => page.locator('.ant-zoom-appear, .ant-zoom-enter').count()).toBe(0);
    expect(await zoomSteps()).toEqual([]);
    await dialog.getByLabel(en('field.email'), { exact: true }).fill(email);
    await dialog.getByLabel(en('field.role'), { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible')
      .getByTitle(en(`role.${role}`), { exact: true })
      .click();
    await expect
      .poll(() => dialog.innerText())
      .toContain(en('operators.confirm_create', { email, role: en(`role.${role}`) }));
    await dialog.getByRole('button', { name: en('common.confirm'), exact: true }).click();
    if (code) {
      // The session was not stepped up (signed in before the authenticator was bound): the dialog asks.
      const stepUp = page.getByRole('dialog', { name: en('stepup.title') });
      await stepUp.getByLabel(en('field.googleCode'), { exact: true }).fill(await code());
      await stepUp.getByRole('button', { name: en('stepup.submit'), exact: true }).click();
    }
    const shown = page.getByTestId('one-time-password');
    await shown.waitFor();
    const password = (await shown.innerText()).trim();
    await page
      .getByRole('dialog', { name: en('operators.password_once_title') })
      .getByRole('button', { name: en('common.close'), exact: true })
      .first()
      .click();
    return password;
  }

  const operators: Record<string, { email: string; password: string }> = {};
  let rootCode: (() => Promise<string>) | undefined;

  test('the build keeps the console out of the customer app and its service worker', () => {
    const read = (file: string) => fs.readFileSync(path.join(distDir, file), 'utf8');
    const precached = [...read('sw.js').matchAll(/url:"([^"]+)"/g)].map((match) => match[1]);
    const consoleEntry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(read('admin.html'))?.[1] ?? '?';
    expect(precached).toContain('index.html');
    expect(precached).not.toContain('admin.html');
    expect(precached).not.toContain(consoleEntry);
    expect(precached.filter((url) => url?.startsWith('assets/console/'))).toEqual([]);
    expect(read('index.html')).not.toContain(consoleEntry);
  });

  test('GET /admin answers the console with a fresh style nonce in the page and the policy', async () => {
    const nonceOf = async () => {
      const answer = await fetch(`${running().direct}/admin/operators`);
      const html = await answer.text();
      const nonce = /name="coffer-style-nonce" content="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(answer.headers.get('content-security-policy')).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      return nonce;
    };
    const first = await nonceOf();
    expect(first.length).toBeGreaterThanOrEqual(16);
    expect(await nonceOf()).not.toBe(first);
  });

  test(
    'the first operator signs in with the one-time password, changes it, binds an authenticator, creates a finance and a content operator',
    { timeout: 240_000 },
    async () => {
      const first = running().server.rootOperatorCreated;
      if (!first) throw new Error('the first start made no operator');
      const tab = await consoleTab();
      const { page } = tab;

      // zh-Hans first (the default), then English.
      await expectPage(page, zh('signin.title'));
      await expectAccessible(page, 'sign-in zh-Hans desktop');
      await chooseLanguage(page, zh, 'English');
      await expectPage(page, en('signin.title'));
      await expectAccessible(page, 'sign-in en desktop');

      rootCode = await firstSignIn(page, en, first.email, first.password);
      await expectAccessible(page, 'home en desktop');

      await openConsoleScreen(page, 'nav.operators', 'operators.title');
      await expectAccessible(page, 'operators en desktop');
      const stamp = Date.now();
      const finance = `finance.${stamp}@example.com`;
      const content = `content.${stamp}@example.com`;
      operators['finance'] = {
        email: finance,
        password: await createOperator(page, finance, 'finance', rootCode),
      };
      operators['content'] = { email: content, password: await createOperator(page, content, 'content') };
      await expect.poll(() => page.getByRole('table').innerText()).toContain(content);
      await expectNoViolations(tab);
    },
  );

  test(
    'every console page is axe clean at desktop and phone width, in zh-Hans and English',
    { timeout: 240_000 },
    async () => {
      const first = running().server.rootOperatorCreated;
      if (!first || !rootCode) throw new Error('the first operator is not set up');
      const screens: Array<[MessageKey, MessageKey]> = [
        ['nav.dashboard', 'dashboard.title'],
        ['nav.users', 'users.title'],
        ['nav.deposits', 'deposits.title'],
        ['nav.withdrawals', 'withdrawals.title'],
        ['nav.ledger', 'ledger.title'],
        ['nav.feedback', 'feedback.title'],
        ['nav.content', 'content.title'],
        ['nav.products', 'products.title'],
        ['nav.invites', 'invites.title'],
        ['nav.operators', 'operators.title'],
        ['nav.audit', 'audit.title'],
      ];
      for (const viewport of [DESKTOP, PHONE]) {
        const tab = await consoleTab(viewport);
        const { page } = tab;
        await expectPage(page, zh('signin.title'));
        await page.getByLabel(zh('field.email'), { exact: true }).fill(first.email);
        await page.getByLabel(zh('field.password'), { exact: true }).fill(NEW_PASSWORD);
        await page.getByRole('button', { name: zh('signin.submit'), exact: true }).click();
        const code = page.getByLabel(zh('field.googleCode'), { exact: true });
        await code.fill(await rootCode());
        // Enter in the code field submits: the button re-renders with the code step under load.
        await code.press('Enter');
        await expectPage(page, zh('home.title'));
        for (const [t, language] of [
          [zh, 'zh-Hans'],
          [en, 'en'],
        ] as const) {
          if (language === 'en') await chooseLanguage(page, zh, 'English');
          await expectAccessible(page, `home ${language} ${viewport.width}`);
          for (const [key, title] of screens) {
            await openConsoleScreen(page, key, title, t);
            await expectAccessible(page, `${key} ${language} ${viewport.width}`);
          }
        }
        await expectNoViolations(tab);
      }
    },
  );

  test(
    'a content operator sees no Withdrawals (the API refuses them too) and publishes news the app shows',
    { timeout: 240_000 },
    async () => {
      const content = operators['content'];
      if (!content) throw new Error('no content operator');
      const tab = await consoleTab();
      const { page } = tab;
      await chooseLanguage(page, zh, 'English');
      await firstSignIn(page, en, content.email, content.password);
      const menu = page.getByRole('navigation', { name: en('shell.menu') });
      await expect.poll(() => menu.innerText()).toContain(en('nav.content'));
      expect(await menu.innerText()).not.toContain(en('nav.withdrawals'));
      const refused = await api('/api/admin/withdraw/list', {}, await tokenOf(page));
      expect(refused.code).toBe(403);

      await openConsoleScreen(page, 'nav.content', 'content.title');
      const title = `Console news ${Date.now()}`;
      await page.getByRole('button', { name: en('content.news_create'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: en('content.news_create') });
      await dialog.getByLabel(en('field.title'), { exact: true }).fill(title);
      await dialog.getByLabel(en('field.summary'), { exact: true }).fill('A summary <b>not bold</b>');
      await dialog.getByLabel(en('field.body'), { exact: true }).fill('The body of the news.');
      await expect
        .poll(() => dialog.innerText())
        .toContain(en('content.confirm_news_create', { title, lang: en('common.everyone') }));
      await dialog.getByRole('button', { name: en('common.confirm'), exact: true }).click();
      await expect.poll(() => page.getByRole('table').innerText()).toContain(title);

      const news = z
        .object({ items: z.array(z.object({ title: z.string(), summary: z.string() })) })
        .parse((await api('/api/v1/news/list', {})).data);
      expect(news.items.find((item) => item.title === title)?.summary).toBe('A summary <b>not bold</b>');
      await expectNoViolations(tab);
    },
  );

  test(
    'once the step-up has run out, an access action asks for a code and then goes through',
    { timeout: 240_000 },
    async () => {
      const first = running().server.rootOperatorCreated;
      const finance = operators['finance'];
      if (!first || !rootCode || !finance) throw new Error('the operators are not set up');
      const tab = await consoleTab();
      const { page } = tab;
      await chooseLanguage(page, zh, 'English');
      await page.getByLabel(en('field.email'), { exact: true }).fill(first.email);
      await page.getByLabel(en('field.password'), { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: en('signin.submit'), exact: true }).click();
      const code = page.getByLabel(en('field.googleCode'), { exact: true });
      await code.fill(await rootCode());
      // Enter in the code field submits: the button re-renders with the code step under load.
      await code.press('Enter');
      await expectPage(page, en('home.title'));

      // Five minutes later, as far as the session knows: its step-up is over.
      const token = await tokenOf(page);
      const tokenHash = crypto.createHash('sha256').update(token).digest('hex');
      const { server } = running();
      await server.database.db
        .update(sessions)
        .set({ elevatedUntil: new Date(Date.now() - 1000) })
        .where(eq(sessions.tokenHash, tokenHash));
      await server.services.sessions.forget([tokenHash]);

      await openConsoleScreen(page, 'nav.operators', 'operators.title');
      await page
        .getByRole('button', { name: `${en('operators.disable')} ${finance.email}`, exact: true })
        .click();
      const confirmDialog = page
        .getByRole('dialog')
        .filter({ hasText: en('operators.confirm_disable', { email: finance.email }) });
      await confirmDialog.getByRole('button', { name: en('common.confirm'), exact: true }).click();
      const stepUp = page.getByRole('dialog', { name: en('stepup.title') });
      await stepUp.waitFor();
      // The confirm dialog fades out as the step-up opens; axe would read it half transparent.
      await page.locator('.ant-modal-confirm').waitFor({ state: 'hidden' });
      await expectAccessible(page, 'step-up dialog');
      await stepUp.getByLabel(en('field.googleCode'), { exact: true }).fill(await rootCode());
      await stepUp.getByRole('button', { name: en('stepup.submit'), exact: true }).click();
      await expect
        .poll(() => page.getByRole('row').filter({ hasText: finance.email }).innerText())
        .toContain(en('operators.disabled'));
      await expectNoViolations(tab);
    },
  );
});
