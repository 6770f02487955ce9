/**
 * Customer service chat end to end in Chromium (issue 25, docs/protocol.md §35), behind the
 * loopback proxy so offline is real: a customer opens support from the round button, writes in the
 * room (HTML as text); a support agent answers in the console's desk and the customer sees the
 * reply live, with the ticks turning to "read by support"; a second reply shows as unread on the
 * round button; offline, the room reloads from IndexedDB with the whole conversation and a message
 * written then waits in the outbox and is sent once when the link returns, reaching the desk live.
 * The support entry and the room are axe clean at phone size in English and Chinese, the desk at
 * 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { cliContext } from '../../server/cli/cli-context.js';
import { httpAdminClient, setUpOperator, type AdminClient } from '../helpers/operator.js';
import { PIXEL_PNG } from '../helpers/uploads.js';
import { consoleText, openConsoleScreen, signInToConsole } from './console-harness.js';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectPage,
  hasChromium,
  keepScreen,
  navigateInApp,
  goToPage,
  PHONE,
  SLOW,
  zh,
  serviceWorkerReady,
  DESKTOP,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

/** Long enough for the socket's backoff (30 s at most) or the minute's pull to find the link again. */
const RECONNECT_MS = 90_000;
const HOSTILE = 'Where is my deposit? <b>bold</b><img src=x onerror="window.__pwned=1">';
const meSchema = z.object({ operatorId: z.string() });

/** The texts of the room's messages, in order. */
function roomTexts(page: Page): Promise<string[]> {
  return page.getByTestId('chat-message').locator('.chat-msg__text').allInnerTexts();
}

/** The state ticks of the customer's message `text` (pending, sent, read, failed). */
async function stateOf(page: Page, text: string): Promise<string | null> {
  const item = page.getByTestId('chat-message').filter({ hasText: text });
  if ((await item.count()) === 0) return null;
  return item.last().getByTestId('chat-state').getAttribute('data-state');
}

describe.skipIf(!hasChromium)('customer service chat in Chromium', () => {
  const { running, openTab, signedIn } = e2eHarness({ proxy: true });

  /** A support operator set up as the console does; its display name set (what customers see). */
  async function supportOperator(name: string) {
    const { direct, server } = running();
    const client: AdminClient = {
      ...httpAdminClient(direct, () => server.clock.now()),
      createOperator: async (email, role, password) => {
        await server.services.operators.create(cliContext(), { email, role, password });
      },
    };
    const operator = await setUpOperator(client, `support.${Date.now()}@example.com`, 'support');
    const me = meSchema.parse((await operator.call('/api/admin/auth/me')).data);
    const named = await operator.call('/api/admin/operator/display-name', {
      operatorId: me.operatorId,
      displayName: name,
    });
    expect(named.code, named.message).toBe(200);
    return operator;
  }

  test(
    'a customer writes from the round button, an agent answers in the console, the customer sees it live and after an offline reload; a message written offline is sent once',
    { timeout: 420_000 },
    async () => {
      // The phone goes through the proxy (its link is cut below); the agent's desk is another
      // device, on Coffer directly.
      const { direct, proxy } = running();
      if (!proxy) throw new Error('this file runs behind the proxy');
      const phone = await openTab('en-US', PHONE);
      const { page } = phone;
      const customer = await signedIn('chat', page);
      await serviceWorkerReady(page);

      // The round button opens the support entry; the conversation is one tap further.
      await page.getByRole('button', { name: en('common.customer_service'), exact: true }).click();
      await expectPage(page, en('chat.kefu_title'));
      await page.getByTestId('chat-hours').waitFor();
      await expectAccessible(page, 'kefu en');
      await keepScreen(page, 'chat-kefu-en');
      await page.getByRole('button', { name: en('chat.open_conversation') }).click();
      await expectPage(page, en('chat.room_title'));
      await page.getByText(en('chat.empty'), { exact: true }).waitFor();

      // HTML is text: typed, sent with Enter, shown as typed.
      const box = page.getByLabel(en('chat.message_label'), { exact: true });
      await box.fill(HOSTILE);
      await box.press('Enter');
      await expect.poll(() => roomTexts(page)).toEqual([HOSTILE]);
      await expect.poll(() => stateOf(page, 'Where is my deposit?'), { timeout: 30_000 }).toBe('sent');
      expect(await page.evaluate(() => Reflect.get(window, '__pwned'))).toBeUndefined();
      // An image from the gallery: uploaded by the worker first, then sent; shown from the server.
      await page
        .getByLabel(en('chat.choose_image'), { exact: true })
        .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PIXEL_PNG });
      const mine = page.getByRole('img', { name: en('chat.image_alt_mine'), exact: true });
      await mine.waitFor();
      await expect
        .poll(() => page.getByTestId('chat-state').last().getAttribute('data-state'), { timeout: 30_000 })
        .toBe('sent');
      await expectAccessible(page, 'room en');

      // The agent: the desk lists the conversation, shows the text as text, and answers.
      const agent = await supportOperator('Mia');
      const desk = await openTab('en-US', DESKTOP);
      await signInToConsole(desk.page, direct, agent);
      await openConsoleScreen(desk.page, 'nav.chat', 'chat.title');
      await desk.page.getByText(consoleText('chat.live'), { exact: true }).waitFor();
      await desk.page
        .getByRole('button', { name: new RegExp(customer.email.replace(/[.+]/g, '\\$&')) })
        .click();
      await desk.page.getByTestId('desk-message').filter({ hasText: HOSTILE }).waitFor();
      await desk.page
        .getByRole('img', { name: consoleText('chat.image_from', { name: customer.email }), exact: true })
        .waitFor();
      expect(await desk.page.evaluate(() => Reflect.get(window, '__pwned'))).toBeUndefined();
      await expectAccessible(desk.page, 'desk 1280');
      await keepScreen(desk.page, 'chat-desk-1280');
      const reply = desk.page.getByLabel(consoleText('chat.reply_label'), { exact: true });
      await reply.fill('We are looking at it now.');
      await reply.press('Enter');
      await desk.page.getByTestId('desk-message').filter({ hasText: 'We are looking at it now.' }).waitFor();
      // An internal note: shown apart on the desk, never to the customer.
      await desk.page.getByRole('checkbox', { name: consoleText('chat.internal') }).check();
      const note = desk.page.getByLabel(consoleText('chat.note_label'), { exact: true });
      await note.fill('Checked the chain: 2 confirmations so far.');
      await note.press('Enter');
      await desk.page
        .locator('.console-chat-message--note')
        .filter({ hasText: 'Checked the chain' })
        .waitFor();
      await desk.page.getByRole('checkbox', { name: consoleText('chat.internal') }).uncheck();
      // An image reply: uploaded with the operator's token, then sent.
      await desk.page
        .getByLabel(consoleText('chat.attach_image'), { exact: true })
        .setInputFiles({ name: 'steps.png', mimeType: 'image/png', buffer: PIXEL_PNG });
      await desk.page
        .getByRole('img', { name: consoleText('chat.image_from', { name: 'Mia' }), exact: true })
        .waitFor();

      // The customer sees the reply live (the room is open: no reload), with the agent's name,
      // and their own message is read by support (the desk read it when it opened).
      await page.bringToFront();
      await expect
        .poll(() => roomTexts(page), { timeout: 30_000 })
        .toEqual([HOSTILE, 'We are looking at it now.']);
      await page.getByTestId('chat-message').filter({ hasText: 'We are looking' }).getByText('Mia').waitFor();
      await page
        .getByRole('img', { name: en('chat.image_alt_theirs').replace('{{name}}', 'Mia'), exact: true })
        .waitFor();
      await expect.poll(() => stateOf(page, 'Where is my deposit?'), { timeout: 30_000 }).toBe('read');
      await keepScreen(page, 'chat-room-en');

      // Away from the room, a second reply shows as unread on the round button.
      await goToPage(page, ROUTES.kefu, en('chat.kefu_title'));
      await desk.page.bringToFront();
      await reply.fill('Your deposit is credited.');
      await reply.press('Enter');
      await page.bringToFront();
      const unread = en('common.customer_service_unread').replace('{{count}}', '1');
      await page.getByRole('button', { name: unread, exact: true }).waitFor({ timeout: 30_000 });
      await page.getByTestId('chat-entry-unread').waitFor();

      // The same pages in Chinese (switched on Settings, as a user does), axe clean.
      await navigateInApp(page, ROUTES.settings);
      await page.locator('select.language-select__input').selectOption('zh-Hans');
      await expectPage(page, zh('settings.title'));
      await page.getByRole('button', { name: zh('settings.community_service'), exact: true }).click();
      await expectPage(page, zh('chat.kefu_title'));
      await page.getByTestId('chat-hours').waitFor();
      await expectAccessible(page, 'kefu zh-Hans');
      await keepScreen(page, 'chat-kefu-zh');
      await goToPage(page, ROUTES.chatRoom, zh('chat.room_title'));
      await expect.poll(() => roomTexts(page)).toContain('Your deposit is credited.');
      await expectAccessible(page, 'room zh-Hans');
      await keepScreen(page, 'chat-room-zh');
      // Read in the room: the count goes.
      await page.getByRole('button', { name: zh('common.customer_service'), exact: true }).waitFor();
      await navigateInApp(page, ROUTES.settings);
      await page.locator('select.language-select__input').selectOption('en');
      await expectPage(page, en('settings.title'));

      // Offline: the app reloads from the service worker, the room from IndexedDB, whole.
      proxy.down();
      await page.reload();
      await expectPage(page, en('tabs.home'));
      await goToPage(page, ROUTES.chatRoom, en('chat.room_title'));
      await expect
        .poll(() => roomTexts(page))
        .toEqual([HOSTILE, 'We are looking at it now.', 'Your deposit is credited.']);
      expect(await page.getByText('Checked the chain').count()).toBe(0);
      // The image too, from the copy the worker kept.
      await page.getByRole('img', { name: en('chat.image_alt_mine'), exact: true }).waitFor();
      // A message written offline waits in the outbox.
      await box.fill('Thank you, written offline.');
      await box.press('Enter');
      await expect.poll(() => stateOf(page, 'written offline')).toBe('pending');
      await page.getByText(en('chat.offline_note'), { exact: true }).waitFor();
      await expectAccessible(page, 'room offline');

      // The link returns: it is sent once, shows as sent, and reaches the desk live.
      proxy.up();
      await expect
        .poll(() => stateOf(page, 'written offline'), { timeout: RECONNECT_MS })
        .toMatch(/^(sent|read)$/);
      await desk.page.bringToFront();
      await desk.page
        .getByTestId('desk-message')
        .filter({ hasText: 'Thank you, written offline.' })
        .waitFor({ timeout: RECONNECT_MS });
      expect(
        await desk.page
          .getByTestId('desk-message')
          .filter({ hasText: 'Thank you, written offline.' })
          .count(),
      ).toBe(1);
      await page.bringToFront();
      await expect
        .poll(() => roomTexts(page), { timeout: RECONNECT_MS })
        .toEqual([
          HOSTILE,
          'We are looking at it now.',
          'Your deposit is credited.',
          'Thank you, written offline.',
        ]);
      expectNoErrors(phone);
      expectNoErrors(desk);
    },
  );

  test(
    'the desk is keyboard-usable and axe clean at 390 px; settings for hours and community links reach the support entry',
    SLOW,
    async () => {
      const { base } = running();
      const agent = await supportOperator('Noor');
      const desk = await openTab('en-US', PHONE);
      await signInToConsole(desk.page, base, agent);
      await openConsoleScreen(desk.page, 'nav.chat', 'chat.title');
      await expectAccessible(desk.page, 'desk 390');
      await desk.page.getByRole('button', { name: consoleText('chat.settings'), exact: true }).click();
      const drawer = desk.page.getByRole('dialog');
      await drawer.getByLabel(consoleText('chat.opens'), { exact: true }).fill('08:00');
      await drawer.getByLabel(consoleText('chat.closes'), { exact: true }).fill('20:00');
      await drawer.getByRole('button', { name: consoleText('chat.community_add'), exact: true }).click();
      await drawer
        .getByLabel(consoleText('chat.community_name', { index: 1 }), { exact: true })
        .fill('International');
      await drawer
        .getByLabel(consoleText('chat.community_url', { index: 1 }), { exact: true })
        .fill('https://t.me/coffer_international');
      await drawer.getByRole('button', { name: consoleText('chat.save_settings'), exact: true }).click();
      await drawer.getByText(consoleText('chat.saved')).waitFor();
      await expectAccessible(desk.page, 'desk settings 390');

      const phone = await openTab('en-US', PHONE);
      await signedIn('entry', phone.page);
      await goToPage(phone.page, ROUTES.kefu, en('chat.kefu_title'));
      await phone.page.getByTestId('chat-hours').filter({ hasText: '08:00–20:00' }).waitFor();
      const link = phone.page.getByRole('link', { name: /International/ });
      expect(await link.getAttribute('href')).toBe('https://t.me/coffer_international');
      expectNoErrors(desk);
      expectNoErrors(phone);
    },
  );
});
