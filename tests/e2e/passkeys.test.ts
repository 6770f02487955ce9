/**
 * Passkeys in Chromium with its virtual authenticator (DevTools protocol WebAuthn): a customer
 * adds a passkey in Settings › Passkeys (login password, then the browser's passkey dialog),
 * renames it, logs out, and signs in with "Sign in with a passkey" without typing the e-mail;
 * then removes it after confirming.
 *
 * WebAuthn needs a secure context and a relying party id that is a domain name: the app is opened
 * at http://localhost:<port> (a forwarder to the harness's 127.0.0.1 server), and Coffer's
 * COFFER_PUBLIC_URL is that address.
 */
import net from 'node:net';
import { beforeAll, afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectPage,
  hasChromium,
  keepScreen,
  logIn,
  goToPage,
  storedToken,
  WAIT_MS,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const passkeyListSchema = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string(), lastUsedAt: z.string().nullable() })),
});
const infoSchema = z.object({ email: z.string() });

describe.skipIf(!hasChromium)('passkeys in Chromium', () => {
  /** Forwards http://localhost:<port> to the harness's server, whose address is known only once it runs. */
  let forwarder: net.Server | undefined;
  let localPort = 0;
  beforeAll(async () => {
    forwarder = net.createServer((socket) => {
      const target = new URL(running().direct);
      const upstream = net.connect(Number(target.port), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder?.listen(0, '127.0.0.1', resolve));
    const address = forwarder.address();
    if (address === null || typeof address === 'string') throw new Error('the forwarder has no port');
    localPort = address.port;
  });
  afterAll(async () => {
    await new Promise((resolve) => forwarder?.close(resolve));
  });

  const { running, openTab, api, registered } = e2eHarness({
    env: () => ({ COFFER_PUBLIC_URL: `http://localhost:${localPort}` }),
  });

  test(
    'a passkey added in Settings › Passkeys signs the user in from the login page without the e-mail',
    { timeout: 300_000 },
    async () => {
      const { email, password } = await registered('passkey');
      const { page } = await openTab('en-US');
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      await page.goto(`http://localhost:${localPort}/#/pages/login/login`);
      await logIn(page, en, email, password);
      const firstToken = await storedToken(page);
      expect(firstToken).not.toBeNull();

      // Settings links to the passkeys page.
      await goToPage(page, ROUTES.settings, en('settings.title'));
      await page.getByRole('button', { name: en('settings.passkeys'), exact: true }).click();
      await expectPage(page, en('passkeys.title'));
      await page.getByText(en('passkeys.none'), { exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'passkeys, none yet');

      // Add one: a name and the login password, then the (virtual) authenticator creates it.
      await page.getByLabel(en('passkeys.name'), { exact: true }).fill('Test laptop');
      await page.getByLabel(en('settings.login_password'), { exact: true }).fill(password);
      await page.getByRole('button', { name: en('passkeys.add_submit'), exact: true }).click();
      await page.getByText('Test laptop', { exact: true }).waitFor({ timeout: WAIT_MS });
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]?.isResidentCredential).toBe(true);
      expect(credentials[0]?.rpId).toBe('localhost');
      const listed = passkeyListSchema.parse((await api('/api/v1/passkey/list', {}, firstToken ?? '')).data);
      expect(listed.items.map((item) => [item.name, item.lastUsedAt])).toEqual([['Test laptop', null]]);
      await expectAccessible(page, 'passkeys, one added');
      await keepScreen(page, 'passkeys-list');

      // Rename it in its dialog.
      await page.getByRole('button', { name: 'Rename Test laptop', exact: true }).click();
      const renaming = page.getByRole('dialog');
      await renaming.getByLabel(en('passkeys.name'), { exact: true }).fill('Work laptop');
      await expectAccessible(page, 'renaming a passkey');
      await keepScreen(page, 'passkeys-rename');
      await renaming.getByRole('button', { name: en('passkeys.rename_confirm'), exact: true }).click();
      await page.getByText('Work laptop', { exact: true }).waitFor({ timeout: WAIT_MS });

      // Log out, then sign in with the passkey: no e-mail typed.
      await goToPage(page, ROUTES.settings, en('settings.title'));
      await page.getByRole('button', { name: en('settings.logout'), exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(en('settings.logout_confirm'), { exact: true }).waitFor();
      await dialog.getByRole('button', { name: en('settings.logout'), exact: true }).click();
      await expectPage(page, en('auth.login_title'));
      expect(await storedToken(page)).toBeNull();
      await expect(page.getByLabel(en('field.email'), { exact: true }).inputValue()).resolves.toBe('');
      await expectAccessible(page, 'login with the passkey button');
      await keepScreen(page, 'passkeys-login');
      await page.getByRole('button', { name: en('auth.passkey_login'), exact: true }).click();
      await expectPage(page, en('tabs.home'));
      const token = await storedToken(page);
      expect(token).not.toBeNull();
      expect(token).not.toBe(firstToken);
      const info = await api('/api/v1/user/info', {}, token ?? '');
      expect(infoSchema.parse(info.data).email).toBe(email);
      const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(after.credentials[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);

      // Remove it, after confirming: it is gone from the list and from the server.
      await goToPage(page, ROUTES.passkeys, en('passkeys.title'));
      await page.getByRole('button', { name: 'Remove Work laptop', exact: true }).click();
      const removing = page.getByRole('dialog');
      await removing.getByText(en('passkeys.remove_subtitle'), { exact: true }).waitFor();
      await expectAccessible(page, 'removing a passkey');
      await removing.getByRole('button', { name: en('passkeys.remove_confirm'), exact: true }).click();
      await page.getByText(en('passkeys.none'), { exact: true }).waitFor({ timeout: WAIT_MS });
      const left = passkeyListSchema.parse((await api('/api/v1/passkey/list', {}, token ?? '')).data);
      expect(left.items).toEqual([]);
    },
  );
});
