/**
 * The console's money and support flows in Chromium, on a real server and the devnet: two
 * finance operators approve a BEP20 withdrawal above the review threshold (after the first, it
 * still waits, the first cannot approve again: the button is disabled with its reason, and the
 * server's refusal from a page opened before shows in the detail); the send job sends it and the
 * console shows its transaction and its live confirmation count ("1 / 3", then "3 / 3 reached"). Support replies to a feedback (its image
 * shown as a thumbnail that opens larger) and the customer app shows the reply after sync. The
 * audit log filters by a time range and exports what it shows. The withdrawal, feedback and audit
 * screens are axe clean at desktop and phone width.
 */
import fs from 'node:fs';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { en as consoleEn, type MessageKey } from '../../admin/i18n/en.js';
import { openConsoleScreen, signInToConsole } from './console-harness.js';
import type { OperatorRole } from '../../contract/api/admin.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { totpCode } from '../../server/security/totp.js';
import { bep20Env, useTestDevnet } from '../helpers/devnet.js';
import { httpAdminClient, setUpOperator, type ReadyOperator } from '../helpers/operator.js';
import {
  e2eHarness,
  en as appEn,
  expectAccessible,
  expectNoErrors,
  expectPage,
  hasChromium,
  goToPage,
  PHONE,
  TRADE_PASSWORD,
  WAIT_MS,
  type Tab,
  DESKTOP,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';
import { PIXEL_PNG as PIXEL } from '../helpers/uploads.js';

/** A Wednesday, 10:00 in Asia/Shanghai: inside the withdrawal window. */
const WORKING_MORNING = '2026-11-25T02:00:00Z';
/** Above it, two different finance operators approve (COFFER_WITHDRAW_REVIEW_ABOVE). */
const REVIEW_ABOVE = '50';

const t = (key: MessageKey, vars: Record<string, string | number> = {}) =>
  consoleEn[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(vars[name] ?? whole));

const withdrawalSchema = z.object({
  id: z.string(),
  stage: z.string(),
  status: z.string(),
  txHash: z.string().nullable(),
  approvedBy: z.array(z.string()),
  approvals: z.array(z.object({ by: z.string(), email: z.string().nullable() })),
  confirmations: z
    .object({ required: z.number(), reached: z.boolean(), seen: z.number().nullable() })
    .nullable(),
});
const withdrawalListSchema = z.object({ items: z.array(withdrawalSchema) });

describe.skipIf(!hasChromium)('the console flows in Chromium', () => {
  const chain = useTestDevnet();
  const { running, openTab, launch, api, signedIn, mainAccountId, fund, financeToken, newAddress } =
    e2eHarness({
      env: () => ({
        ...bep20Env(chain(), 3, true),
        COFFER_NEW_METHOD_COOLDOWN_HOURS: '0',
        COFFER_NOW: WORKING_MORNING,
        COFFER_WITHDRAW_REVIEW_ABOVE: REVIEW_ABOVE,
      }),
      build: { VITE_TRANSPORT: 'plain' },
    });

  /** A new operator of `role`, set up as the console does (password changed, authenticator bound). */
  async function operator(role: OperatorRole): Promise<ReadyOperator> {
    const { direct, server } = running();
    return setUpOperator(
      {
        ...httpAdminClient(direct, () => server.clock.now()),
        createOperator: async (email, operatorRole, password) => {
          await server.services.operators.create(cliContext(), { email, role: operatorRole, password });
        },
      },
      newAddress(role),
      role,
    );
  }

  /** A console tab signed in as `who` (with a code: the session is stepped up), in English. */
  async function consoleAs(who: ReadyOperator, viewport = DESKTOP): Promise<Tab> {
    const tab = await openTab('en-US', viewport);
    await signInToConsole(tab.page, running().base, who);
    return tab;
  }

  /** Opens a list row's detail drawer (the id's button), named `title`. */
  async function openDetail(page: Page, id: string, title: MessageKey) {
    await page.getByRole('button', { name: `${t('common.details')} ${id}`, exact: true }).click();
    const drawer = page.getByRole('dialog', { name: t(title, { id }), exact: true });
    await drawer.waitFor();
    // Until its opening motion ends the drawer is partly transparent (axe would read low contrast).
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.ant-drawer-content-wrapper')].every(
        (element) => !/motion|appear|enter/.test(element.className),
      ),
    );
    return drawer;
  }

  /** Confirms the open confirm dialog, which states `effect`. */
  async function confirmIn(page: Page, effect: string): Promise<void> {
    const dialog = page.getByRole('dialog').filter({ hasText: t('common.confirm_title') });
    await expect.poll(() => dialog.innerText()).toContain(effect);
    await dialog.getByRole('button', { name: t('common.confirm'), exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  const asAdmin = async (who: ReadyOperator, uri: string, params: Record<string, unknown>) =>
    api(uri, params, await who.token());

  const flows: { withdrawalId?: string; financeA?: ReadyOperator } = {};

  test(
    'two finance operators approve a withdrawal above the threshold in the console; the first alone cannot; the devnet sends it and its hash and live confirmation count show',
    { timeout: 420_000 },
    async () => {
      const { server } = running();
      // A customer with an authenticator, a trade password, a BEP20 address and 100 USDT.
      const customer = await signedIn('flows', null);
      const secretOf = z.object({ secret: z.string() });
      const { secret } = secretOf.parse((await api('/api/v1/user/getGoogle2Fa', {}, customer.token)).data);
      const bound = await api(
        '/api/v1/user/bindGoogle2Fa',
        { code: await totpCode(secret, server.clock.now()) },
        customer.token,
      );
      expect(bound.code, bound.message).toBe(200);
      const trade = await api(
        '/api/v1/user/bindTradePassword',
        { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
        customer.token,
      );
      expect(trade.code, trade.message).toBe(200);
      const to = getAddress(privateKeyToAccount(generatePrivateKey()).address);
      const method = await api(
        '/api/v1/user/add-chain-payment',
        { currency: 'USDT', network: 'BEP20', address: to },
        customer.token,
      );
      expect(method.code, method.message).toBe(200);
      const accountId = await mainAccountId(customer.token);
      await fund(await financeToken(), accountId, 'USDT', '100', 'e2e funding');
      const created = await api(
        '/api/v1/withdraw/create',
        {
          accountId,
          amount: '60',
          methodId: z.object({ id: z.string() }).parse(method.data).id,
          googleCode: await totpCode(secret, new Date(server.clock.now().getTime() + 30_000)),
          tradePassword: TRADE_PASSWORD,
        },
        customer.token,
      );
      expect(created.code, created.message).toBe(200);
      const id = z.object({ id: z.string() }).parse(created.data).id;
      flows.withdrawalId = id;

      const [first, second] = [await operator('finance'), await operator('finance')];
      if (!first || !second) throw new Error('no finance operators');
      flows.financeA = first;
      const state = async () => {
        const listed = await asAdmin(first, '/api/admin/withdraw/list', {});
        const found = withdrawalListSchema.parse(listed.data).items.find((item) => item.id === id);
        if (!found) throw new Error(`withdrawal ${id} not listed`);
        return found;
      };

      // The first operator in two tabs, each with the withdrawal's detail open.
      const stale = await consoleAs(first);
      await openConsoleScreen(stale.page, 'nav.withdrawals', 'withdrawals.title');
      const staleDrawer = await openDetail(stale.page, id, 'withdrawals.detail_title');
      const tabA = await consoleAs(first);
      const { page } = tabA;
      await openConsoleScreen(page, 'nav.withdrawals', 'withdrawals.title');
      const drawer = await openDetail(page, id, 'withdrawals.detail_title');
      await expect
        .poll(() => drawer.innerText())
        .toContain(t('withdrawals.approvals_count', { count: 0, needed: 2 }));
      await expectAccessible(page, 'withdrawal detail desktop');

      // The first approval: the withdrawal still waits, and this operator cannot approve again.
      await drawer.getByRole('button', { name: t('withdrawals.approve'), exact: true }).click();
      await confirmIn(page, `Approve withdrawal ${id} (60 USDT to BEP20 `);
      await expect.poll(() => drawer.innerText()).toContain(t('withdrawals.you_approved'));
      const approveA = drawer.getByRole('button', { name: t('withdrawals.approve'), exact: true });
      expect(await approveA.isDisabled()).toBe(true);
      expect(await approveA.getAttribute('aria-describedby')).toBe('withdrawal-approved-by-me');
      expect(await drawer.innerText()).toContain(`${first.email} (operator:`);
      expect(await drawer.innerText()).toContain(t('withdrawals.approvals_count', { count: 1, needed: 2 }));
      expect(await state()).toMatchObject({ stage: 'awaiting_review', status: 'pending' });
      expect((await state()).approvals[0]?.email).toBe(first.email);
      await expectAccessible(page, 'withdrawal after the first approval');

      // From the page opened before, the same operator tries again: the server refuses, and says so.
      await staleDrawer.getByRole('button', { name: t('withdrawals.approve'), exact: true }).click();
      await confirmIn(stale.page, `Approve withdrawal ${id} (60 USDT to BEP20 `);
      const refusal = stale.page.getByRole('alert').filter({ hasText: 'Refused by the server' });
      await refusal.waitFor({ timeout: WAIT_MS });
      expect(await refusal.innerText()).toMatch(/Refused by the server: .+/);
      await expect.poll(() => staleDrawer.innerText()).toContain(t('withdrawals.you_approved'));
      expect(await state()).toMatchObject({ stage: 'awaiting_review', approvedBy: [expect.any(String)] });
      const again = await asAdmin(first, '/api/admin/withdraw/approve', { id });
      expect(again.code).toBe(403);

      // The second operator approves: it is approved, and the send job takes it.
      const tabB = await consoleAs(second);
      await openConsoleScreen(tabB.page, 'nav.withdrawals', 'withdrawals.title');
      const drawerB = await openDetail(tabB.page, id, 'withdrawals.detail_title');
      expect(await drawerB.innerText()).toContain(`${first.email} (operator:`);
      await drawerB.getByRole('button', { name: t('withdrawals.approve'), exact: true }).click();
      await confirmIn(tabB.page, `Approve withdrawal ${id}: 60 USDT to BEP20 `);
      await expect.poll(() => drawerB.innerText()).toContain(t('withdrawals.stage.approved'));
      expect(await state()).toMatchObject({ stage: 'approved', status: 'pending' });

      const [sender] = server.withdrawalSenders;
      if (!sender) throw new Error('no BEP20 withdrawal sender');
      await sender.tick();
      const sending = await state();
      expect(sending.stage).toBe('sending');
      expect(sending.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(sending.confirmations).toEqual({ required: 3, reached: false, seen: 0 });
      await drawerB.getByRole('button', { name: t('common.refresh'), exact: true }).click();
      await expect.poll(() => drawerB.innerText()).toContain(sending.txHash ?? '?');

      // The devnet mined it at once: the job's next look records one confirmation, and the console shows it.
      expect(await sender.tick()).toMatchObject({ waiting: 1, counted: 1 });
      expect((await state()).confirmations).toEqual({ required: 3, reached: false, seen: 1 });
      await drawerB.getByRole('button', { name: t('common.refresh'), exact: true }).click();
      await expect
        .poll(() => drawerB.innerText())
        .toContain(t('withdrawals.confirmations_count', { seen: 1, required: 3 }));

      await chain().mine(3);
      await sender.tick();
      const paid = await state();
      expect(paid).toMatchObject({ stage: 'paid', status: 'success', txHash: sending.txHash });
      expect(paid.confirmations).toEqual({ required: 3, reached: true, seen: 3 });
      await drawerB.getByRole('button', { name: t('common.refresh'), exact: true }).click();
      await expect.poll(() => drawerB.innerText()).toContain(t('withdrawals.stage.paid'));
      expect(await drawerB.innerText()).toContain(t('withdrawals.confirmations_reached', { required: 3 }));
      await expectAccessible(tabB.page, 'withdrawal sent');

      // The customer's own record shows it sent, with its transaction.
      const own = await api('/api/v1/withdraw/list', { accountId }, customer.token);
      const record = z
        .object({
          items: z.array(
            z.object({
              id: z.string(),
              status: z.string(),
              stage: z.string(),
              txHash: z.string().nullable(),
            }),
          ),
        })
        .parse(own.data)
        .items.find((item) => item.id === id);
      expect(record).toMatchObject({ status: 'success', stage: 'paid', txHash: sending.txHash });
      for (const tab of [stale, tabA, tabB]) expectNoErrors(tab);
    },
  );

  test(
    "support replies to a customer's feedback in the console (its image opens larger); the app shows the reply after sync",
    { timeout: 300_000 },
    async () => {
      const { direct } = running();
      const app = await openTab('en-US');
      const customer = await signedIn('feedback', app.page);
      const form = new FormData();
      form.append('file', new Blob([PIXEL], { type: 'image/png' }), 'pixel.png');
      const uploaded = await fetch(`${direct}/api/v1/common/up-img`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customer.token}` },
        body: form,
      });
      const { url } = z.object({ data: z.object({ url: z.string() }) }).parse(await uploaded.json()).data;
      const title = `Console flows ${Date.now()}`;
      const pushed = await api(
        '/api/v1/common/pushFeedback',
        { title, content: 'Where is my <b>withdrawal</b>?', images: [url] },
        customer.token,
      );
      expect(pushed.code, pushed.message).toBe(200);
      const feedbackId = z.object({ id: z.string() }).parse(pushed.data).id;

      const support = await operator('support');
      const tab = await consoleAs(support);
      const { page } = tab;
      await openConsoleScreen(page, 'nav.feedback', 'feedback.title');
      // The screen opens on what awaits a reply.
      expect(await page.getByRole('table').innerText()).toContain(title);
      const drawer = await openDetail(page, feedbackId, 'feedback.detail_title');
      expect(await drawer.innerText()).toContain('Where is my <b>withdrawal</b>?');
      const thumb = drawer.getByRole('button', {
        name: t('feedback.show_image', { index: 1, count: 1 }),
        exact: true,
      });
      await thumb.locator('img').waitFor({ timeout: WAIT_MS });
      expect(await thumb.locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      await expectAccessible(page, 'feedback detail desktop');
      await thumb.click();
      const large = page.getByRole('dialog', { name: t('feedback.image_alt', { index: 1 }) });
      await large.getByRole('img', { name: t('feedback.image_alt', { index: 1 }) }).waitFor();
      await expectAccessible(page, 'feedback image');
      await large
        .getByRole('button', { name: t('common.close') })
        .first()
        .click();
      await large.waitFor({ state: 'hidden' });

      const reply = `We sent it ${Date.now()}`;
      await drawer.getByRole('button', { name: t('feedback.reply'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('feedback.reply') });
      await dialog.getByLabel(t('field.reply'), { exact: true }).fill(reply);
      await dialog.getByRole('button', { name: t('common.confirm'), exact: true }).click();
      await expect.poll(() => drawer.innerText()).toContain(t('feedback.status.replied'));
      expectNoErrors(tab);

      // The customer's app, opened again, pulls and shows the reply.
      await launch(app.page, ROUTES.home);
      await expectPage(app.page, appEn('tabs.home'));
      await goToPage(app.page, ROUTES.feedback, appEn('feedback.title'));
      await app.page.getByText(reply).first().waitFor({ timeout: 30_000 });
      expect(await app.page.getByText(title).count()).toBeGreaterThan(0);
      await expectAccessible(app.page, 'customer feedback with the reply');
    },
  );

  test(
    'the audit log filters by a time range with the other filters, and its CSV export takes the same filters',
    { timeout: 240_000 },
    async () => {
      const id = flows.withdrawalId;
      if (!id) throw new Error('no withdrawal from the first test');
      const compliance = await operator('compliance');
      const tab = await consoleAs(compliance);
      const { page } = tab;
      await openConsoleScreen(page, 'nav.audit', 'audit.title');
      const local = (at: Date) => {
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
      };
      const now = running().server.clock.now();
      const filter = async (values: Partial<Record<'action' | 'target' | 'from' | 'to', string>>) => {
        for (const [field, label] of [
          ['action', t('field.action')],
          ['target', t('field.target')],
          ['from', t('audit.from')],
          ['to', t('audit.to')],
        ] as const)
          await page.getByLabel(label, { exact: true }).fill(values[field] ?? '');
        await page.getByRole('button', { name: t('common.filter'), exact: true }).click();
        await page.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
      };
      const table = page.getByRole('table');

      // Within the last hour: the first approval is there.
      await filter({
        action: 'withdraw.first_approval',
        target: `withdrawal:${id}`,
        from: local(new Date(now.getTime() - 3600_000)),
        to: local(new Date(now.getTime() + 60_000)),
      });
      await expect.poll(() => table.innerText()).toContain(`withdrawal:${id}`);
      expect(await table.innerText()).not.toContain('withdraw.approved');

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: t('audit.export'), exact: true }).click();
      const csv = fs.readFileSync((await (await download).path()) ?? '', 'utf8');
      const rows = csv.trim().split('\n').slice(1);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toContain('withdraw.first_approval');

      // A range that ends before it: nothing.
      await filter({
        action: 'withdraw.first_approval',
        target: `withdrawal:${id}`,
        from: local(new Date(now.getTime() - 7200_000)),
        to: local(new Date(now.getTime() - 3600_000)),
      });
      await expect.poll(() => table.innerText()).not.toContain(`withdrawal:${id}`);
      await expectAccessible(page, 'audit filtered desktop');
      expectNoErrors(tab);
    },
  );

  test(
    'the withdrawal, feedback and audit screens are axe clean at desktop and phone width',
    { timeout: 300_000 },
    async () => {
      const screens: Array<[OperatorRole, MessageKey, MessageKey]> = [
        ['finance', 'nav.withdrawals', 'withdrawals.title'],
        ['support', 'nav.feedback', 'feedback.title'],
        ['compliance', 'nav.audit', 'audit.title'],
      ];
      for (const [role, key, title] of screens) {
        const who = role === 'finance' && flows.financeA ? flows.financeA : await operator(role);
        for (const viewport of [DESKTOP, PHONE]) {
          const tab = await consoleAs(who, viewport);
          await openConsoleScreen(tab.page, key, title);
          await expectAccessible(tab.page, `${key} ${viewport.width}`);
          if (key === 'nav.withdrawals' && flows.withdrawalId) {
            // The stage filter to "All" by keyboard (the dropdown's motion makes a click on it flaky):
            // open it on the chosen stage, up to "All" (the first), Enter.
            const stage = tab.page.getByLabel(t('field.stage'), { exact: true });
            await stage.focus();
            await stage.press('ArrowDown');
            await tab.page.locator('.ant-select-dropdown:visible').waitFor();
            await stage.press('ArrowUp');
            await stage.press('Enter');
            await expect
              .poll(() => tab.page.locator('.console-filters .ant-select').innerText())
              .toContain(t('common.all'));
            await tab.page.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
            await openDetail(tab.page, flows.withdrawalId, 'withdrawals.detail_title');
            await expectAccessible(tab.page, `withdrawal detail ${viewport.width}`);
          }
          expectNoErrors(tab);
        }
      }
    },
  );
});
