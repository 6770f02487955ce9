/**
 * The security centre (pages/setting/setting5) in Chromium: the signed-in devices, where ending
 * another device's session sends that device to login at its next call; the anti-phishing code,
 * which heads the next e-mail Coffer writes; the e-mail change with a code from each address,
 * after which the profile shows the new address; the page accessible in English and Chinese at
 * phone size.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Page } from 'playwright-core';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectNoAppErrors,
  expectPage,
  expectToast,
  fieldError,
  fill,
  hasChromium,
  keepScreen,
  logIn,
  navigateInApp,
  goToPage,
  storedToken,
  zh,
  TRADE_PASSWORD,
  WAIT_MS,
  serviceWorkerReady,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const infoSchema = z.object({ email: z.string(), antiPhishingSet: z.boolean() });

/** The security centre opened from Settings, as a user gets there, with its device list loaded. */
async function openCentre(page: Page, t: (key: string) => string, sessions: number): Promise<void> {
  await goToPage(page, ROUTES.settings, t('settings.title'));
  await page.getByRole('button', { name: t('settings.security_centre'), exact: true }).click();
  await expectPage(page, t('settings.security_centre'));
  await expect.poll(() => page.getByTestId('session').count(), { timeout: WAIT_MS }).toBe(sessions);
}

describe.skipIf(!hasChromium)('the security centre in Chromium', () => {
  const { openTab, launch, api, signedIn, running, codeMailedTo, newAddress } = e2eHarness({ proxy: true });

  /** Ends the session the harness's registration through the API left (the page's own stays). */
  async function onlyThisSession(token: string): Promise<void> {
    const ended = await api('/api/v1/user/session-revoke', { others: true }, token);
    expect(ended.code, ended.message).toBe(200);
  }

  test(
    'signed in on two devices, the first lists both and ends the other, whose next call goes to login',
    { timeout: 300_000 },
    async () => {
      const first = await openTab('en-US');
      const customer = await signedIn('centre', first.page);
      await onlyThisSession(customer.token);
      const second = await openTab('en-US');
      await launch(second.page, ROUTES.login);
      await logIn(second.page, en, customer.email, customer.password);
      const secondToken = await storedToken(second.page);
      expect(secondToken).not.toBeNull();

      await openCentre(first.page, en, 2);
      const page = first.page;
      // This device is marked and has no button of its own; the other has one.
      await expect.poll(() => page.getByText(en('centre.this_device'), { exact: true }).count()).toBe(1);
      const endButtons = page.getByRole('button', { name: en('centre.end_session'), exact: true });
      expect(await endButtons.count()).toBe(1);
      await expectAccessible(page, 'security centre with two devices');

      await endButtons.click();
      // The confirmation says what it does; cancelling it ends nothing.
      const dialog = page.locator('.adm-dialog');
      await dialog.getByRole('button', { name: en('common.cancel'), exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByTestId('session').count()).toBe(2);
      await endButtons.click();
      await dialog.getByRole('button', { name: en('centre.end_session'), exact: true }).click();
      await expectToast(page, en('server.sessions_revoked'));
      await expect.poll(() => page.getByTestId('session').count(), { timeout: WAIT_MS }).toBe(1);
      expect(await page.getByRole('button', { name: en('centre.end_others'), exact: true }).count()).toBe(0);

      // The other device's token is refused at once; its next call sends it to login.
      expect((await api('/api/v1/user/info', {}, secondToken ?? '')).code).toBe(401);
      await navigateInApp(second.page, ROUTES.securityCentre);
      await expectPage(second.page, en('auth.login_title'));
      expect(await storedToken(second.page)).toBeNull();
      // The first device is still signed in.
      expect((await api('/api/v1/user/info', {}, customer.token)).code).toBe(200);

      // Offline (the link cut), the list says it needs a connection; back online, "Try again" shows it.
      const { proxy } = running();
      if (!proxy) throw new Error('this file runs behind the proxy');
      // The app opened anew offline (from the service worker's copy), as a user without signal does.
      await serviceWorkerReady(page);
      proxy.down();
      await launch(page, ROUTES.securityCentre);
      await expectPage(page, en('tabs.home'));
      await goToPage(page, ROUTES.securityCentre, en('settings.security_centre'));
      await page.getByText(en('centre.sessions_offline'), { exact: true }).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('session').count()).toBe(0);
      await page.getByText(en('centre.forms_offline'), { exact: true }).waitFor({ timeout: 30_000 });
      await keepScreen(page, 'security-centre-offline');
      proxy.up();
      const retries = page.getByRole('button', { name: en('security.retry'), exact: true });
      expect(await retries.count()).toBe(2);
      await retries.first().click();
      await expect.poll(() => page.getByTestId('session').count(), { timeout: WAIT_MS }).toBe(1);
      await retries.first().click();
      await page.getByLabel(en('centre.phishing_code'), { exact: true }).waitFor({ timeout: WAIT_MS });
      expectNoAppErrors(first);
    },
  );

  test(
    'the anti-phishing code set with the trade password heads the next e-mail; the e-mail changes with a code from each address and the profile shows the new one',
    { timeout: 300_000 },
    async () => {
      const { page, ...tab } = await openTab('en-US');
      const customer = await signedIn('phishing', page);
      const bound = await api(
        '/api/v1/user/bindTradePassword',
        { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
        customer.token,
      );
      expect(bound.code, bound.message).toBe(200);
      // The registration through the API left a session: "End all other sessions" ends it.
      await openCentre(page, en, 2);
      await page.getByRole('button', { name: en('centre.end_others'), exact: true }).click();
      await page
        .locator('.adm-dialog')
        .getByRole('button', { name: en('centre.end_others'), exact: true })
        .click();
      await expect.poll(() => page.getByTestId('session').count(), { timeout: WAIT_MS }).toBe(1);
      await keepScreen(page, 'security-centre-en');
      // No authenticator: the code is confirmed with the trade password.
      await page.getByTestId('anti-phishing-status').getByText(en('centre.phishing_not_set')).waitFor();
      const codeField = page.getByLabel(en('centre.phishing_code'), { exact: true });
      const submitCode = page.getByRole('button', { name: en('centre.phishing_submit'), exact: true });
      await codeField.fill('ab');
      await submitCode.click();
      expect(await fieldError(page, en('centre.phishing_code'))).toBe(en('server.anti_phishing_format'));

      // A wrong trade password: the server's refusal stands beside the field it names.
      await codeField.fill('Blue42Fox');
      await page.getByLabel(en('field.tradePassword'), { exact: true }).fill('wrong-secret1');
      await submitCode.click();
      expect(await fieldError(page, en('field.tradePassword'))).not.toBe('');
      expect(
        infoSchema.parse((await api('/api/v1/user/info', {}, customer.token)).data).antiPhishingSet,
      ).toBe(false);

      await page.getByLabel(en('field.tradePassword'), { exact: true }).fill(TRADE_PASSWORD);
      await submitCode.click();
      await page.getByTestId('anti-phishing-status').getByText(en('centre.phishing_set')).waitFor();
      await page.getByRole('button', { name: en('centre.phishing_change'), exact: true }).waitFor();
      expect(
        infoSchema.parse((await api('/api/v1/user/info', {}, customer.token)).data).antiPhishingSet,
      ).toBe(true);
      expect(await codeField.inputValue()).toBe('');

      // The e-mail change: the warning stands before the submit; the codes go to both addresses.
      await page.getByText(en('centre.email_warning'), { exact: true }).waitFor();
      // The user's own address is refused beside the field, as a taken one is (whose it is never said).
      await page.getByLabel(en('field.newEmail'), { exact: true }).fill(customer.email);
      await page.getByRole('button', { name: en('centre.send_codes'), exact: true }).click();
      expect(await fieldError(page, en('field.newEmail'))).toBe(en('server.email_unavailable'));
      const newEmail = newAddress('moved');
      await page.getByLabel(en('field.newEmail'), { exact: true }).fill(newEmail);
      const { smtp } = running();
      const before = smtp.received.length;
      await page.getByRole('button', { name: en('centre.send_codes'), exact: true }).click();
      const oldCode = await codeMailedTo(customer.email, before);
      const newCode = await codeMailedTo(newEmail, before);
      // The next e-mail to the user begins with the anti-phishing code, in both parts.
      const toOld = smtp.received.slice(before).find((item) => item.rcptTo.includes(customer.email));
      expect(toOld?.mail.text?.split('\n')[0]).toContain('Blue42Fox');
      expect(String(toOld?.mail.html)).toContain('Blue42Fox');
      // The send button counts down (60 s) instead.
      await expect
        .poll(() => page.locator('.code-button').textContent())
        .toMatch(new RegExp(fill(en('auth.resend_in'), { seconds: '\\d+' })));
      expect(await page.locator('.code-button').isDisabled()).toBe(true);

      await page.getByLabel(en('centre.old_code'), { exact: true }).fill(oldCode);
      await page.getByLabel(en('centre.new_code'), { exact: true }).fill(newCode);
      await page.getByRole('button', { name: en('centre.email_submit'), exact: true }).click();
      await page
        .getByTestId('current-email')
        .getByText(fill(en('centre.email_current'), { email: newEmail }), { exact: true })
        .waitFor({ timeout: WAIT_MS });
      expect(infoSchema.parse((await api('/api/v1/user/info', {}, customer.token)).data).email).toBe(
        newEmail,
      );

      // The profile (Assets) shows the new address.
      await navigateInApp(page, ROUTES.my);
      await page.getByText(newEmail, { exact: true }).waitFor({ timeout: WAIT_MS });
      expectNoErrors({ page, ...tab });
    },
  );

  test('the security centre is accessible in Chinese at phone size', { timeout: 300_000 }, async () => {
    const { page } = await openTab('zh-CN');
    await onlyThisSession((await signedIn('centrezh', page, zh)).token);
    await openCentre(page, zh, 1);
    await page.getByText(zh('centre.phishing_hint'), { exact: true }).waitFor();
    await page.getByRole('button', { name: zh('centre.send_codes'), exact: true }).waitFor();
    await expectAccessible(page, 'security centre in Chinese');
    await keepScreen(page, 'security-centre-zh');
  });
});
