/**
 * The console as an operator drives it in the end-to-end tests: its English words, a sign-in
 * with the password and an authenticator code (the session is then stepped up), and a screen
 * opened from the menu (the drawer's at phone width).
 */
import type { Page } from 'playwright-core';
import { en as consoleEn, type MessageKey } from '../../admin/i18n/en.js';
import { zhHans as consoleZh } from '../../admin/i18n/zh-Hans.js';
import { OPERATOR_PASSWORD } from '../helpers/operator.js';
import { expectPage } from './harness.js';

/** A console text in English, its `{{name}}` placeholders filled. */
export const consoleText = (key: MessageKey, vars: Record<string, string | number> = {}): string =>
  consoleEn[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(vars[name] ?? whole));

/**
 * Opens the console at `${base}${path}` as an operator who prefers reduced motion: antd then
 * animates nothing, so no step waits on a transition's end, which a loaded browser may never
 * report (the console honours the preference; tests/e2e/console.test.ts checks it).
 */
export async function openConsole(page: Page, base: string, path = '/admin'): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${base}${path}`);
}

/** Signs `who` in at `${base}/admin` in English, with a fresh code; ends on the home screen. */
export async function signInToConsole(
  page: Page,
  base: string,
  who: { email: string; nextCode(): Promise<string> },
): Promise<void> {
  const t = consoleText;
  await openConsole(page, base);
  // The console opens in Chinese (its default); the picker is named in Chinese until switched.
  await page.getByLabel(consoleZh['language.label'], { exact: true }).selectOption({ label: 'English' });
  await expectPage(page, t('signin.title'));
  await page.getByLabel(t('field.email'), { exact: true }).fill(who.email);
  await page.getByLabel(t('field.password'), { exact: true }).fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: t('signin.submit'), exact: true }).click();
  const code = page.getByLabel(t('field.googleCode'), { exact: true });
  await code.fill(await who.nextCode());
  await code.press('Enter');
  await expectPage(page, t('home.title'));
}

/**
 * Opens the screen named `navKey` in the menu (through the drawer at phone width) and waits for
 * its `title` and its data; `t` is the console's language (English unless told).
 */
export async function openConsoleScreen(
  page: Page,
  navKey: MessageKey,
  title: MessageKey,
  t: (key: MessageKey) => string = consoleText,
): Promise<void> {
  const menuButton = page.getByRole('button', { name: t('shell.open_menu'), exact: true });
  if (await menuButton.isVisible()) await menuButton.click();
  await page
    .getByRole('navigation', { name: t('shell.menu') })
    .getByRole('menuitem', { name: t(navKey), exact: true })
    .click();
  await expectPage(page, t(title));
  await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' });
}
