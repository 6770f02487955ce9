/**
 * The client end to end, in Chromium: the built app (dist/, fresh from `vite build`) served by a
 * real Coffer on loopback, its module worker talking to the API through the envelope gateway,
 * verification codes read from the mail a real SMTP server received. Pages are driven by role
 * and label, with the names taken from the locale catalogues, as a user or a screen reader sees
 * them (spec sections 2, 4, 5 and 8; CONTRACT.md).
 */
import crypto from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectNoOverflow,
  expectPage,
  expectStaysAt,
  expectToast,
  fieldError,
  hasChromium,
  ja,
  logIn,
  navigateInApp,
  ROOT_INVITE,
  routeOf,
  SLOW,
  storedToken,
  th,
  WAIT_MS,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';
import { NEWS_PAGE } from '../../src/features/home/news.js';
import { cliContext } from '../../server/cli/cli-context.js';

describe.skipIf(!hasChromium)('the client end to end in Chromium', () => {
  const { running, openTab, launch, api, codeMailedTo, registered, newAddress } = e2eHarness();

  // --- the tests -------------------------------------------------------------------------------

  test(
    'a new user registers with an invite code and the mailed code, stays logged in across a reload, sees the profile, switches language, logs out (the token is revoked) and recovers the password',
    SLOW,
    async () => {
      const tab = await openTab('en-US');
      const { page } = tab;
      const { base, smtp: mailbox } = running();
      const email = newAddress('registration.story.with.a.long.address');
      const password = 'first-secret1';
      const newPassword = 'second-secret2';

      await page.goto(`${base}/`);
      await expectPage(page, en('auth.login_title'));
      expect(routeOf(page)).toBe(ROUTES.login);

      // Register: the form, then the code that was mailed.
      await page.getByRole('link', { name: en('auth.register_link'), exact: true }).click();
      await expectPage(page, en('auth.register_title'));
      await page.getByLabel(en('field.email'), { exact: true }).fill(email);
      await page.getByLabel(en('field.password'), { exact: true }).fill(password);
      await page.getByLabel(en('field.confirmPassword'), { exact: true }).fill(password);
      await page.getByLabel(en('field.inviteCode'), { exact: true }).fill(ROOT_INVITE);
      const mailsBefore = mailbox.received.length;
      await page.getByRole('button', { name: en('auth.next'), exact: true }).click();
      await expectPage(page, en('auth.verify_title'));
      expect(routeOf(page)).toBe(ROUTES.registerVerify);
      await expectNoOverflow(page, 'register verify_code, naming the address');
      const registerCode = await codeMailedTo(email, mailsBefore);
      await page.getByLabel(en('field.code'), { exact: true }).fill(registerCode);
      await page.getByRole('button', { name: en('auth.register'), exact: true }).click();

      // Home, with the five tabs in the spec's order.
      await expectPage(page, en('tabs.home'));
      expect(routeOf(page)).toBe(ROUTES.home);
      const tabs = page.getByRole('navigation', { name: en('tabs.label'), exact: true }).getByRole('link');
      expect(await tabs.allInnerTexts()).toEqual(
        ['tabs.home', 'tabs.hosting', 'tabs.team', 'tabs.assets', 'tabs.trading'].map(en),
      );
      expect(await tabs.first().getAttribute('aria-current')).toBe('page');

      // A reload keeps the session: the launch rule goes home again.
      await page.reload();
      await expectPage(page, en('tabs.home'));
      expect(routeOf(page)).toBe(ROUTES.home);

      // Assets: the profile from user/info.
      const token = await storedToken(page);
      expect(token).toEqual(expect.any(String));
      if (token === null) throw new Error('no stored token');
      const info = await api('/api/v1/user/info', {}, token);
      const { inviteCode } = z.object({ email: z.string(), inviteCode: z.string().min(1) }).parse(info.data);
      await page
        .getByRole('navigation', { name: en('tabs.label'), exact: true })
        .getByRole('link', { name: en('tabs.assets'), exact: true })
        .click();
      await expectPage(page, en('tabs.assets'));
      await page.getByText(email, { exact: true }).waitFor();
      const invite = page.getByRole('region', { name: en('my.invite_code'), exact: true });
      await invite.getByText(inviteCode, { exact: true }).waitFor();
      await expectNoOverflow(page, 'assets, with the address in the profile');

      // Settings: the language select switches the page to Japanese; the choice holds on the way back.
      await page.getByRole('link', { name: en('settings.title'), exact: true }).click();
      await expectPage(page, en('settings.title'));
      await page.getByLabel(en('settings.language'), { exact: true }).selectOption({ label: '日本語' });
      await expectPage(page, ja('settings.title'));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
      await page.getByRole('button', { name: ja('common.back'), exact: true }).click();
      await expectPage(page, ja('tabs.assets'));
      await page.getByRole('link', { name: ja('settings.title'), exact: true }).click();
      await expectPage(page, ja('settings.title'));

      // Log out after confirming; the language survives the logout, the token does not.
      expect(await storedToken(page)).toBe(token);
      await page.getByRole('button', { name: ja('settings.logout'), exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(ja('settings.logout_confirm'), { exact: true }).waitFor();
      await dialog.getByRole('button', { name: ja('settings.logout'), exact: true }).click();
      await expectPage(page, ja('auth.login_title'));
      expect(routeOf(page)).toBe(ROUTES.login);
      expect(await storedToken(page)).toBeNull();
      await expect
        .poll(async () => (await api('/api/v1/user/info', {}, token)).code, { timeout: WAIT_MS })
        .toBe(401);

      // Back to English on the login page, then recover the password.
      await page.getByLabel(ja('settings.language'), { exact: true }).selectOption({ label: 'English' });
      await expectPage(page, en('auth.login_title'));
      await page.getByRole('link', { name: en('auth.forgot_link'), exact: true }).click();
      await expectPage(page, en('auth.forgot_title'));
      await page.getByLabel(en('field.email'), { exact: true }).fill(email);
      const mailsBeforeReset = mailbox.received.length;
      await page.getByRole('button', { name: en('auth.send_code'), exact: true }).click();
      await expectPage(page, en('auth.verify_title'));
      expect(routeOf(page)).toBe(ROUTES.forgotVerify);
      const resetCode = await codeMailedTo(email, mailsBeforeReset);
      await page.getByLabel(en('field.code'), { exact: true }).fill(resetCode);
      await page.getByRole('button', { name: en('auth.next'), exact: true }).click();
      await expectPage(page, en('auth.reset_title'));
      await expectNoOverflow(page, 'forget_pwd1, naming the address');
      await page.getByLabel(en('field.newPassword'), { exact: true }).fill(newPassword);
      await page.getByLabel(en('field.confirmPassword'), { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: en('auth.reset_submit'), exact: true }).click();
      await expectPage(page, en('auth.login_title'));
      expect(routeOf(page)).toBe(ROUTES.login);

      await logIn(page, en, email, newPassword);
      expect(await storedToken(page)).not.toBe(token);
      expectNoErrors(tab);
    },
  );

  test(
    'the launch rule: without a token only download, register and my stay (my shows a login prompt in place); with one, login goes home and my stays',
    SLOW,
    async () => {
      const { email, password } = await registered('launch');
      const tab = await openTab('en-US');
      const { page } = tab;

      await launch(page, ROUTES.hosting);
      await expectPage(page, en('auth.login_title'));
      expect(routeOf(page)).toBe(ROUTES.login);

      await launch(page, ROUTES.download);
      await expectPage(page, en('download.title'));
      await expectStaysAt(page, ROUTES.download);

      await launch(page, ROUTES.register);
      await expectPage(page, en('auth.register_title'));
      await expectStaysAt(page, ROUTES.register);

      await launch(page, ROUTES.my);
      await expectPage(page, en('tabs.assets'));
      await page.getByRole('heading', { level: 2, name: en('my.login_prompt_title'), exact: true }).waitFor();
      await expectStaysAt(page, ROUTES.my);

      // Log in from the prompt, then launch again with the stored token.
      await page.getByRole('link', { name: en('auth.login'), exact: true }).click();
      await logIn(page, en, email, password);

      // The login route opened in place, then reloaded: the launch rule sends the token home.
      await page.goto(`${running().base}/#/pages/login/login`);
      await page.reload();
      await expectPage(page, en('tabs.home'));
      expect(routeOf(page)).toBe(ROUTES.home);

      await launch(page, ROUTES.my);
      await expectPage(page, en('tabs.assets'));
      await page.getByText(email, { exact: true }).waitFor();
      await expectStaysAt(page, ROUTES.my);
      expectNoErrors(tab);
    },
  );

  test('the home tab lists the newest 20 news; "More news" shows the next ones', SLOW, async () => {
    const prefix = `Paged ${crypto.randomUUID().slice(0, 8)}`;
    const count = NEWS_PAGE + 1;
    const at = Date.now() - count * 60_000; // a minute apart, the last the newest
    for (let n = 1; n <= count; n += 1) {
      await running().server.services.content.createNews(cliContext(), {
        title: `${prefix} ${n}`,
        summary: 'Paged news',
        body: 'One of a page and one more.',
        publishedAt: new Date(at + n * 60_000).toISOString(),
      });
    }
    const { email, password } = await registered('news-pages');
    const { page } = await openTab('en-US');
    await launch(page, ROUTES.login);
    await logIn(page, en, email, password);
    const news = page.getByRole('list', { name: en('home.news'), exact: true });
    await news.getByRole('link', { name: new RegExp(`^${prefix} ${count}\\b`) }).waitFor();
    await expect.poll(() => news.getByRole('listitem').count()).toBe(NEWS_PAGE);
    const oldest = news.getByRole('link', { name: new RegExp(`^${prefix} 1\\b`) });
    expect(await oldest.count()).toBe(0);
    await page.getByRole('button', { name: en('home.news_more'), exact: true }).click();
    await oldest.waitFor();
  });

  test(
    'a session revoked on the server: the next call answers 401, the app clears the token and relaunches at login',
    SLOW,
    async () => {
      const { email, password } = await registered('revoked');
      const tab = await openTab('en-US');
      const { page } = tab;
      await launch(page, ROUTES.login);
      await logIn(page, en, email, password);
      // The first pull after login has finished ("as of" shows), so the call that meets the
      // revoked token is the assets tab's, not the sync engine's.
      await page.getByText(en('sync.as_of').replace('{{time}}', '').trim()).waitFor();

      const token = await storedToken(page);
      if (token === null) throw new Error('no stored token after login');
      expect((await api('/api/v1/sso/logout', {}, token)).code).toBe(200);

      // The assets tab asks for user/info with the revoked token.
      await page
        .getByRole('navigation', { name: en('tabs.label'), exact: true })
        .getByRole('link', { name: en('tabs.assets'), exact: true })
        .click();
      await expectPage(page, en('auth.login_title'));
      expect(routeOf(page)).toBe(ROUTES.login);
      await expectToast(page, en('server.not_logged_in'));
      expect(await storedToken(page)).toBeNull();
      // The 401 is a body code in an HTTP 200 answer, so the browser logs no failed request.
      expectNoErrors(tab);
    },
  );

  test(
    'the language chosen on the login page persists across a reload and sets the lang header: the server answers in Japanese; Thai follows',
    SLOW,
    async () => {
      const { email } = await registered('lang');
      const tab = await openTab('en-US');
      const { page } = tab;
      await launch(page, ROUTES.login);
      await expectPage(page, en('auth.login_title'));

      await page.getByLabel(en('settings.language'), { exact: true }).selectOption({ label: '日本語' });
      await expectPage(page, ja('auth.login_title'));
      await page.reload();
      await expectPage(page, ja('auth.login_title'));

      // A wrong password: the server's refusal comes back in Japanese. It names the password
      // field, so the app shows it beside that field (src/app/outcome.ts), not in a toast.
      await page.getByLabel(ja('field.email'), { exact: true }).fill(email);
      await page.getByLabel(ja('field.password'), { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: ja('auth.login'), exact: true }).click();
      expect(await fieldError(page, ja('field.password'))).toBe(ja('server.wrong_credentials'));
      expect(await storedToken(page)).toBeNull();

      await page.getByLabel(ja('settings.language'), { exact: true }).selectOption({ label: 'ไทย' });
      await expectPage(page, th('auth.login_title'));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('th');
      expectNoErrors(tab);
    },
  );

  test(
    'register checks its form before sending anything: a 5-character password and a mismatched confirmation are shown beside their fields, in the chosen language',
    SLOW,
    async () => {
      const tab = await openTab('en-US');
      const { page } = tab;
      const mailsBefore = running().smtp.received.length;
      await launch(page, ROUTES.register);
      await expectPage(page, en('auth.register_title'));

      await page.getByLabel(en('field.email'), { exact: true }).fill(newAddress('checks'));
      await page.getByLabel(en('field.password'), { exact: true }).fill('abcde');
      await page.getByLabel(en('field.confirmPassword'), { exact: true }).fill('abcdef');
      await page.getByLabel(en('field.inviteCode'), { exact: true }).fill(ROOT_INVITE);
      await page.getByRole('button', { name: en('auth.next'), exact: true }).click();
      expect(await fieldError(page, en('field.password'))).toBe(en('server.password_too_short'));
      expect(await fieldError(page, en('field.confirmPassword'))).toBe(en('server.passwords_mismatch'));
      expect(
        await page.getByLabel(en('field.email'), { exact: true }).getAttribute('aria-invalid'),
      ).toBeNull();

      // A long enough password that the confirmation still does not match.
      await page.getByLabel(en('field.password'), { exact: true }).fill('abcdef1');
      await page.getByRole('button', { name: en('auth.next'), exact: true }).click();
      expect(await fieldError(page, en('field.confirmPassword'))).toBe(en('server.passwords_mismatch'));
      expect(
        await page.getByLabel(en('field.password'), { exact: true }).getAttribute('aria-invalid'),
      ).toBeNull();

      // The same checks in Japanese.
      await page.getByLabel(en('settings.language'), { exact: true }).selectOption({ label: '日本語' });
      await expectPage(page, ja('auth.register_title'));
      await page.getByLabel(ja('field.password'), { exact: true }).fill('abcde');
      await page.getByRole('button', { name: ja('auth.next'), exact: true }).click();
      expect(await fieldError(page, ja('field.password'))).toBe(ja('server.password_too_short'));
      expect(await fieldError(page, ja('field.confirmPassword'))).toBe(ja('server.passwords_mismatch'));

      expect(routeOf(page)).toBe(ROUTES.register);
      // Nothing sent but the app's own update check (spec section 4), which may fall in the test.
      expect(tab.apiRoutes.filter((route) => route !== '/api/v1/common/version')).toEqual([]);
      expect(running().smtp.received.length).toBe(mailsBefore);
      expectNoErrors(tab);
    },
  );

  test(
    'the floating customer-service button on Settings opens customer service; a page not built yet (pdf) shows "Not yet open" and goes back (every Settings entry is built)',
    SLOW,
    async () => {
      const { email, password } = await registered('later');
      const tab = await openTab('en-US');
      const { page } = tab;
      await launch(page, ROUTES.login);
      await logIn(page, en, email, password);
      await launch(page, ROUTES.settings);
      // The launch rule sends a stored token home; Settings is then one tap away.
      await expectPage(page, en('tabs.home'));
      await page
        .getByRole('navigation', { name: en('tabs.label'), exact: true })
        .getByRole('link', { name: en('tabs.assets'), exact: true })
        .click();
      await expectPage(page, en('tabs.assets'));
      await page.getByRole('link', { name: en('settings.title'), exact: true }).click();
      await expectPage(page, en('settings.title'));

      // The floating round button (Settings lists "Customer service" too, as an entry).
      const service = page
        .getByRole('button', { name: en('common.customer_service'), exact: true })
        .and(page.locator('.service-button'));
      expect(await service.count()).toBe(1);
      await service.click();
      await expectPage(page, en('chat.kefu_title'));
      expect(routeOf(page)).toBe(ROUTES.kefu);
      await navigateInApp(page, '/pages/pdf/pdf');
      await expectToast(page, en('common.not_yet_open'));
      // Back is asynchronous (history.back): wait for the page it returns to, then check it stays.
      await expectPage(page, en('chat.kefu_title'));
      await expectStaysAt(page, ROUTES.kefu);
      expectNoErrors(tab);
    },
  );

  test(
    'accessibility smoke at 360 px: login, register, home, and settings and assets in Thai have no serious or critical axe violations, one h1 each, and no horizontal overflow',
    SLOW,
    async () => {
      const { email, password } = await registered('a11y');
      const tab = await openTab('en-US', { width: 360, height: 780 });
      const { page } = tab;

      await launch(page, ROUTES.login);
      await expectPage(page, en('auth.login_title'));
      await expectAccessible(page, 'login');
      await launch(page, ROUTES.register);
      await expectPage(page, en('auth.register_title'));
      await expectAccessible(page, 'register');
      await launch(page, ROUTES.login);
      await logIn(page, en, email, password);
      await expectAccessible(page, 'home');

      // Settings and the profile (with the address) in Thai, whose words run longest.
      await page.getByRole('link', { name: en('tabs.assets'), exact: true }).click();
      await expectPage(page, en('tabs.assets'));
      await page.getByRole('link', { name: en('settings.title'), exact: true }).click();
      await expectPage(page, en('settings.title'));
      await page.getByLabel(en('settings.language'), { exact: true }).selectOption({ label: 'ไทย' });
      await expectPage(page, th('settings.title'));
      await expectAccessible(page, 'settings (th)');
      await page.getByRole('button', { name: th('common.back'), exact: true }).click();
      await expectPage(page, th('tabs.assets'));
      await page.getByText(email, { exact: true }).waitFor();
      await expectAccessible(page, 'assets (th)');
      expectNoErrors(tab);
    },
  );
  test(
    'synced screens: a nickname and a ticket made offline wait in the outbox (badge, offline banner), are sent on reconnect and then show as synced; home, profile, feedback and outbox pass axe',
    SLOW,
    async () => {
      const tab = await openTab('en-US');
      const { page } = tab;
      const context = page.context();
      const { email, password } = await registered('synced');

      const go = (route: string) => navigateInApp(page, route);

      await launch(page, ROUTES.login);
      await logIn(page, en, email, password);
      await page.getByText(en('home.market'), { exact: true }).waitFor();
      await expectAccessible(page, 'home (synced)');

      // Every page once while online, so its chunk is loaded whether or not the service
      // worker finished precaching before the network goes.
      await go(ROUTES.feedback);
      await expectPage(page, en('feedback.title'));
      await page.getByText(en('feedback.empty'), { exact: true }).waitFor();
      await expectAccessible(page, 'feedback (empty)');
      await go(ROUTES.outbox);
      await expectPage(page, en('outbox.title'));
      await page.getByText(en('outbox.empty'), { exact: true }).waitFor();
      await expectAccessible(page, 'outbox (empty)');
      await go(ROUTES.profile);
      await expectPage(page, en('profile.title'));
      await go(ROUTES.my);
      await expectPage(page, en('tabs.assets'));

      // Offline: the banner shows, and both commands are queued rather than refused.
      await context.setOffline(true);
      await page
        .getByRole('status')
        .filter({ hasText: en('sync.offline') })
        .waitFor();
      await go(ROUTES.profile);
      await expectPage(page, en('profile.title'));
      await page.getByLabel(en('field.nickname'), { exact: true }).fill('Offline Name');
      await page.getByRole('radio', { name: en('profile.avatar_option').replace('{{number}}', '3') }).check();
      await page.getByRole('button', { name: en('profile.save'), exact: true }).click();
      await page.getByText(en('profile.pending_avatar'), { exact: true }).waitFor();
      await expectToast(page, en('profile.queued'));
      // The toast fades (axe would read its half-transparent frame): check once it is gone.
      await page.getByText(en('profile.queued'), { exact: true }).waitFor({ state: 'hidden' });
      await expectAccessible(page, 'profile (offline, pending)');

      await go(ROUTES.feedback);
      await expectPage(page, en('feedback.title'));
      await page.getByLabel(en('field.title'), { exact: true }).fill('Written offline');
      await page.getByLabel(en('field.content'), { exact: true }).fill('Sent when the network returns');
      await page.getByRole('button', { name: en('feedback.submit'), exact: true }).click();
      await page.getByText(en('feedback.waiting'), { exact: true }).waitFor();
      await expectToast(page, en('feedback.queued'));
      await page.getByText(en('feedback.queued'), { exact: true }).waitFor({ state: 'hidden' });
      await expectAccessible(page, 'feedback (offline, waiting)');

      await go(ROUTES.my);
      const outboxLink = page.getByRole('link', { name: new RegExp(en('outbox.title')) });
      await outboxLink.waitFor();
      await expect.poll(() => outboxLink.innerText()).toContain('3');
      await outboxLink.click();
      await expectPage(page, en('outbox.title'));
      const cancels = page.getByRole('button', { name: en('outbox.cancel_named').replace('{{kind}}', '') });
      await expect.poll(() => cancels.count()).toBe(3);
      await expectAccessible(page, 'outbox (offline)');

      // Back online: the outbox drains, the pull brings the results back.
      await context.setOffline(false);
      await page.getByText(en('outbox.empty'), { exact: true }).waitFor({ timeout: 30_000 });
      await go(ROUTES.profile);
      await expectPage(page, en('profile.title'));
      await page
        .getByRole('heading', { level: 2, name: 'Offline Name', exact: true })
        .waitFor({ timeout: 30_000 });
      await go(ROUTES.feedback);
      await expectPage(page, en('feedback.title'));
      await page
        .getByRole('heading', { level: 3, name: 'Written offline', exact: true })
        .waitFor({ timeout: 30_000 });
      await page.getByText(en('feedback.status_awaiting_reply'), { exact: true }).waitFor();
      await expectAccessible(page, 'feedback (synced)');
      // While offline the browser itself logs every refused request; nothing else may appear.
      const offlineNoise = 'net::ERR_INTERNET_DISCONNECTED';
      expect(tab.errors.filter((error) => !error.includes(offlineNoise))).toEqual([]);
    },
  );
});
