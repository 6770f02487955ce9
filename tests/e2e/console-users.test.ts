/**
 * The console's Dashboard, Users and Deposits screens in Chromium (issue 23): a compliance
 * operator signs in with an authenticator code; the dashboard shows what the ledger says
 * customers are owed; the operator finds a customer by e-mail, opens their page and freezes them
 * with a reason; that customer's transfer in the customer app is refused with the frozen message
 * in their language and kept (nothing moved); once unfrozen, retrying it goes through. Each new
 * screen is axe clean at desktop and phone width.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { MessageKey } from '../../admin/i18n/en.js';
import { consoleText as c, openConsoleScreen, signInToConsole } from './console-harness.js';
import { formatMoney, minor } from '../../contract/money.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { customerBookTotals } from '../../server/ledger/ledger.repository.js';
import { httpAdminClient, setUpOperator, type ReadyOperator } from '../helpers/operator.js';
import {
  animationsSettled,
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectPage,
  expectToast,
  fill,
  hasChromium,
  goToPage,
  PHONE,
  WAIT_MS,
  type Tab,
  DESKTOP,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

/** A pull after a confirmed command, or on start, lands within this. */
const SYNC_MS = 30_000;

const accountsSchema = z.object({
  items: z.array(z.object({ id: z.string(), kind: z.enum(['main', 'sub']), name: z.string() })),
});
const assetsSchema = z.object({ cash: z.string() });

describe.skipIf(!hasChromium)('the console Dashboard, Users and Deposits screens in Chromium', () => {
  const { running, openTab, launch, api, customer, financeToken } = e2eHarness();
  let compliance: ReadyOperator | undefined;

  /** The compliance operator the tests share. */
  async function complianceOperator(): Promise<ReadyOperator> {
    compliance ??= await newOperator('compliance');
    return compliance;
  }

  /** An operator of `role` set up as the console does (password changed, authenticator bound). */
  async function newOperator(role: 'finance' | 'compliance'): Promise<ReadyOperator> {
    const { direct, server } = running();
    return setUpOperator(
      {
        ...httpAdminClient(direct, () => server.clock.now()),
        createOperator: async (email, operatorRole, password) => {
          await server.services.operators.create(cliContext(), { email, role: operatorRole, password });
        },
      },
      `${role}.${Date.now()}@example.com`,
      role,
    );
  }

  /** The console in English at `viewport`, signed in as `operator` with a fresh authenticator code. */
  async function consoleTab(
    operator: ReadyOperator,
    viewport: { width: number; height: number },
  ): Promise<Tab> {
    const tab = await openTab('en-US', viewport);
    await signInToConsole(tab.page, running().base, operator);
    return tab;
  }

  /** Confirms a freeze or unfreeze dialog; answers the step-up dialog if the server asks for one. */
  async function confirmUserAction(page: Page, operator: ReadyOperator, title: MessageKey, reason: string) {
    const dialog = page.getByRole('dialog', { name: c(title) });
    await dialog.waitFor();
    await animationsSettled(page); // a click on Confirm while the dialog still zooms in can miss it
    await dialog.getByLabel(c('field.reason'), { exact: true }).fill(reason);
    await dialog.getByRole('button', { name: c('common.confirm'), exact: true }).click();
    const stepUp = page.getByRole('dialog', { name: c('stepup.title') });
    await Promise.race([dialog.waitFor({ state: 'hidden' }), stepUp.waitFor()]);
    if (await stepUp.isVisible()) {
      await stepUp.getByLabel(c('field.googleCode'), { exact: true }).fill(await operator.nextCode());
      await stepUp.getByRole('button', { name: c('stepup.submit'), exact: true }).click();
    }
    await dialog.waitFor({ state: 'hidden' });
  }

  test(
    "the dashboard shows the ledger's liabilities; a frozen customer's transfer is refused in the app with the frozen message and kept, and goes through once unfrozen",
    { timeout: 300_000 },
    async () => {
      const operator = await complianceOperator();
      const finance = await financeToken();
      const app = await openTab('en-US');
      const buyer = await customer('frozen', app.page, {
        finance,
        funds: { USDT: '100' },
        reason: 'e2e funding',
        tradePassword: false,
      });
      const made = await api('/api/v1/account/createSubAccount', { name: 'Savings' }, buyer.token);
      expect(made.code, made.message).toBe(200);
      const accounts = accountsSchema.parse((await api('/api/v1/account/list', {}, buyer.token)).data).items;
      const subId = accounts.find((account) => account.name === 'Savings')?.id ?? '';
      const cashOf = async (accountId: string) =>
        assetsSchema.parse((await api('/api/v1/user/assets', { accountId }, buyer.token)).data).cash;

      // The dashboard: what the ledger says customers are owed, the known 100 USDT included.
      const tab = await consoleTab(operator, DESKTOP);
      const { page } = tab;
      await openConsoleScreen(page, 'nav.dashboard', 'dashboard.title');
      const owed = await customerBookTotals(running().server.database.db);
      const book = (name: string) =>
        formatMoney(minor(owed.find((row) => row.asset === 'USDT' && row.book === name)?.total ?? 0n));
      expect(Number(book('cash'))).toBeGreaterThanOrEqual(100);
      const liabilities = page.getByRole('region', { name: c('dashboard.liabilities'), exact: true });
      const usdtRow = liabilities.getByRole('row').filter({ hasText: 'USDT' }).first();
      await expect.poll(() => usdtRow.innerText()).toContain(`${book('cash')} USDT`);
      expect(await usdtRow.innerText()).toContain(`${book('held')} USDT`);
      expect(await usdtRow.innerText()).toContain(`${book('hosting')} USDT`);
      // Compliance may not run the ledger check (finance's route): the button is not offered.
      expect(await page.getByRole('button', { name: c('dashboard.run_check') }).count()).toBe(0);
      await expectAccessible(page, 'dashboard desktop');

      // Users: found by e-mail; the customer's page shows the account's balance.
      await openConsoleScreen(page, 'nav.users', 'users.title');
      await page.getByLabel(c('users.search'), { exact: true }).fill(buyer.email);
      await page.getByRole('button', { name: c('users.search_submit'), exact: true }).click();
      const row = page.getByRole('row').filter({ hasText: buyer.email });
      await expect.poll(() => page.getByRole('row').count()).toBe(2); // the header and the one match
      await expectAccessible(page, 'users desktop');
      await row.getByRole('button', { name: new RegExp(`^${c('common.details')} `) }).click();
      const drawer = page.getByRole('dialog', { name: c('users.detail_title', { email: buyer.email }) });
      await drawer.waitFor({ timeout: WAIT_MS });
      const accountsTable = drawer.getByRole('region', { name: c('users.accounts'), exact: true });
      await expect.poll(() => accountsTable.innerText()).toContain('100 USDT');
      await expectAccessible(page, 'user detail desktop');

      // Freeze, with a reason: the dialog states the effect.
      await drawer.getByRole('button', { name: c('users.freeze'), exact: true }).click();
      const freezeDialog = page.getByRole('dialog', { name: c('users.freeze') });
      await expect
        .poll(() => freezeDialog.innerText())
        .toContain(c('users.confirm_freeze', { email: buyer.email }));
      await confirmUserAction(page, operator, 'users.freeze', 'e2e: suspicious activity');
      await expect.poll(() => drawer.innerText()).toContain('e2e: suspicious activity');
      expect(await drawer.innerText()).toContain(c('users.frozen'));

      // The customer's transfer, in the app: queued, refused as frozen, kept in the outbox; nothing moved.
      await launch(app.page, ROUTES.my); // a new document: the engine pulls on start
      await expectPage(app.page, en('tabs.assets'));
      await goToPage(app.page, ROUTES.accounts, en('accounts.title'));
      await app.page.getByLabel(en('field.toAccountId'), { exact: true }).selectOption({ label: 'Savings' });
      await expect
        .poll(
          () => app.page.getByText(fill(en('accounts.available'), { amount: '100', asset: 'USDT' })).count(),
          {
            timeout: SYNC_MS,
          },
        )
        .toBe(1);
      await app.page.getByLabel(en('field.amount'), { exact: true }).fill('30');
      await app.page.getByRole('button', { name: en('accounts.transfer'), exact: true }).click();
      await expectToast(
        app.page,
        fill(en('outbox.refused_notice'), {
          kind: en('outbox.kind_account-transfer'),
          message: en('server.account_frozen'),
        }),
        SYNC_MS,
      );
      await goToPage(app.page, ROUTES.outbox, en('outbox.title'));
      const pending = app.page.getByRole('region', { name: en('outbox.pending'), exact: true });
      await expect
        .poll(() => pending.innerText())
        .toContain(fill(en('outbox.refused_by_server'), { message: en('server.account_frozen') }));
      await expectAccessible(app.page, 'outbox with the frozen refusal');
      expect(await cashOf(buyer.accountId)).toBe('100');
      expect(await cashOf(subId)).toBe('0');

      // Unfreeze; the kept transfer, retried, goes through.
      await drawer.getByRole('button', { name: c('users.unfreeze'), exact: true }).click();
      await expect
        .poll(() => page.getByRole('dialog', { name: c('users.unfreeze') }).innerText())
        .toContain(c('users.confirm_unfreeze', { email: buyer.email }));
      await confirmUserAction(page, operator, 'users.unfreeze', 'e2e: cleared');
      await expect.poll(() => drawer.innerText()).toContain(c('users.active'));
      await pending
        .getByRole('button', {
          name: fill(en('outbox.retry_named'), { kind: en('outbox.kind_account-transfer') }),
          exact: true,
        })
        .click();
      await app.page.getByText(en('outbox.empty'), { exact: true }).waitFor({ timeout: SYNC_MS });
      expect(await cashOf(buyer.accountId)).toBe('70');
      expect(await cashOf(subId)).toBe('30');
      expectNoErrors(tab);
      expectNoErrors(app);
    },
  );

  test(
    "the Dashboard, Users (with a user's page) and Deposits screens are axe clean at phone width (390 px)",
    { timeout: 240_000 },
    async () => {
      const operator = await complianceOperator();
      const tab = await consoleTab(operator, PHONE);
      const { page } = tab;
      await openConsoleScreen(page, 'nav.dashboard', 'dashboard.title');
      await page.getByRole('heading', { level: 2, name: c('dashboard.liabilities') }).waitFor();
      await expectAccessible(page, 'dashboard phone');
      await openConsoleScreen(page, 'nav.deposits', 'deposits.title');
      await expectAccessible(page, 'deposits phone');
      await openConsoleScreen(page, 'nav.users', 'users.title');
      await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(1);
      await expectAccessible(page, 'users phone');
      await page
        .getByRole('button', { name: new RegExp(`^${c('common.details')} `) })
        .first()
        .click();
      await page.getByRole('heading', { level: 2, name: c('users.accounts') }).waitFor();
      await expectAccessible(page, 'user detail phone');
      expectNoErrors(tab);
    },
  );

  test(
    'the Deposits screen is axe clean at desktop width, filtered by chain and status',
    { timeout: 120_000 },
    async () => {
      const operator = await complianceOperator();
      const tab = await consoleTab(operator, DESKTOP);
      const { page } = tab;
      await openConsoleScreen(page, 'nav.deposits', 'deposits.title');
      await page.getByLabel(c('dashboard.chain'), { exact: true }).click();
      await page.locator('.ant-select-dropdown:visible').getByTitle('BEP20', { exact: true }).click();
      await page.locator('.ant-select-dropdown').waitFor({ state: 'hidden' });
      await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' });
      await expectAccessible(page, 'deposits desktop');
      expectNoErrors(tab);
    },
  );

  test(
    'a finance operator runs the ledger check from the dashboard after a confirm, and the dashboard shows its result and time',
    { timeout: 120_000 },
    async () => {
      const finance = await newOperator('finance');
      const tab = await consoleTab(finance, DESKTOP);
      const { page } = tab;
      await openConsoleScreen(page, 'nav.dashboard', 'dashboard.title');
      const lastCheck = page.getByRole('alert').first();
      await lastCheck.waitFor();
      const before = await lastCheck.innerText();
      await page.getByRole('button', { name: c('dashboard.run_check'), exact: true }).click();
      const confirmDialog = page.getByRole('dialog').filter({ hasText: c('dashboard.confirm_check') });
      await confirmDialog.getByRole('button', { name: c('common.confirm'), exact: true }).click();
      const okPrefix = c('dashboard.check_ok').split('{{at}}')[0] ?? '';
      await expect.poll(() => lastCheck.innerText(), { timeout: WAIT_MS }).not.toBe(before);
      expect(await lastCheck.innerText()).toContain(okPrefix);
      await page.locator('.ant-modal-confirm').waitFor({ state: 'hidden' });
      await expectAccessible(page, 'dashboard after the ledger check');
      expectNoErrors(tab);
    },
  );
});
