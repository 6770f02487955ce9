/**
 * A USDT deposit in Chromium (issue "Money core 2"): the recharge page shows the account's BEP20
 * address with its QR code; a payment on a real local EVM chain appears as confirming, then held,
 * then credited, and the Assets tab follows. The test mines the chain's blocks and ticks the
 * watcher itself, so each step is seen in order.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { bep20Env, useTestDevnet } from '../helpers/devnet.js';
import { e2eHarness, en, expectAccessible, goToPage, hasChromium, navigateInApp } from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const FINALITY = 5;
/** The recharge page pulls every 10 s while open; allow a couple of rounds. */
const SYNC_MS = 30_000;

describe.skipIf(!hasChromium)('a deposit in Chromium', () => {
  const chain = useTestDevnet();
  const { running, openTab, api, signedIn } = e2eHarness({ env: () => bep20Env(chain(), FINALITY) });

  /** Mines `blocks`, then lets the watcher catch up. */
  async function advance(blocks: number) {
    if (blocks > 0) await chain().mine(blocks);
    const [watcher] = running().server.watchers;
    if (!watcher) throw new Error('no BEP20 watcher');
    for (let i = 0; i < 5; i += 1) await watcher.tick();
  }
  /** The figure the Assets tab shows under a label (a dt and its dd). */
  const figure = async (page: Page, label: string) =>
    (
      await page
        .locator('dt', { hasText: en(label) })
        .locator('xpath=following-sibling::dd')
        .innerText()
    ).trim();
  const depositLine = (page: Page) => page.getByRole('listitem').filter({ hasText: '12.5 USDT' });

  test(
    'the address and its QR code are shown; a devnet payment goes confirming, held, credited, and the Assets tab follows',
    { timeout: 300_000 },
    async () => {
      const { page } = await openTab('en-US');
      const { token } = await signedIn('deposit', page);
      const expected = z
        .object({ address: z.string() })
        .parse((await api('/api/v1/recharge/address', { chain: 'BEP20' }, token)).data).address;

      await goToPage(page, ROUTES.recharge, en('recharge.title'));
      await page.getByText(expected, { exact: true }).waitFor({ timeout: SYNC_MS });
      await page
        .getByRole('img', { name: en('recharge.qr_alt').replace('{{chain}}', 'BEP20'), exact: true })
        .waitFor();
      await page.getByRole('button', { name: en('recharge.copy_address'), exact: true }).waitFor();
      await expectAccessible(page, 'recharge');

      await chain().pay(expected, '12.5');
      await advance(0);
      const line = depositLine(page);
      await expect
        .poll(() => line.innerText(), { timeout: SYNC_MS })
        .toContain(en('recharge.status_confirming').replace('{{count}}', '1').replace('{{required}}', '3'));

      await advance(2);
      await expect
        .poll(() => line.innerText(), { timeout: SYNC_MS })
        .toContain(en('recharge.status_held_other').replace('{{count}}', String(FINALITY)));
      await goToPage(page, ROUTES.my, en('tabs.assets'));
      await expect.poll(() => figure(page, 'my.held'), { timeout: SYNC_MS }).toBe('12.5 USDT');
      expect(await figure(page, 'my.cash')).toBe('0 USDT');

      await advance(FINALITY);
      await navigateInApp(page, ROUTES.recharge);
      await expect
        .poll(() => depositLine(page).innerText(), { timeout: SYNC_MS })
        .toContain(en('recharge.status_credited'));
      await navigateInApp(page, ROUTES.my);
      await expect.poll(() => figure(page, 'my.cash'), { timeout: SYNC_MS }).toBe('12.5 USDT');
      expect(await figure(page, 'my.held')).toBe('0 USDT');
    },
  );
});
