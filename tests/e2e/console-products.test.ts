/**
 * The console's Products and settings screen in Chromium, end to end, as a finance operator
 * (signed in with an authenticator code): adds a hosting product and a machine and edits the
 * product, makes a weekday a holiday in the month view (by keyboard), previews a delivery CSV
 * file with one bad line (the line's error is shown and nothing is sent), fixes it and imports
 * it, withdraws one record; each effect is read back through the admin API. Every section is
 * axe clean at desktop width and at phone width (390 px).
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { MessageKey } from '../../admin/i18n/en.js';
import { consoleText as en, openConsole as openConsoleAt, signInToConsole } from './console-harness.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { httpAdminClient, setUpOperator, type ReadyOperator } from '../helpers/operator.js';
import {
  e2eHarness,
  expectAccessible,
  expectNoErrors,
  expectPage,
  hasChromium,
  PHONE,
  type Tab,
  DESKTOP,
} from './harness.js';
import { SECTIONS, type Section } from '../../admin/pages/products/sections.js';

const HEADER =
  'orderNo,symbol,direction,lots,leverage,openPrice,closePrice,openTime,closeTime,margin,spread,profitLoss';
const line = (orderNo: string, direction: string) =>
  `${orderNo},XAUUSD,${direction},1.5,100,2350.10,2361.45,2026-11-02T09:30:00+08:00,2026-11-02T15:00:00+08:00,2350.1,0.3,1702.5`;

const listOf = <T extends z.ZodRawShape>(shape: T) => z.object({ items: z.array(z.object(shape)) });

/** The first Monday to Friday of the month after `now` (UTC), `YYYY-MM-DD`. */
function weekdayNextMonth(now: Date): string {
  for (let day = 1; ; day += 1) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day));
    if (date.getUTCDay() >= 1 && date.getUTCDay() <= 5) return date.toISOString().slice(0, 10);
  }
}

describe.skipIf(!hasChromium)('the console’s Products and settings screen in Chromium', () => {
  const { running, openTab, api, newAddress } = e2eHarness();
  let finance: ReadyOperator | undefined;
  let tab: Tab | undefined;
  let token = '';

  const page = (): Page => {
    if (!tab) throw new Error('the console is not open');
    return tab.page;
  };
  /** A new tab on Products and settings, in English, in the session the first test signed in. */
  const openConsole = async (viewport = DESKTOP) => {
    if (!token) throw new Error('the operator did not sign in');
    tab = await openTab('en-US', viewport);
    await tab.page.context().addInitScript((saved: string) => {
      sessionStorage.setItem('coffer-console-token', saved);
      localStorage.setItem('coffer-console-language', 'en');
    }, token);
    await openConsoleAt(tab.page, running().base, '/admin/products');
    await expectPage(tab.page, en('products.title'));
    return tab.page;
  };
  const read = async <S extends z.ZodType>(uri: string, schema: S, params: Record<string, unknown> = {}) => {
    const answer = await api(uri, params, token);
    expect(answer.code, answer.message).toBe(200);
    return schema.parse(answer.data) as z.output<S>;
  };
  /** Shows a section: its button (a radio input, hidden behind its label) by its label. */
  const showSection = async (section: Section) => {
    await page()
      .locator('label.ant-radio-button-wrapper')
      .filter({ has: page().getByRole('radio', { name: en(`products.${section}`), exact: true }) })
      .click();
    await page().locator('.ant-spin-spinning').waitFor({ state: 'detached' });
  };
  const dialogConfirm = async (name: MessageKey) => {
    const dialog = page().getByRole('dialog', { name: en(name) });
    await dialog.getByRole('button', { name: en('common.confirm'), exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  };
  /** The confirm dialog stating `effect`, confirmed. */
  const confirmEffect = async (effect: string) => {
    const dialog = page().getByRole('dialog').filter({ hasText: effect });
    await dialog.getByRole('button', { name: en('common.confirm'), exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  };

  test(
    'a finance operator signs in with an authenticator code and opens Products and settings',
    { timeout: 240_000 },
    async () => {
      const { direct, server } = running();
      finance = await setUpOperator(
        {
          ...httpAdminClient(direct, () => server.clock.now()),
          createOperator: async (email, role, password) => {
            await server.services.operators.create(cliContext(), { email, role, password });
          },
        },
        newAddress('products'),
        'finance',
      );
      tab = await openTab('en-US', DESKTOP);
      const signIn = page();
      await signInToConsole(signIn, running().base, finance);
      token = (await signIn.evaluate(() => sessionStorage.getItem('coffer-console-token'))) ?? '';
      expect(token).not.toBe('');
      await signIn
        .getByRole('navigation', { name: en('shell.menu') })
        .getByRole('menuitem', { name: en('nav.products'), exact: true })
        .click();
      await expectPage(signIn, en('products.title'));
    },
  );

  test('a hosting product added and then edited in the console is on offer with the new terms', async () => {
    const p = await openConsole();
    const name = `Console plan ${Date.now()}`;
    await showSection('hosting');
    await p.getByRole('button', { name: en('products.hosting_add'), exact: true }).click();
    const dialog = p.getByRole('dialog', { name: en('products.hosting_add') });
    const label = (key: MessageKey, vars?: Record<string, string>) =>
      dialog.getByLabel(en(key, vars), { exact: true });
    await label('products.name_in', { language: en('locale.zh-Hans') }).fill(`${name} 中文`);
    await label('products.name_in', { language: en('locale.en') }).fill(name);
    await label('products.term_days').fill('30');
    await label('products.daily_rate').fill('0.0035');
    await label('products.minimum').fill('100');
    await label('products.maximum').fill('10000');
    await dialog.getByRole('radio', { name: en('products.payout.daily'), exact: true }).check();
    await dialog.getByRole('radio', { name: en('products.early_exit.yes'), exact: true }).check();
    await label('products.penalty_rate').fill('0.01');
    await expect
      .poll(() => dialog.innerText())
      .toContain(
        en('products.confirm_hosting_add', {
          name: `${name} 中文`,
          days: '30',
          rate: '0.0035',
          minimum: '100',
          maximum: '10000',
          payout: en('products.payout.daily'),
        }),
      );
    await dialogConfirm('products.hosting_add');

    const products = listOf({
      id: z.string(),
      names: z.record(z.string(), z.string()),
      days: z.number(),
      dailyRate: z.string(),
      minimum: z.string(),
      maximum: z.string(),
      payout: z.string(),
      earlyExit: z.boolean(),
      penaltyRate: z.string(),
      status: z.string(),
    });
    const added = async () =>
      (await read('/api/admin/hosting/product/list', products)).items.find(
        (item) => item.names['en'] === name,
      );
    await expect.poll(async () => (await added())?.dailyRate).toBe('0.0035');
    expect(await added()).toMatchObject({
      days: 30,
      minimum: '100',
      maximum: '10000',
      payout: 'daily',
      earlyExit: true,
      penaltyRate: '0.01',
      status: 'active',
    });
    expect((await added())?.names['zh-Hans']).toBe(`${name} 中文`);

    await p.getByRole('button', { name: `${en('products.edit')} ${name}`, exact: true }).click();
    const edit = p.getByRole('dialog', { name: en('products.hosting_edit') });
    await expect
      .poll(() => edit.getByLabel(en('products.maximum'), { exact: true }).inputValue())
      .toBe('10000');
    await edit.getByLabel(en('products.maximum'), { exact: true }).fill('5000');
    await dialogConfirm('products.hosting_edit');
    await expect.poll(async () => (await added())?.maximum).toBe('5000');
    expect((await added())?.days).toBe(30);
  });

  test('a machine added in the console is on offer with its terms', async () => {
    const p = await openConsole();
    const name = `Console miner ${Date.now()}`;
    await showSection('machines');
    await p.getByRole('button', { name: en('products.machines_add'), exact: true }).click();
    const dialog = p.getByRole('dialog', { name: en('products.machines_add') });
    const label = (key: MessageKey, vars?: Record<string, string>) =>
      dialog.getByLabel(en(key, vars), { exact: true });
    await label('products.name_in', { language: en('locale.zh-Hans') }).fill(name);
    await label('products.hash_power').fill('12.5');
    await label('products.price').fill('800');
    await label('products.ticket_price').fill('5');
    await label('products.term_days').fill('180');
    await label('products.daily_output').fill('0.35');
    await label('products.rent_price').fill('6');
    await dialogConfirm('products.machines_add');
    const machines = listOf({
      names: z.record(z.string(), z.string()),
      hashPower: z.string(),
      price: z.string(),
      ticketPrice: z.number(),
      days: z.number(),
      dailyOutput: z.string(),
      rentPrice: z.string().nullable(),
    });
    const added = async () =>
      (await read('/api/admin/machine/list', machines)).items.find((item) => item.names['zh-Hans'] === name);
    await expect.poll(async () => (await added())?.hashPower).toBe('12.5');
    expect(await added()).toMatchObject({
      price: '800',
      ticketPrice: 5,
      days: 180,
      dailyOutput: '0.35',
      rentPrice: '6',
    });
    // One name given: every language takes it.
    expect((await added())?.names['en']).toBe(name);
  });

  test('a weekday made a holiday in the month view (by keyboard) is a holiday in the calendar', async () => {
    const p = await openConsole();
    await showSection('calendar');
    await p.getByRole('button', { name: en('products.month_next'), exact: true }).click();
    const date = weekdayNextMonth(new Date());
    const day = p.locator(`button[data-date="${date}"]`);
    // The button's name: the day and its short state, then the whole date and state.
    const full = day.locator('.console-day-full');
    const before = ((await full.textContent()) ?? '').replace(/^, /, '');
    expect(before).toContain(en('products.day_working'));
    const longDate = before.split(':')[0] ?? '';
    await day.focus();
    await p.keyboard.press('Enter');
    await confirmEffect(en('products.confirm_day_holiday', { date: longDate }));
    await expect.poll(() => full.textContent()).toBe(`, ${longDate}: ${en('products.day_holiday')}`);
    const calendar = listOf({ date: z.string(), kind: z.string() });
    expect((await read('/api/admin/calendar/list', calendar)).items).toContainEqual({
      date,
      kind: 'holiday',
    });
  });

  test('a delivery CSV file with a bad line is previewed with the line’s error and not sent; fixed, it is published whole', async () => {
    const p = await openConsole();
    const stamp = Date.now();
    const first = `CSV${stamp}A`;
    const second = `CSV${stamp}B`;
    const records = listOf({ id: z.string(), orderNo: z.string() });
    const published = async () =>
      (await read('/api/v1/hosting/delivery-list', records)).items.map((item) => item.orderNo);
    await showSection('delivery');
    const file = p.getByLabel(en('products.delivery_file'), { exact: true });
    const send = p.getByRole('button', {
      name: en('products.delivery_import_send', { count: 2 }),
      exact: true,
    });

    await file.setInputFiles({
      name: 'trades.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([HEADER, line(first, 'buy'), line(second, 'up')].join('\n')),
    });
    await expect
      .poll(() => p.getByRole('status').first().innerText())
      .toBe(en('products.csv.bad_lines', { count: 1, total: 2 }));
    const badRow = p.getByRole('row').filter({ hasText: second });
    expect(await badRow.innerText()).toContain(
      en('products.csv.row_invalid', { line: 3, field: en('products.delivery.direction') }),
    );
    expect(await p.getByRole('row').filter({ hasText: first }).innerText()).toContain(
      en('products.csv.line_ok'),
    );
    expect(await send.isDisabled()).toBe(true);
    expect(await published()).not.toContain(first);

    await file.setInputFiles({
      name: 'trades-fixed.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([HEADER, line(first, 'buy'), line(second, 'sell')].join('\r\n')),
    });
    await expect
      .poll(() => p.getByRole('status').first().innerText())
      .toBe(en('products.csv.ready', { count: 2 }));
    await expectAccessible(p, 'delivery preview desktop');
    await send.click();
    await confirmEffect(en('products.confirm_delivery_import', { count: 2, file: 'trades-fixed.csv' }));
    await expect
      .poll(() => p.getByRole('status').first().innerText())
      .toBe(en('products.delivery_imported', { count: 2 }));
    await expect.poll(published).toEqual(expect.arrayContaining([first, second]));

    await p.getByRole('button', { name: `${en('products.remove')} ${second}`, exact: true }).click();
    await confirmEffect(en('products.confirm_delivery_delete', { orderNo: second }));
    await expect.poll(published).not.toContain(second);
    expect(await published()).toContain(first);
  });

  test(
    'every section of Products and settings is axe clean at desktop width and at 390 px',
    { timeout: 180_000 },
    async () => {
      const p = await openConsole();
      for (const viewport of [DESKTOP, PHONE]) {
        await p.setViewportSize(viewport);
        for (const section of SECTIONS) {
          await showSection(section);
          await expectAccessible(p, `products ${section} ${viewport.width}`);
        }
      }
      // The hosting dialog with every field, at phone width.
      await showSection('hosting');
      await p.getByRole('button', { name: en('products.hosting_add'), exact: true }).click();
      await p.getByRole('dialog', { name: en('products.hosting_add') }).waitFor();
      await expectAccessible(p, 'hosting dialog 390');
      if (tab) expectNoErrors(tab);
    },
  );
});
