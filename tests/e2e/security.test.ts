/**
 * The authenticator and the trade password in Chromium: the authenticator page shows
 * a key as a QR code and as text; a code computed from the text binds it; the trade password is
 * set on update_pwd2. The server's answers confirm both.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { totpCode } from '../../server/security/totp.js';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectPage,
  hasChromium,
  navigateInApp,
  goToPage,
  WAIT_MS,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const infoSchema = z.object({ tradePasswordSet: z.boolean(), authenticatorBound: z.boolean() });

describe.skipIf(!hasChromium)('security settings in Chromium', () => {
  const { running, openTab, api, signedIn } = e2eHarness();

  test(
    'bind the authenticator with a code computed from the key shown on the page, then set a trade password',
    { timeout: 300_000 },
    async () => {
      const { page } = await openTab('en-US');
      const { token } = await signedIn('security', page);
      const info = async () => infoSchema.parse((await api('/api/v1/user/info', {}, token)).data);
      expect(await info()).toEqual({ tradePasswordSet: false, authenticatorBound: false });

      await goToPage(page, ROUTES.updatePassword3, en('settings.authenticator'));
      const secretText = page.getByTestId('authenticator-secret');
      await secretText.waitFor({ timeout: WAIT_MS });
      const secret = (await secretText.innerText()).replace(/\s+/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expect(page.getByRole('img', { name: en('security.qr_alt') }).isVisible()).resolves.toBe(true);
      await expectAccessible(page, 'authenticator binding');

      const code = await totpCode(secret, running().server.clock.now());
      await page.getByLabel(en('field.authenticatorCode'), { exact: true }).fill(code);
      await page.getByRole('button', { name: en('security.bind_submit'), exact: true }).click();
      await expectPage(page, en('settings.title'));
      expect((await info()).authenticatorBound).toBe(true);

      await goToPage(page, ROUTES.updatePassword2, en('settings.trade_password'));
      await page.getByLabel(en('field.tradePassword'), { exact: true }).fill('trade-secret1');
      await page.getByLabel(en('field.confirmPassword'), { exact: true }).fill('trade-secret1');
      await expectAccessible(page, 'trade password');
      await page.getByRole('button', { name: en('security.submit'), exact: true }).click();
      await expectPage(page, en('settings.title'));
      expect(await info()).toEqual({ tradePasswordSet: true, authenticatorBound: true });

      // Set now: the same page offers the change, with the old password and an e-mailed code.
      await navigateInApp(page, ROUTES.updatePassword2);
      await page.getByLabel(en('field.oldTradePassword'), { exact: true }).waitFor({ timeout: WAIT_MS });
    },
  );
});
