/**
 * Hosting in Chromium, end to end: a finance operator adjusts 2000 USDT into a new
 * user's account; on the Hosting tab the user picks the 7-day product, sees the earnings preview
 * computed as the job will pay it, and creates an order of 1000 with the trade password; then
 * increases it by 500 and decreases it by 300, each confirmed with its exact figures (the
 * decrease's 1 % penalty: 3 taken, 297 back), and sees a redeem's penalty before cancelling it;
 * offline, the products and orders still show with their age and an increase of 100 waits in the
 * outbox until the link returns; then the days pass and the interest arrives as static income,
 * equal to the closed form (2 days × floor(1300 × 0.003) = 7.8).
 *
 * How the days pass: the harness cannot restart Coffer with a later COFFER_NOW (each start is a
 * fresh PGlite database), so the server's clock starts at COFFER_NOW and the test runs the
 * accrual job's own work, the hosting accrual service's `run` (the catch-up of every whole local
 * day not yet accrued), in one transaction at that clock's time plus three days, as the daily
 * `hosting-accrual` job would do on the first run after those midnights. COFFER_NOW is the next
 * 10:00 in Asia/Shanghai, so the server runs less than a day ahead of the browser (whose clock
 * the progress bar reads) and the client is built for the plain transport (the envelope's
 * timestamps, from the browser's clock, would be stale to the server).
 *
 * With COFFER_E2E_SCREENS=<folder>, screenshots are kept there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectToast,
  expectNoAppErrors,
  expectNoErrors,
  hasChromium,
  goToPage,
  zh,
  TRADE_PASSWORD,
  WAIT_MS,
  keepScreen,
  fill,
  confirmWithTradePassword,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Reconnects are noticed by the outbox's own backoff (2, 4, 8, 16, 30 s): allow a full step and a send. */
const RECONNECT_MS = 60_000;

/** The next 10:00 in Asia/Shanghai (02:00 UTC) at least an hour from now. */
function nextShanghaiMorning(): string {
  const at = new Date();
  at.setUTCHours(2, 0, 0, 0);
  if (at.getTime() < Date.now() + 60 * 60 * 1000) at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString();
}
const COFFER_NOW = nextShanghaiMorning();

const incomeSchema = z.object({
  items: z.array(
    z.object({ type: z.string(), amount: z.string(), status: z.string(), earningsDate: z.string() }),
  ),
});

describe.skipIf(!hasChromium)('hosting in Chromium', () => {
  const { running, goOffline, api, customerTab, expectLedgerOk } = e2eHarness({
    proxy: true,
    env: () => ({ COFFER_NOW, COFFER_TIMEZONE: 'Asia/Shanghai' }),
    build: { VITE_TRANSPORT: 'plain' },
  });

  /** A user logged in on a new tab in `locale` with a trade password and `usdt` adjusted into the main account. */
  const hostingCustomer = (locale: string, t: (key: string) => string, name: string, usdt: string) =>
    customerTab(locale, name, { t, funds: { USDT: usdt }, reason: 'e2e hosting' });

  /** The dialog titled `title`, its figures read, then confirmed (or cancelled). */
  async function confirmDialog(page: Page, title: string, expected: string[], action: 'confirm' | 'cancel') {
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor({ state: 'visible' });
    for (const text of expected) await dialog.getByText(text, { exact: true }).first().waitFor();
    await dialog
      .getByRole('button', {
        name: en(action === 'confirm' ? 'hosting.confirm' : 'hosting.cancel'),
        exact: true,
      })
      .click();
    await dialog.waitFor({ state: 'detached' });
  }

  test(
    'an order from money an operator adjusted in, increased, decreased with its penalty, increased offline; days pass and the interest arrives',
    { timeout: 300_000 },
    async () => {
      const { finance, tab, page, token, accountId } = await hostingCustomer('en-US', en, 'hosting', '2000');

      await goToPage(page, ROUTES.hosting, en('tabs.hosting'));
      await page.getByText(fill(en('hosting.cash_balance'), { amount: '2000' }), { exact: true }).waitFor();

      // The products, the 7-day one chosen, and what 1000 earns: 3 a day, 21 over 7 days, 1021 back.
      await page.getByRole('radio', { name: /^7-day hosting/ }).check();
      await page.getByLabel(en('hosting.amount'), { exact: true }).fill('1000');
      const preview = page.getByRole('region', { name: en('hosting.preview_title') });
      await preview.getByText('3 USDT', { exact: true }).waitFor();
      await preview.getByText('21 USDT', { exact: true }).waitFor();
      await preview.getByText('1021 USDT', { exact: true }).waitFor();
      await expectAccessible(page, 'hosting (preview)');
      await keepScreen(page, 'hosting-en-preview');

      await confirmWithTradePassword(page, en('field.tradePassword'), en('hosting.create'));
      await expectToast(page, fill(en('hosting.created'), { amount: '1000' }));
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: /^7-day hosting #/ }) });
      await card.getByText('1000 USDT', { exact: true }).waitFor({ timeout: 30_000 });

      // An increase of 500, confirmed with the principal after and one day's interest.
      await card.getByRole('button', { name: /^Increase 7-day hosting #/ }).click();
      await card.getByLabel(en('hosting.add_amount'), { exact: true }).fill('500');
      await card.getByRole('button', { name: en('hosting.review'), exact: true }).click();
      await expectAccessible(page, 'hosting (confirm increase)');
      await keepScreen(page, 'hosting-en-confirm-add');
      await confirmDialog(page, en('hosting.confirm_add'), ['1500 USDT', '3 → 4.5 USDT'], 'confirm');
      await expectToast(page, fill(en('hosting.added'), { amount: '500' }));
      await card.getByText('1500 USDT', { exact: true }).waitFor({ timeout: 30_000 });

      // A decrease of 300 before maturity: the 1 % penalty is 3, 297 comes back, 1200 remain.
      await card.getByRole('button', { name: /^Decrease 7-day hosting #/ }).click();
      await card.getByLabel(en('hosting.sub_amount'), { exact: true }).fill('300');
      await card.getByRole('button', { name: en('hosting.review'), exact: true }).click();
      await confirmDialog(
        page,
        en('hosting.confirm_sub'),
        [fill(en('hosting.figure_penalty'), { rate: '1%' }), '3 USDT', '297 USDT', '1200 USDT'],
        'confirm',
      );
      await expectToast(page, fill(en('hosting.subtracted'), { amount: '300' }));
      await card.getByText('1200 USDT', { exact: true }).waitFor({ timeout: 30_000 });

      // A redeem states its penalty (12 of 1200, 1188 back); the user cancels it.
      await card.getByRole('button', { name: /^Redeem 7-day hosting #/ }).click();
      await confirmDialog(page, en('hosting.confirm_redeem'), ['12 USDT', '1188 USDT'], 'cancel');

      // The change records: created, increased, decreased (with its penalty), newest first.
      await card.getByText(fill(en('hosting.changes_title_other'), { count: 3 }), { exact: true }).click();
      const changes = card.getByRole('list', { name: /^Changes of 7-day hosting #/ });
      expect(await changes.getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringContaining(en('hosting.change_sub')),
        expect.stringContaining(en('hosting.change_add')),
        expect.stringContaining(en('hosting.change_create')),
      ]);
      await changes.getByText('-300', { exact: false }).waitFor();

      // Offline: the products and the order still show; an increase waits in the outbox.
      await goOffline(page);
      await goToPage(page, ROUTES.my, en('tabs.assets'));
      await goToPage(page, ROUTES.hosting, en('tabs.hosting'));
      await page.getByText(en('hosting.products_saved'), { exact: true }).waitFor({ timeout: 30_000 });
      await page.getByRole('radio', { name: /^7-day hosting/ }).waitFor();
      await card.getByText('1200 USDT', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: en('hosting.create'), exact: true }).isDisabled()).toBe(
        true,
      );
      await card.getByRole('button', { name: /^Increase 7-day hosting #/ }).click();
      await card.getByLabel(en('hosting.add_amount'), { exact: true }).fill('100');
      await card.getByRole('button', { name: en('hosting.review'), exact: true }).click();
      await confirmDialog(
        page,
        en('hosting.confirm_add'),
        ['1300 USDT', en('hosting.confirm_note_offline')],
        'confirm',
      );
      const waiting = `${fill(en('hosting.pending_add'), { amount: '100' })}: ${en('hosting.pending_offline')}`;
      await card.getByText(waiting, { exact: true }).waitFor();
      await keepScreen(page, 'hosting-en-offline');

      running().proxy?.up();
      await card.getByText('1300 USDT', { exact: true }).waitFor({ timeout: RECONNECT_MS + 30_000 });

      // Three days on: the job's catch-up accrues the two whole interest days since the creation day.
      const { server } = running();
      const later = new Date(server.clock.now().getTime() + 3 * DAY_MS);
      const report = await server.database.db.transaction((tx) =>
        server.services.hostingAccrual.run(tx, later),
      );
      expect(report).toMatchObject({ orders: 1, days: 2, paid: '7.8', matured: 0 });

      // The tab opened again pulls: interest accrued and paid, two static income lines.
      await goToPage(page, ROUTES.my, en('tabs.assets'));
      await goToPage(page, ROUTES.hosting, en('tabs.hosting'));
      const figures = card.getByRole('definition');
      await expect
        .poll(async () => (await figures.allInnerTexts()).filter((text) => text === '7.8 USDT').length, {
          timeout: 30_000,
        })
        .toBe(2);
      const income = page.getByRole('list', { name: en('hosting.income_title') });
      await expect
        .poll(() => income.getByText('+3.9', { exact: false }).count(), { timeout: 30_000 })
        .toBe(2);
      expect(await income.getByText(en('records.kind_static'), { exact: true }).count()).toBe(2);
      await page.getByText(fill(en('hosting.valid_yes'), { threshold: '500' }), { exact: true }).waitFor();

      // The filter by type: airdrops, none; static, both.
      const filter = page.getByLabel(en('hosting.income_filter.label'), { exact: true });
      await filter.selectOption('airdrop');
      await page.getByText(en('hosting.income_filter.empty'), { exact: true }).waitFor();
      await filter.selectOption('static');
      await expect.poll(() => income.getByRole('listitem').count()).toBe(2);
      await expectAccessible(page, 'hosting (interest arrived)');
      await keepScreen(page, 'hosting-en-interest');

      // The server agrees: the income equals the closed form, and the ledger holds.
      const lines = incomeSchema.parse((await api('/api/v1/income/log', { accountId }, token)).data).items;
      expect(lines.map((line) => [line.type, line.amount, line.status])).toEqual([
        ['static', '3.9', 'arrived'],
        ['static', '3.9', 'arrived'],
      ]);
      await expectLedgerOk(finance);
      expectNoAppErrors(tab);
    },
  );

  test(
    'in Chinese: the tab, its products, preview and orders read in Chinese and pass axe',
    { timeout: 180_000 },
    async () => {
      const { tab, page, token, accountId } = await hostingCustomer('zh-CN', zh, 'hosting-zh', '1000');
      const created = await api(
        '/api/v1/hosting/create',
        { accountId, productId: '2', amount: '600', tradePassword: TRADE_PASSWORD },
        token,
      );
      expect(created.code, created.message).toBe(200);
      await goToPage(page, ROUTES.hosting, zh('tabs.hosting'));
      await page.getByLabel(zh('hosting.amount'), { exact: true }).fill('100.01');
      const preview = page.getByRole('region', { name: zh('hosting.preview_title') });
      await preview.getByText(zh('hosting.preview_daily'), { exact: true }).waitFor({ timeout: WAIT_MS });
      // The first product (7 days at 0.3 %) is chosen: 100.01 × 0.3 % = 0.30003 a day, exactly.
      await preview.getByText('0.30003 USDT', { exact: true }).waitFor();
      await page.getByText(fill(zh('hosting.valid_yes'), { threshold: '500' }), { exact: true }).waitFor({
        timeout: 30_000,
      });
      await page.getByText(zh('hosting.status_in_progress'), { exact: true }).waitFor();
      await expectAccessible(page, 'hosting (zh-Hans)');
      await keepScreen(page, 'hosting-zh');
      expectNoErrors(tab);
    },
  );
});
