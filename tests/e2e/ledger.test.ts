/**
 * Money in Chromium (issue "Money core 1"): an operator's adjustment reaches the Assets tab; a
 * sub-account is made on the Accounts page; a transfer to it made offline (the loopback proxy
 * cut) waits in the outbox and arrives exactly once on reconnect; the wallet records of both
 * accounts show their side of it. What each step checks on the server, it asks Coffer directly.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectPage,
  expectToast,
  fieldError,
  hasChromium,
  goToPage,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

/** Reconnects are noticed by the outbox's own backoff (2, 4, 8, 16, 30 s): allow a full step and a send. */
const RECONNECT_MS = 60_000;
/** A pull after a confirmed command, or on start, lands within this. */
const SYNC_MS = 30_000;

const accountsSchema = z.object({
  items: z.array(z.object({ id: z.string(), kind: z.enum(['main', 'sub']), name: z.string() })),
});
const assetsSchema = z.object({ cash: z.string(), totalUsdt: z.string() });
const recordsSchema = z.object({ items: z.array(z.object({ kind: z.string(), amount: z.string() })) });

describe.skipIf(!hasChromium)('money through a loopback proxy, in Chromium', () => {
  const { running, openTab, goOffline, launch, api, signedIn, financeToken, fund } = e2eHarness({
    proxy: true,
  });

  test(
    'an operator adjustment appears on the Assets tab; a transfer to a new sub-account made offline arrives once on reconnect; the records of both accounts show both sides',
    { timeout: 300_000 },
    async () => {
      const { proxy } = running();
      if (!proxy) throw new Error('this file runs behind the proxy');
      const finance = await financeToken();
      const tab = await openTab('en-US');
      const { page } = tab;
      const { token } = await signedIn('money', page);
      const accounts = async () =>
        accountsSchema.parse((await api('/api/v1/account/list', {}, token)).data).items;
      const cashOf = async (accountId: string) =>
        assetsSchema.parse((await api('/api/v1/user/assets', { accountId }, token)).data).cash;
      const transfersOf = async (accountId: string) =>
        recordsSchema
          .parse((await api('/api/v1/wallet/records', { accountId }, token)).data)
          .items.filter((record) => record.kind === 'account_transfer');
      const mainId = (await accounts()).find((account) => account.kind === 'main')?.id ?? '';

      // An operator puts 100 USDT into the main account; the Assets tab shows it once pulled.
      await fund(finance, mainId, 'USDT', '100', 'e2e funding');
      await launch(page, ROUTES.my); // a new document: the engine pulls on start
      await expectPage(page, en('tabs.assets'));
      const total = page.getByRole('region', { name: en('my.total'), exact: true });
      await expect.poll(() => total.innerText(), { timeout: SYNC_MS }).toContain('100 USDT');
      await expectAccessible(page, 'assets');

      // A sub-account, made on the Accounts page while online.
      await page.getByRole('button', { name: en('my.manage_accounts'), exact: true }).click();
      await expectPage(page, en('accounts.title'));
      await page.getByLabel(en('field.name'), { exact: true }).fill('Savings');
      await page.getByRole('button', { name: en('accounts.create'), exact: true }).click();
      await page
        .getByRole('button', {
          name: en('accounts.switch_named').replace('{{name}}', 'Savings'),
          exact: true,
        })
        .waitFor({ timeout: SYNC_MS });
      const subId = (await accounts()).find((account) => account.name === 'Savings')?.id ?? '';
      expect(subId).not.toBe('');
      await expectAccessible(page, 'accounts');

      // Offline (once the service worker controls the page, its precache complete): refused amounts
      // say why before anything is queued; a good one waits in the outbox.
      await goOffline(page);
      await page.getByLabel(en('field.toAccountId'), { exact: true }).selectOption({ label: 'Savings' });
      const amount = page.getByLabel(en('field.amount'), { exact: true });
      const transfer = page.getByRole('button', { name: en('accounts.transfer'), exact: true });
      await amount.fill('1.005');
      await transfer.click();
      expect(await fieldError(page, en('field.amount'))).toBe(en('accounts.amount_decimals'));
      await amount.fill('500');
      await transfer.click();
      expect(await fieldError(page, en('field.amount'))).toBe(
        en('accounts.amount_above_available').replace('{{amount}}', '100').replace('{{asset}}', 'USDT'),
      );
      await amount.fill('30');
      await transfer.click();
      await expectToast(page, en('accounts.transfer_queued'));
      await goToPage(page, ROUTES.outbox, en('outbox.title'));
      const pending = page.getByRole('region', { name: en('outbox.pending'), exact: true });
      await pending
        .getByRole('heading', { level: 3, name: en('outbox.kind_account-transfer'), exact: true })
        .waitFor();
      expect(await cashOf(subId)).toBe('0');

      // The link returns: the transfer is sent once, both accounts change.
      proxy.up();
      await page.getByText(en('outbox.empty'), { exact: true }).waitFor({ timeout: RECONNECT_MS });
      expect(await cashOf(mainId)).toBe('70');
      expect(await cashOf(subId)).toBe('30');

      // The main account's records: the adjustment in, the transfer out, each with its sign.
      await goToPage(page, ROUTES.walletRecords, en('records.title'));
      const line = (kind: string) =>
        page.getByRole('listitem').filter({ hasText: en(`records.kind_${kind}`) });
      await expect.poll(() => line('account_transfer').innerText(), { timeout: SYNC_MS }).toContain('-30');
      expect(await line('data_adjustment').innerText()).toContain('+100');
      await page.getByLabel(en('records.filter.label'), { exact: true }).selectOption('account_transfer');
      await expect.poll(() => page.getByRole('listitem').count()).toBe(1);
      await expectAccessible(page, 'wallet records');

      // Switch to the sub-account: its records show the other side.
      await goToPage(page, ROUTES.accounts, en('accounts.title'));
      await page
        .getByRole('button', {
          name: en('accounts.switch_named').replace('{{name}}', 'Savings'),
          exact: true,
        })
        .click();
      await expectToast(page, en('accounts.switched').replace('{{name}}', 'Savings'));
      await goToPage(page, ROUTES.walletRecords, en('records.title'));
      await expect.poll(() => line('account_transfer').innerText(), { timeout: SYNC_MS }).toContain('+30');
      await expect.poll(() => page.getByRole('listitem').count()).toBe(1);

      // Still once, after every pull and drain.
      await page.waitForTimeout(3_000);
      expect(await transfersOf(mainId)).toHaveLength(1);
      expect(await transfersOf(subId)).toHaveLength(1);
      // The browser logs each request the cut link refused; anything else is a fault of the app.
      const errors = tab.errors.filter((error) => !/Failed to load resource: net::ERR_/.test(error));
      expect(errors, errors.join('\n')).toEqual([]);
    },
  );
});
