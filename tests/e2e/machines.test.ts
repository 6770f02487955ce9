/**
 * Mining machines in Chromium: from the Team tab to the machines on offer; a buy
 * with USDT previewed to the minor unit and sent with the trade password; a buy with tickets the
 * operators issued; my machines, the mining records after the daily job paid a day, and the
 * tickets, all readable offline (the loopback proxy cut), where buying says it needs a
 * connection; every page passes axe in English and Chinese on a phone (390 x 844). With
 * COFFER_E2E_SCREENS=<folder>, screenshots are kept there.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectPage,
  expectToast,
  hasChromium,
  navigateInApp,
  goToPage,
  zh,
  WAIT_MS,
  keepScreen,
  fill,
  confirmWithTradePassword,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const DAY_MS = 86_400_000;

describe.skipIf(!hasChromium)('mining machines in Chromium', () => {
  const { running, goOffline, api, customerTab } = e2eHarness({ proxy: true });

  /** A user logged in on a new tab in `locale` (the language of `t`), with a trade password and 300 USDT on the main account. */
  const miner = (locale: string, t: (key: string) => string, name: string) =>
    customerTab(locale, name, { t, funds: { USDT: '300' }, reason: 'e2e machines' });

  /** Buys on the open machines page: opens the machine's buy, sets the figures, confirms. */
  async function buy(
    page: Page,
    t: (key: string) => string,
    name: string,
    quantity: string,
    tickets = false,
  ) {
    await page.getByRole('button', { name: fill(t('machine.buy_named'), { name }), exact: true }).click();
    await page.getByLabel(t('machine.quantity_label'), { exact: true }).fill(quantity);
    if (tickets) await page.getByLabel(t('machine.pay_ticket')).check();
    await confirmWithTradePassword(page, t('machine.trade_password'), t('machine.confirm_buy'));
  }

  test(
    'from the Team tab: a buy with USDT previewed to the minor unit, a buy with tickets, my machines, mining records after the job paid a day, tickets; readable offline, buying refused offline',
    { timeout: 240_000 },
    async () => {
      const { finance, tab, page, accountId } = await miner('en-US', en, 'miner');

      await goToPage(page, ROUTES.team, en('tabs.team'));
      await page.getByRole('button', { name: en('machine.title'), exact: true }).click();
      await expectPage(page, en('machine.title'));
      await page.getByRole('heading', { name: 'Starter miner', exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'machines');
      await keepScreen(page, 'machines-en');

      // 2 Starter miners: 200 USDT, 2 × 10 T × 0.36 = 7.2 USDT a day, 216 over the 30-day term.
      await page.getByRole('button', { name: 'Buy Starter miner', exact: true }).click();
      await page.getByLabel(en('machine.quantity_label'), { exact: true }).fill('2');
      await page.getByText('200 USDT', { exact: true }).waitFor();
      await page.getByText('7.2 USDT', { exact: true }).waitFor();
      await page.getByText('216 USDT', { exact: true }).waitFor();
      await expectAccessible(page, 'machines (buy form)');
      await keepScreen(page, 'machines-en-buy');
      await confirmWithTradePassword(page, en('machine.trade_password'), en('machine.confirm_buy'));
      await expectToast(page, 'Bought: Starter miner × 2');
      // The summary follows the synced holding: 20 T.
      await page
        .locator('.machine-summary .card__figure')
        .getByText('20', { exact: false })
        .waitFor({ timeout: 30_000 });

      // Tickets the operators issue buy a Standard miner (5 tickets).
      const issued = await api(
        '/api/admin/ticket/issue',
        { accountIds: accountId, count: '6', reason: 'welcome' },
        finance,
      );
      expect(issued.code, issued.message).toBe(200);
      await goToPage(page, ROUTES.tickets, en('machine.tickets_title'));
      await goToPage(page, ROUTES.machines, en('machine.title'));
      await page.locator('.machine-summary dd').getByText('6', { exact: true }).waitFor({ timeout: 30_000 });
      await buy(page, en, 'Standard miner', '1', true);
      await expectToast(page, 'Bought: Standard miner × 1');

      // The daily job pays the first day (the job's work run as of two days on).
      const { server } = running();
      await server.database.db.transaction((tx) =>
        server.services.machineOutput.run(tx, new Date(Date.now() + 2 * DAY_MS)),
      );

      await goToPage(page, ROUTES.myMachines, en('machine.mine_title'));
      await page.getByText('Standard miner #2', { exact: false }).first().waitFor({ timeout: 30_000 });
      await page.getByText('29 days left of 30', { exact: true }).waitFor({ timeout: 30_000 });
      await expectAccessible(page, 'my machines');
      await keepScreen(page, 'my-machines-en');

      await goToPage(page, ROUTES.miningRecords, en('machine.records_title'));
      await page.getByText('+7.2', { exact: false }).waitFor({ timeout: 30_000 });
      await expectAccessible(page, 'mining records');
      await keepScreen(page, 'mining-records-en');

      await goToPage(page, ROUTES.tickets, en('machine.tickets_title'));
      await page.locator('.card__figure').getByText('1', { exact: true }).waitFor({ timeout: 30_000 });
      await expect
        .poll(() => page.locator('.row-list').getByText(en('machine.ticket_used'), { exact: true }).count())
        .toBe(5);
      await expectAccessible(page, 'tickets');
      await keepScreen(page, 'tickets-en');

      expectNoErrors(tab);

      // Offline (failed loads are expected from here): what was synced still shows; a buy says it
      // needs the connection.
      await goOffline(page);
      await navigateInApp(page, ROUTES.myMachines);
      await page.getByText('29 days left of 30', { exact: true }).waitFor({ timeout: WAIT_MS });
      await navigateInApp(page, ROUTES.machines);
      await page.getByRole('button', { name: 'Buy Pro miner', exact: true }).click();
      await page.getByText(en('machine.offline'), { exact: true }).waitFor({ timeout: WAIT_MS });
      expect(
        await page.getByRole('button', { name: en('machine.confirm_buy'), exact: true }).isDisabled(),
      ).toBe(true);
      await keepScreen(page, 'machines-en-offline');
      running().proxy?.up();
    },
  );

  test('every machine page passes axe in Chinese on a phone', { timeout: 180_000 }, async () => {
    const { finance, tab, page, accountId } = await miner('zh-CN', zh, 'miner-zh');
    expect(
      (await api('/api/admin/ticket/issue', { accountIds: accountId, count: '2', reason: '欢迎' }, finance))
        .code,
    ).toBe(200);
    await goToPage(page, ROUTES.machines, zh('machine.title'));
    await page.getByRole('heading', { name: '入门矿机', exact: true }).waitFor({ timeout: WAIT_MS });
    await buy(page, zh, '入门矿机', '1', true);
    await expectToast(page, '已购买：入门矿机 × 1');
    await page.getByRole('button', { name: '租赁标准矿机', exact: true }).click();
    await page.getByLabel(fill(zh('machine.days_label'), { max: 60 }), { exact: true }).fill('3');
    await page.getByText('26.4 USDT', { exact: true }).waitFor(); // 8.8 a day × 3 days
    await expectAccessible(page, 'machines (zh, rent form)');
    await keepScreen(page, 'machines-zh-rent');
    // Each page is checked once what it shows from the synced data is on screen to stay.
    const pages: Array<[string, string, string, Locator]> = [
      [
        ROUTES.myMachines,
        'machine.mine_title',
        'my-machines-zh',
        page.getByRole('heading', { name: /^入门矿机 #\d+$/ }),
      ],
      [
        ROUTES.miningRecords,
        'machine.records_title',
        'mining-records-zh',
        page.getByText(zh('machine.records_empty')),
      ],
      [
        ROUTES.tickets,
        'machine.tickets_title',
        'tickets-zh',
        page.getByText(zh('machine.ticket_used'), { exact: true }),
      ],
    ];
    for (const [route, title, name, lasting] of pages) {
      await goToPage(page, route, zh(title));
      await lasting.first().waitFor({ timeout: 30_000 });
      await expectAccessible(page, name);
      await keepScreen(page, name);
    }
    expectNoErrors(tab);
  });
});
