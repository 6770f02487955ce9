/**
 * AI dividends and delivery records in Chromium: both pages open from the Hosting tab;
 * the dividends page shows what the account can claim and has claimed, the rules and its records,
 * and a claim goes through the outbox and comes back as claimed, with the cash paid once; the
 * delivery page lists the platform's published trades and says they are not the customer's own
 * positions. Both pass axe, with one h1 and nothing wider than a 390 px phone, in English and in
 * Chinese. With COFFER_E2E_SCREENS=<folder>, screenshots are kept there.
 */
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { parseMoney } from '../../contract/money.js';
import { dayLabel } from '../../src/features/dividend/dividends-view.js';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectPage,
  expectToast,
  hasChromium,
  goToPage,
  zh,
  WAIT_MS,
  keepScreen,
  fill,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const assetsSchema = z.object({ cash: z.string() });

describe.skipIf(!hasChromium)('AI dividends and delivery records in Chromium', () => {
  const { openTab, api, operatorToken, customer, moveToHosting } = e2eHarness();

  /**
   * A user logged in on `page` whose main account held `hosting` USDT in hosting since two days
   * ago (funded by an adjustment, then moved from cash to hosting at that time).
   */
  async function hoster(page: Page, t: (key: string) => string, finance: string, hosting: string) {
    const { token, accountId } = await customer('hoster', page, {
      t,
      finance,
      funds: { USDT: hosting },
      reason: 'e2e dividends',
      tradePassword: false,
    });
    await moveToHosting(accountId, hosting, new Date(Date.now() - 2 * 24 * 3600 * 1000));
    return { token, accountId };
  }

  /** The local date `back` days ago in the business time zone: a day that has ended. */
  const pastDay = (back: number) =>
    DateTime.now().setZone('Asia/Shanghai').minus({ days: back }).toISODate() ?? '';

  async function publishTrades(content: string): Promise<void> {
    const header =
      'orderNo,symbol,direction,lots,leverage,openPrice,closePrice,openTime,closeTime,margin,spread,profitLoss';
    const csv = [
      header,
      'E2E-1001,XAUUSD,buy,0.50,100,2031.45,2040.10,2026-01-02T01:00:00Z,2026-01-02T03:30:00Z,1015.725,0.25,432.5',
      'E2E-1002,BTC/USDT,sell,0.01,20,64210.5,64800,2026-01-03T08:00:00Z,2026-01-03T09:15:00Z,32.10525,1.5,-5.895',
    ].join('\n');
    const imported = await api('/api/admin/hosting/delivery/import', { csv }, content);
    expect(imported.code, imported.message).toBe(200);
  }

  test(
    'from the Hosting tab: AI dividends claimable, one claimed through the outbox (paid once), and the delivery records, in English',
    { timeout: 240_000 },
    async () => {
      const finance = await operatorToken('finance');
      const content = await operatorToken('content');
      const tab = await openTab('en-US');
      const { page } = tab;
      const { token, accountId } = await hoster(page, en, finance, '1500');
      // Yesterday's dividend: this account held the only valid hosting at its end.
      const day = pastDay(1);
      const published = await api('/api/admin/dividend/publish', { day, total: '30' }, finance);
      expect(published.code, published.message).toBe(200);
      await publishTrades(content);

      await goToPage(page, ROUTES.hosting, en('tabs.hosting'));
      await page.getByRole('button', { name: en('dividends.title'), exact: true }).click();
      await expectPage(page, en('dividends.title'));
      // The only valid hosting of the day: the whole 30 USDT is this account's share.
      const claimButton = page.getByRole('button', {
        name: fill(en('dividends.claim_named'), { amount: '30', day: dayLabel(day, 'en') }),
        exact: true,
      });
      await claimButton.waitFor({ timeout: 30_000 });
      await page.getByText(fill(en('dividends.claimed_total'), { amount: '0' }), { exact: true }).waitFor();
      await page
        .getByText(fill(en('dividends.rule_expiry'), { days: '30' }), { exact: true })
        .waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'dividends (to be claimed)');
      await keepScreen(page, 'dividends-en-claimable');

      const cashBefore = parseMoney(
        assetsSchema.parse((await api('/api/v1/user/assets', { accountId }, token)).data).cash,
      );
      await claimButton.click();
      await expectToast(page, fill(en('dividends.claimed_toast'), { amount: '30' }));
      // The record now says claimed, and its claim button is gone.
      await page
        .getByRole('listitem')
        .filter({ hasText: en('dividends.status_claimed') })
        .waitFor({ timeout: 30_000 });
      await claimButton.waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByText(fill(en('dividends.claimed_total'), { amount: '30' }), { exact: true }).waitFor();
      const cashAfter = parseMoney(
        assetsSchema.parse((await api('/api/v1/user/assets', { accountId }, token)).data).cash,
      );
      expect(cashAfter - cashBefore).toBe(30_000_000n);
      await expectAccessible(page, 'dividends (claimed)');
      await keepScreen(page, 'dividends-en-claimed');

      await goToPage(page, ROUTES.hosting, en('tabs.hosting'));
      await page.getByRole('button', { name: en('delivery.title'), exact: true }).click();
      await expectPage(page, en('delivery.title'));
      await page.getByText(en('delivery.what_text'), { exact: true }).waitFor();
      await page.getByText('-5.895', { exact: false }).waitFor({ timeout: 30_000 });
      await page.getByText('+432.5', { exact: false }).waitFor();
      await page.getByText('1:100', { exact: true }).waitFor();
      await expectAccessible(page, 'delivery records');
      await keepScreen(page, 'delivery-en');
      expect(tab.errors, tab.errors.join('\n')).toEqual([]);
    },
  );

  test('in Chinese: both pages read in Chinese and pass axe on a phone', { timeout: 180_000 }, async () => {
    const finance = await operatorToken('finance');
    const tab = await openTab('zh-CN');
    const { page } = tab;
    await hoster(page, zh, finance, '800');
    // The day before yesterday, at a rate: 0.001 of 800 USDT.
    const day = pastDay(2);
    const published = await api('/api/admin/dividend/publish', { day, rate: '0.001' }, finance);
    expect(published.code, published.message).toBe(200);

    await goToPage(page, ROUTES.dividends, zh('dividends.title'));
    await page
      .getByRole('button', {
        name: fill(zh('dividends.claim_named'), { amount: '0.8', day: dayLabel(day, 'zh-Hans') }),
        exact: true,
      })
      .waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'dividends (zh-Hans)');
    await keepScreen(page, 'dividends-zh');

    await goToPage(page, ROUTES.delivery, zh('delivery.title'));
    await page.getByText(zh('delivery.what_text'), { exact: true }).waitFor();
    await page.getByText('+432.5', { exact: false }).waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'delivery (zh-Hans)');
    await keepScreen(page, 'delivery-zh');
    expect(tab.errors, tab.errors.join('\n')).toEqual([]);
  });
});
