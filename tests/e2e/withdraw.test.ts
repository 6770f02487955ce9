/**
 * A withdrawal in Chromium, end to end: the user binds the authenticator with a code
 * computed from the key the page shows, sets a trade password, adds a BEP20 address, withdraws
 * with a fresh code; a finance operator approves; the send job pays it from the devnet's hot
 * wallet; the records page shows it successful with its transaction, and the chain shows the
 * address paid. The server's clock starts on a working morning in Asia/Shanghai (COFFER_NOW), so
 * the client is built for the plain transport (the envelope's timestamps come from the browser's
 * real clock, which the server would find stale).
 */
import { erc20Abi, getAddress, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import { totpCode } from '../../server/security/totp.js';
import { bep20Env, useTestDevnet } from '../helpers/devnet.js';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectNoOverflow,
  expectPage,
  hasChromium,
  navigateInApp,
  goToPage,
  WAIT_MS,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

/** A Wednesday, 10:00 in Asia/Shanghai: inside the withdrawal window. */
const WORKING_MORNING = '2026-11-25T02:00:00Z';

describe.skipIf(!hasChromium)('a withdrawal in Chromium', () => {
  const chain = useTestDevnet();
  const { running, openTab, launch, api, signedIn, mainAccountId, fund, financeToken } = e2eHarness({
    env: () => ({
      ...bep20Env(chain(), 3, true),
      COFFER_NEW_METHOD_COOLDOWN_HOURS: '0',
      COFFER_NOW: WORKING_MORNING,
    }),
    build: { VITE_TRANSPORT: 'plain' },
  });

  test(
    'bind the authenticator, add a method, withdraw, an operator approves, the job sends it: success shown',
    { timeout: 300_000 },
    async () => {
      const { server } = running();
      const { page } = await openTab('en-US');
      const { token } = await signedIn('withdraw', page);

      // The authenticator, from the key the page shows.
      await navigateInApp(page, ROUTES.updatePassword3);
      const secretText = page.getByTestId('authenticator-secret');
      await secretText.waitFor({ timeout: WAIT_MS });
      const secret = (await secretText.innerText()).replace(/\s+/g, '');
      await page
        .getByLabel(en('field.authenticatorCode'), { exact: true })
        .fill(await totpCode(secret, server.clock.now()));
      await page.getByRole('button', { name: en('security.bind_submit'), exact: true }).click();
      await expectPage(page, en('settings.title'));

      // The trade password.
      await navigateInApp(page, ROUTES.updatePassword2);
      await page.getByLabel(en('field.tradePassword'), { exact: true }).fill('trade-secret1');
      await page.getByLabel(en('field.confirmPassword'), { exact: true }).fill('trade-secret1');
      await page.getByRole('button', { name: en('security.submit'), exact: true }).click();
      await expectPage(page, en('settings.title'));

      // A BEP20 address nobody else pays.
      const to = getAddress(privateKeyToAccount(generatePrivateKey()).address);
      await goToPage(page, ROUTES.withdraw2, en('payments.title'));
      await page.getByLabel(en('field.address'), { exact: true }).fill(to);
      await page
        .getByRole('button', { name: en('payments.save'), exact: true })
        .first()
        .click();
      await page.getByText(to).first().waitFor({ timeout: WAIT_MS });

      // Money to withdraw, from a finance operator.
      const finance = await financeToken();
      const accountId = await mainAccountId(token);
      await fund(finance, accountId, 'USDT', '100', 'e2e funding');

      // The withdrawal, with a code of a later step than the binding's.
      await goToPage(page, ROUTES.withdraw, en('withdraw.title'));
      await page
        .getByRole('radio', { name: new RegExp(en('withdraw.kind_chain')) })
        .first()
        .check();
      await page.getByLabel(en('field.amount'), { exact: true }).fill('25.5');
      await page.getByText('26.5 USDT').first().waitFor({ timeout: WAIT_MS }); // the total with the fee
      await page.getByLabel(en('field.tradePassword'), { exact: true }).fill('trade-secret1');
      await page
        .getByLabel(en('field.authenticatorCode'), { exact: true })
        .fill(await totpCode(secret, new Date(server.clock.now().getTime() + 30_000)));
      await expectAccessible(page, 'withdrawal form');
      await expectNoOverflow(page, 'withdrawal form');
      await page.getByRole('button', { name: en('withdraw.submit'), exact: true }).click();
      await expectPage(page, en('withdraw.records_title'));
      await page
        .getByText(en('withdraw.status_pending'), { exact: false })
        .first()
        .waitFor({ timeout: WAIT_MS });

      // A finance operator approves; the send job signs, sends and, at 3 confirmations, settles.
      const listed = await api('/api/admin/withdraw/list', { stage: 'awaiting_review' }, finance);
      const [request] = (listed.data as { items: Array<{ id: string; amount: string }> }).items;
      expect(request?.amount).toBe('25.5');
      const approved = await api('/api/admin/withdraw/approve', { id: request?.id }, finance);
      expect(approved.code, approved.message).toBe(200);
      const [sender] = server.withdrawalSenders;
      if (!sender) throw new Error('no BEP20 withdrawal sender');
      expect(await sender.tick()).toMatchObject({ signed: 1 });
      await chain().mine(3);
      expect(await sender.tick()).toMatchObject({ paid: 1 });
      const balance = await chain().publicClient.readContract({
        address: chain().info.contract,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [to],
      });
      expect(balance).toBe(parseUnits('25.5', chain().info.decimals));

      // Opened again, the app pulls; the records page shows it successful, with its transaction.
      await launch(page, ROUTES.home);
      await expectPage(page, en('tabs.home'));
      await goToPage(page, ROUTES.withdrawRecords, en('withdraw.records_title'));
      await page
        .getByText(en('withdraw.status_success'), { exact: false })
        .first()
        .waitFor({ timeout: 30_000 });
      await expect(
        page.getByRole('button', { name: en('withdraw.copy_hash') }).count(),
      ).resolves.toBeGreaterThan(0);
      await expectAccessible(page, 'withdrawal records');
    },
  );
});
