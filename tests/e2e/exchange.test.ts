/**
 * The exchange in Chromium ("no surprise fills"): the page shows the operators' price
 * and its version, quotes the amount typed to the minor unit, exchanges at the version shown; when
 * the price changed meanwhile the server refuses, the page shows the new price and the exchange
 * goes only once the user confirms again; the records show both exchanges, and still do offline
 * (the loopback proxy cut), where the page says an exchange needs a connection; the page passes
 * axe in English and Chinese on a phone. With COFFER_E2E_SCREENS=<folder>, screenshots are kept there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectToast,
  hasChromium,
  zh,
  WAIT_MS,
  keepScreen,
  goToPage,
  expectNoAppErrors,
  confirmWithTradePassword,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const exchangesSchema = z.object({
  items: z.array(z.object({ amountIn: z.string(), amountOut: z.string(), price: z.string() })),
});

describe.skipIf(!hasChromium)('the exchange in Chromium', () => {
  const { running, openTab, goOffline, api, financeToken, customer, setRabPrice } = e2eHarness({
    proxy: true,
  });

  /** A user logged in on `page`, with a trade password and 100 RAB and 20 USDT on the main account. */
  const trader = (page: Page, t: (key: string) => string, finance: string, name: string) =>
    customer(name, page, { t, finance, funds: { RAB: '100', USDT: '20' }, reason: 'e2e exchange' });

  test(
    'an exchange at the price shown; a price changed meanwhile is refused with the new price and goes once confirmed again; records show both',
    { timeout: 240_000 },
    async () => {
      const finance = await financeToken();
      await setRabPrice(finance, '0.5');
      const tab = await openTab('en-US');
      const { page } = tab;
      const { token, accountId } = await trader(page, en, finance, 'exchange');

      await goToPage(page, ROUTES.exchange, en('exchange.title'));
      await page.getByText('0.5 USDT per RAB', { exact: true }).waitFor({ timeout: WAIT_MS });

      const amount = page.getByLabel(en('exchange.amount').replace('{{asset}}', 'RAB'), { exact: true });
      await amount.fill('10');
      // 10 RAB at 0.5: 5 USDT, the fee 0.2 % = 0.01, received 4.99.
      await page.getByText('4.99 USDT', { exact: true }).waitFor({ timeout: WAIT_MS });
      await page.getByText('0.01 USDT', { exact: true }).waitFor();
      await expectAccessible(page, 'exchange (quote)');
      await keepScreen(page, 'exchange-en-quote');

      await confirmWithTradePassword(page, en('exchange.trade_password'), en('exchange.submit'));
      await expectToast(page, 'Exchanged 10 RAB.');
      await page.getByText('10 RAB → 4.99 USDT', { exact: true }).waitFor({ timeout: 30_000 });

      // The operators change the price while the page still shows 0.5: the submit names the old
      // version, the server refuses it, nothing moves, and the page shows the new price.
      await setRabPrice(finance, '0.6');
      await amount.fill('10');
      await confirmWithTradePassword(page, en('exchange.trade_password'), en('exchange.submit'));
      const changed = en('exchange.price_changed').replace('{{price}}', '0.6');
      await page.getByText(changed, { exact: true }).waitFor({ timeout: 30_000 });
      const listed = async () =>
        exchangesSchema.parse((await api('/api/v1/exchange/list', { accountId }, token)).data).items;
      expect(await listed()).toHaveLength(1);
      await page.getByText('5.988 USDT', { exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'exchange (price changed)');
      await keepScreen(page, 'exchange-en-price-changed');

      await page.getByRole('button', { name: en('exchange.confirm_again'), exact: true }).click();
      await expectToast(page, 'Exchanged 10 RAB.');
      await page.getByText('10 RAB → 5.988 USDT', { exact: true }).waitFor({ timeout: 30_000 });
      expect((await listed()).map((row) => [row.amountIn, row.amountOut, row.price])).toEqual([
        ['10', '5.988', '0.6'],
        ['10', '4.99', '0.5'],
      ]);
      await keepScreen(page, 'exchange-en-done');

      // Offline: the records (and the last pulled price) still show, with their age; no exchange can be sent.
      await goOffline(page);
      await goToPage(page, ROUTES.my, en('tabs.assets'));
      await goToPage(page, ROUTES.exchange, en('exchange.title'));
      await page.getByText(en('exchange.offline'), { exact: true }).first().waitFor({ timeout: 30_000 });
      await page.getByText('10 RAB → 5.988 USDT', { exact: true }).waitFor();
      await page.getByText('10 RAB → 4.99 USDT', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: en('exchange.submit'), exact: true }).isDisabled()).toBe(
        true,
      );
      await keepScreen(page, 'exchange-en-offline');
      running().proxy?.up();
      // A failed request while the link was cut is the browser's console error, not the app's.
      expectNoAppErrors(tab);
    },
  );

  test(
    'in Chinese: the page, its quote and its labels read in Chinese and pass axe',
    { timeout: 180_000 },
    async () => {
      const finance = await financeToken();
      await setRabPrice(finance, '0.333333');
      const tab = await openTab('zh-CN');
      const { page } = tab;
      await trader(page, zh, finance, 'exchange-zh');
      await goToPage(page, ROUTES.exchange, zh('exchange.title'));
      await page.getByLabel(zh('exchange.usdt_to_rab')).check();
      await page.getByLabel(zh('exchange.amount').replace('{{asset}}', 'USDT'), { exact: true }).fill('10');
      await page.getByText(zh('exchange.quote_receive'), { exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'exchange (zh-Hans)');
      await keepScreen(page, 'exchange-zh-quote');
      expectNoErrors(tab);
    },
  );
});
