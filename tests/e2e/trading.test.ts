/**
 * The OTC market in Chromium: a seller lists a sell order through the Trading tab with
 * its totals and fee shown before confirming; a buyer, in another browser, sees it in the book,
 * takes part of it with the amount paid and received shown first, and a take of an order that
 * changed meanwhile is refused with its new state and nothing traded; the seller's order shows
 * its completion, and an open buy order is cancelled through its confirmation, releasing exactly
 * the rest. Balances from the API and the ledger check agree at the end. Also: the tab reads in
 * Chinese and passes axe on a phone. With COFFER_E2E_SCREENS=<folder>, screenshots are kept there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoOverflow,
  expectToast,
  hasChromium,
  zh,
  TRADE_PASSWORD,
  WAIT_MS,
  keepScreen,
  fill,
  goToPage,
  expectNoAppErrors,
  expectNoErrors,
  confirmWithTradePassword,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const infoSchema = z.object({ usdt: z.string(), rab: z.string() });
const orderSchema = z.object({ id: z.string(), status: z.string(), filled: z.string(), held: z.string() });

describe.skipIf(!hasChromium)('the OTC market in Chromium', () => {
  const { openTab, api, financeToken, customer, setRabPrice, expectLedgerOk } = e2eHarness();

  /** A customer with a trade password and 100 RAB and 20 USDT, logged in on `page` when one is given. */
  async function trader(finance: string, name: string, page: Page | null, t: (key: string) => string = en) {
    const { token, accountId } = await customer(name, page, {
      t,
      finance,
      funds: { RAB: '100', USDT: '20' },
      reason: 'e2e otc',
    });
    const money = async () => infoSchema.parse((await api('/api/v1/otc/info', { accountId }, token)).data);
    return { token, accountId, money };
  }

  /** Leaves the tab and opens it again: it pulls when it opens. */
  async function reopen(page: Page): Promise<void> {
    await goToPage(page, ROUTES.my, en('tabs.assets'));
    await goToPage(page, ROUTES.trading, en('tabs.trading'));
  }

  test(
    'list a sell order with its figures; another customer takes part of it; a take of a changed order is refused and trades nothing; a buy order is cancelled and releases its rest',
    { timeout: 300_000 },
    async () => {
      const finance = await financeToken();
      await setRabPrice(finance, '0.5');

      // The seller lists 10 RAB at 0.5 through the tab: value 5 USDT, maker fee 0.1 % = 0.005.
      const sellerTab = await openTab('en-US');
      const seller = await trader(finance, 'otc-seller', sellerTab.page);
      const page = sellerTab.page;
      await goToPage(page, ROUTES.trading, en('tabs.trading'));
      await page
        .getByText(fill(en('trading.band_value'), { minPrice: '0.45', maxPrice: '0.55' }), { exact: true })
        .waitFor({
          timeout: WAIT_MS,
        });
      await page.getByLabel(en('trading.list_sell'), { exact: true }).check();
      await page.getByLabel(en('trading.volume'), { exact: true }).fill('10');
      await page.getByLabel(en('trading.price'), { exact: true }).fill('0.5');
      const figures = page.getByRole('definition');
      await page.getByText('4.995 USDT', { exact: true }).waitFor({ timeout: WAIT_MS });
      expect(await figures.allInnerTexts()).toEqual(
        expect.arrayContaining(['5 USDT', '0.005 USDT', '10 RAB', '4.995 USDT']),
      );
      await expectAccessible(page, 'trading (listing)');
      await expectNoOverflow(page, 'trading (listing)');
      await keepScreen(page, 'trading-en-listing');
      await confirmWithTradePassword(page, en('trading.trade_password'), en('trading.submit_sell'));
      await expectToast(page, fill(en('trading.listed_sell'), { volume: '10', price: '0.5' }));
      expect(await seller.money()).toEqual({ usdt: '20', rab: '90' });

      // My orders: the sell order, open, nothing filled yet.
      await page.getByLabel(en('trading.mine_sell'), { exact: true }).check();
      const mine = page.getByRole('list', { name: en('trading.mine_sell') });
      await mine.getByText(fill(en('trading.mine_line_sell'), { volume: '10', price: '0.5' })).waitFor({
        timeout: 30_000,
      });
      await mine.getByText(en('trading.status_pending_match'), { exact: true }).waitFor();

      // The buyer, in another browser, sees it on the sell side of the book and takes 4 RAB:
      // pays 2 USDT plus the 0.2 % taker fee (0.004) and receives 4 RAB.
      const buyerTab = await openTab('en-US');
      const buyer = await trader(finance, 'otc-buyer', buyerTab.page);
      const other = buyerTab.page;
      await goToPage(other, ROUTES.trading, en('tabs.trading'));
      const book = other.getByRole('list', { name: en('trading.book_sell') });
      const takeButton = book.getByRole('button', { name: /^Buy RAB from order \d+ at 0\.5 USDT$/ });
      await takeButton.waitFor({ timeout: 30_000 });
      const orderId = /order (\d+)/.exec((await takeButton.getAttribute('aria-label')) ?? '')?.[1] ?? '';
      await takeButton.click();
      const take = other.getByRole('form', { name: fill(en('trading.take_buy_title'), { id: orderId }) });
      const volume = take.getByLabel(en('trading.volume'), { exact: true });
      expect(await volume.inputValue()).toBe('10');
      await volume.fill('4');
      await take.getByText('2.004 USDT', { exact: true }).waitFor({ timeout: WAIT_MS });
      await take.getByText('0.004 USDT', { exact: true }).waitFor();
      await take.getByText('4 RAB', { exact: true }).waitFor();
      await expectAccessible(other, 'trading (take)');
      await keepScreen(other, 'trading-en-take');
      await confirmWithTradePassword(take, en('trading.trade_password'), en('trading.confirm_buy'));
      await expectToast(other, fill(en('trading.took_buy'), { volume: '4' }));
      expect(await buyer.money()).toEqual({ usdt: '17.996', rab: '104' });
      // The seller received 2 USDT less the maker's 0.002 on it.
      expect(await seller.money()).toEqual({ usdt: '21.998', rab: '90' });

      // The book shows what is left; the buyer opens the take form for the rest, and meanwhile
      // a third customer takes all 6: the buyer's take names a state that is gone, so it is
      // refused with the order's new state and nothing moves.
      await book.getByText(fill(en('trading.remaining_line'), { remaining: '6', volume: '10' })).waitFor({
        timeout: 30_000,
      });
      await book.getByRole('button', { name: /^Buy RAB from order \d+ at 0\.5 USDT$/ }).click();
      const third = await trader(finance, 'otc-third', null);
      const taken = await api(
        '/api/v1/otc/take',
        { accountId: third.accountId, orderId, volume: '6', price: '0.5', tradePassword: TRADE_PASSWORD },
        third.token,
      );
      expect(taken.code, taken.message).toBe(200);
      await confirmWithTradePassword(take, en('trading.trade_password'), en('trading.confirm_buy'));
      // The form's notice says it and stays (a lasting state, not a toast).
      await other
        .getByText(/^This order has changed \(now completed\)\. Nothing was traded\./)
        .waitFor({ timeout: 30_000 });
      expect(await buyer.money()).toEqual({ usdt: '17.996', rab: '104' });
      await keepScreen(other, 'trading-en-changed');

      // The seller's order is completed: 10 of 10 filled (the tab pulls when it opens again).
      await reopen(page);
      await page.getByLabel(en('trading.mine_sell'), { exact: true }).check();
      await mine
        .getByText(fill(en('trading.filled_line'), { filled: '10', volume: '10', rate: '100%' }))
        .waitFor({ timeout: 30_000 });
      await mine.getByText(en('trading.status_completed'), { exact: true }).waitFor();

      // The seller lists a buy order of 4 RAB at 0.5 by the API (2 USDT + 0.002 held) and cancels
      // it through its confirmation: exactly the 2.002 come back.
      const listed = await api(
        '/api/v1/otc/buy',
        {
          accountId: seller.accountId,
          volume: '4',
          price: '0.5',
          splittable: true,
          tradePassword: TRADE_PASSWORD,
        },
        seller.token,
      );
      expect(listed.code, listed.message).toBe(200);
      const buyOrder = orderSchema.parse(listed.data);
      // 21.998 + the third's 3 USDT less the maker's 0.003 = 24.995, less the 2.002 held.
      expect(await seller.money()).toEqual({ usdt: '22.993', rab: '90' });
      await reopen(page);
      await page.getByRole('radio', { name: en('trading.mine_buy'), exact: true }).check();
      const buys = page.getByRole('list', { name: en('trading.mine_buy') });
      const cancel = buys.getByRole('button', {
        name: fill(en('trading.cancel_named'), { id: buyOrder.id }),
      });
      await cancel.waitFor({ timeout: 30_000 });
      await cancel.click();
      const dialog = page.getByRole('dialog', {
        name: fill(en('trading.cancel_title'), { id: buyOrder.id }),
      });
      await dialog.getByText('2.002 USDT', { exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'trading (cancel)');
      await dialog.getByRole('button', { name: en('trading.cancel_confirm'), exact: true }).click();
      await buys.getByText(en('trading.status_cancelled'), { exact: true }).waitFor({ timeout: 30_000 });
      expect(await seller.money()).toEqual({ usdt: '24.995', rab: '90' });
      await keepScreen(page, 'trading-en-cancelled');

      await expectLedgerOk(finance);
      for (const tab of [sellerTab, buyerTab]) expectNoAppErrors(tab);
    },
  );

  test(
    'in Chinese: the tab, its book and its forms read in Chinese and pass axe',
    { timeout: 180_000 },
    async () => {
      const finance = await financeToken();
      await setRabPrice(finance, '0.5');
      const maker = await trader(finance, 'otc-maker-zh', null);
      const listed = await api(
        '/api/v1/otc/sell',
        {
          accountId: maker.accountId,
          volume: '3',
          price: '0.5',
          splittable: false,
          tradePassword: TRADE_PASSWORD,
        },
        maker.token,
      );
      expect(listed.code, listed.message).toBe(200);
      const tab = await openTab('zh-CN');
      await trader(finance, 'otc-zh', tab.page, zh);
      const { page } = tab;
      await goToPage(page, ROUTES.trading, zh('tabs.trading'));
      await page.getByText(zh('trading.whole_only')).first().waitFor({ timeout: 30_000 });
      await page.getByLabel(zh('trading.volume'), { exact: true }).fill('2');
      await page.getByLabel(zh('trading.price'), { exact: true }).fill('0.5');
      await page.getByText(zh('trading.held_now'), { exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'trading (zh-Hans)');
      await expectNoOverflow(page, 'trading (zh-Hans)');
      await keepScreen(page, 'trading-zh');
      expectNoErrors(tab);
    },
  );
});
