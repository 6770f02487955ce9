/**
 * Real-name verification end to end in Chromium (issue 24, docs/protocol.md §30): a customer
 * opens pages/setting/setting2 from Settings, fills the form with real JPEG images (one chosen
 * from the gallery, one "taken" with the camera input), and submits; offline the form says it
 * needs a connection and keeps what was typed; the status reads pending review, also offline
 * (from IndexedDB); a compliance operator opens the queue in the console, sees the whole number
 * and the images (enlarged on click) and approves; the phone shows verified after its next pull.
 * Every state of setting2 is axe clean in English and Chinese, the console screen at desktop
 * and at 390 px.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { en as consoleEn, type MessageKey } from '../../admin/i18n/en.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { httpAdminClient, setUpOperator, type AdminClient } from '../helpers/operator.js';
import { openConsoleScreen, signInToConsole } from './console-harness.js';
import {
  animationsSettled,
  e2eHarness,
  en,
  expectAccessible,
  expectNoErrors,
  expectPage,
  fill,
  hasChromium,
  keepScreen,
  navigateInApp,
  goToPage,
  PHONE,
  zh,
  WAIT_MS,
  DESKTOP,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const NUMBER = 'D12-345 678';
/** The number as the server masks it: compared upper case without spaces or hyphens, first and last two kept. */
const MASKED = 'D1*****78';
/** The whole number as compliance sees it (the compared form). */
const WHOLE = 'D12345678';

const t = (key: MessageKey, vars: Record<string, string> = {}) =>
  consoleEn[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => vars[name] ?? whole);

const infoSchema = z.object({ status: z.string(), documentNumber: z.string().nullable() });

/** A small real JPEG of one colour. */
const jpeg = (red: number) =>
  sharp({ create: { width: 48, height: 32, channels: 3, background: { r: red, g: 90, b: 40 } } })
    .jpeg()
    .toBuffer();

/** The status badge of setting2 reads `status` (in `words`' language). */
async function expectStatus(page: Page, words: (key: string) => string, status: string): Promise<void> {
  await expect
    .poll(() => page.getByTestId('identity-status').innerText(), { timeout: 60_000 })
    .toBe(words(`identity.status_${status}`));
}

/** setting2 is axe clean in English and in Chinese (switched on Settings, as a user does), then back in English. */
async function accessibleInBothLanguages(page: Page, state: string, status: string): Promise<void> {
  await expectAccessible(page, `setting2 ${state} en`);
  for (const [words, locale] of [
    [zh, 'zh-Hans'],
    [en, 'en'],
  ] as const) {
    await navigateInApp(page, ROUTES.settings);
    await page.locator('select.language-select__input').selectOption(locale);
    await expectPage(page, words('settings.title'));
    await goToPage(page, ROUTES.identity, words('identity.title'));
    await expectStatus(page, words, status);
    if (locale === 'zh-Hans') await expectAccessible(page, `setting2 ${state} zh-Hans`);
  }
}

/** Fills setting2's form for `type` with JPEGs from the gallery and submits it; the status reads pending. */
async function submitInApp(page: Page, type: 'passport' | 'id_card', number: string, name: string) {
  await page.getByRole('radio', { name: en(`identity.type_${type}`), exact: true }).check();
  await page.getByLabel(en('identity.document_number'), { exact: true }).fill(number);
  await page.getByLabel(en('identity.real_name'), { exact: true }).fill(name);
  const legends =
    type === 'passport'
      ? (['identity.image_photo_page', 'identity.image_holding'] as const)
      : (['identity.image_front', 'identity.image_back', 'identity.image_holding'] as const);
  for (const [index, legend] of legends.entries()) {
    await page
      .getByRole('group', { name: en(legend), exact: true })
      .getByLabel(en('identity.choose_image'), { exact: true })
      .setInputFiles({ name: `${index}.jpg`, mimeType: 'image/jpeg', buffer: await jpeg(40 + index * 60) });
  }
  await page.getByRole('button', { name: en('identity.submit'), exact: true }).click();
  await expectStatus(page, en, 'pending_review');
}

describe.skipIf(!hasChromium)('real-name verification in Chromium', () => {
  const { running, openTab, signedIn, api } = e2eHarness();

  /** A compliance operator set up as the console does (password changed, authenticator bound). */
  async function complianceOperator() {
    const { direct, server } = running();
    const client: AdminClient = {
      ...httpAdminClient(direct, () => server.clock.now()),
      createOperator: async (email, role, password) => {
        await server.services.operators.create(cliContext(), { email, role, password });
      },
    };
    return setUpOperator(client, `compliance.${Date.now()}@example.com`, 'compliance');
  }

  /** A customer signed in on a new phone-sized tab in English. */
  async function customerOnPhone(name: string) {
    const tab = await openTab('en-US', PHONE);
    return { tab, page: tab.page, customer: await signedIn(name, tab.page) };
  }

  /** Opens the review drawer of `email`'s submission from the queue; it shows the document number. */
  async function openDetails(review: Page, email: string) {
    await review.getByRole('button', { name: `${t('common.details')} ${email}`, exact: true }).click();
    const drawer = review.getByRole('dialog', { name: t('identity.detail_title', { email }) });
    await drawer.getByTestId('identity-number').waitFor();
    return drawer;
  }

  /** Signs the operator in to the console in English on a new tab of `viewport`; at the review screen. */
  async function consoleAt(
    viewport: { width: number; height: number },
    operator: Awaited<ReturnType<typeof complianceOperator>>,
  ) {
    const tab = await openTab('en-US', viewport);
    await signInToConsole(tab.page, running().base, operator);
    await openConsoleScreen(tab.page, 'nav.identity', 'identity.title');
    return tab;
  }

  test(
    'a customer submits with images from setting2 (offline it waits and keeps what was typed), reads pending also offline; compliance approves in the console; the phone shows verified after sync',
    { timeout: 420_000 },
    async () => {
      const { tab, page, customer } = await customerOnPhone('kyc');
      const info = async () =>
        infoSchema.parse((await api('/api/v1/user/identity-info', {}, customer.token)).data);

      // From Settings: the entry opens the page (no more "not yet open").
      await navigateInApp(page, ROUTES.settings);
      await page.getByRole('button', { name: en('settings.kyc'), exact: true }).click();
      await expectPage(page, en('identity.title'));
      await expectStatus(page, en, 'not_verified');
      await accessibleInBothLanguages(page, 'not verified', 'not_verified');

      // The form: a driving licence asks for the front, the back and a photo holding it.
      await page.getByRole('radio', { name: en('identity.type_driving_licence'), exact: true }).check();
      await page.getByLabel(en('identity.document_number'), { exact: true }).fill(NUMBER);
      await page.getByLabel(en('identity.real_name'), { exact: true }).fill('Ana Lima');
      const slots = [
        ['identity.image_front', 'identity.choose_image', 'front.jpg', 200],
        ['identity.image_back', 'identity.choose_image', 'back.jpg', 120],
        ['identity.image_holding', 'identity.take_photo', 'holding.jpg', 60],
      ] as const;
      for (const [legend, input, name, red] of slots) {
        await page
          .getByRole('group', { name: en(legend), exact: true })
          .getByLabel(en(input), { exact: true })
          .setInputFiles({ name, mimeType: 'image/jpeg', buffer: await jpeg(red) });
        await page
          .getByRole('img', { name: fill(en('identity.preview_alt'), { image: en(legend) }) })
          .waitFor();
      }
      await expectAccessible(page, 'setting2 form filled en');
      await keepScreen(page, 'identity-form');

      // Offline the submission waits for the user: it says why, and nothing typed is lost.
      await page.context().setOffline(true);
      const submit = page.getByRole('button', { name: en('identity.submit'), exact: true });
      await expect.poll(() => submit.isDisabled()).toBe(true);
      await page.getByText(en('identity.offline'), { exact: true }).first().waitFor();
      await page.context().setOffline(false);
      await expect.poll(() => submit.isDisabled()).toBe(false);
      expect(await page.getByLabel(en('identity.document_number'), { exact: true }).inputValue()).toBe(
        NUMBER,
      );
      expect(await page.getByRole('img', { name: /^Preview: / }).count()).toBe(3);

      await submit.click();
      await expectStatus(page, en, 'pending_review');
      await page.getByText(MASKED, { exact: true }).waitFor();
      await page.getByText('Ana Lima', { exact: true }).waitFor();
      expect(await info()).toEqual({ status: 'pending_review', documentNumber: MASKED });
      expect(await page.getByRole('button', { name: en('identity.submit') }).count()).toBe(0);
      await accessibleInBothLanguages(page, 'pending', 'pending_review');

      // Offline, the status reads from the device.
      await page.context().setOffline(true);
      await goToPage(page, ROUTES.settings, en('settings.title'));
      await goToPage(page, ROUTES.identity, en('identity.title'));
      await expectStatus(page, en, 'pending_review');
      await page.getByText(MASKED, { exact: true }).waitFor();
      await page.context().setOffline(false);

      // A compliance operator reviews it in the console.
      const operator = await complianceOperator();
      const desk = await consoleAt(DESKTOP, operator);
      const review = desk.page;
      await expectAccessible(review, 'identity queue en desktop');
      const drawer = await openDetails(review, customer.email);
      expect(await drawer.getByTestId('identity-number').innerText()).toBe(WHOLE);
      const images = drawer.getByRole('img', {
        name: new RegExp(`of ${customer.email.replace(/\./g, '\\.')}$`),
      });
      await expect.poll(() => images.count()).toBe(3);
      // The signed links load in an <img> (decoded by the browser: the bytes are an image).
      await expect
        .poll(() => images.first().evaluate((img) => (img as HTMLImageElement).naturalWidth), {
          timeout: WAIT_MS,
        })
        .toBeGreaterThan(0);
      await expectAccessible(review, 'identity detail en desktop');
      await review.bringToFront();
      await drawer.getByRole('button', { name: t('identity.enlarge', { index: '1' }), exact: true }).click();
      await review.locator('.ant-image-preview').first().waitFor();
      await review.keyboard.press('Escape');
      // The console runs with reduced motion here (console-harness's openConsole): no fade, the
      // preview goes at once.
      await review.locator('.ant-image-preview').first().waitFor({ state: 'hidden' });

      await review.bringToFront();
      await drawer.getByRole('button', { name: t('identity.approve'), exact: true }).click();
      const confirmDialog = review.getByRole('dialog').filter({
        hasText: t('identity.confirm_approve', {
          email: customer.email,
          name: 'Ana Lima',
          type: t('identity.type.driving_licence'),
          number: WHOLE,
        }),
      });
      await confirmDialog.waitFor();
      await animationsSettled(review); // a click while the dialog still zooms in can miss
      await confirmDialog.getByRole('button', { name: t('common.confirm'), exact: true }).click();
      await confirmDialog.waitFor({ state: 'hidden' });
      await expect.poll(async () => (await info()).status, { timeout: WAIT_MS }).toBe('approved');
      await expect
        .poll(() => drawer.innerText(), { timeout: WAIT_MS })
        .toContain(t('identity.status.approved'));
      await keepScreen(review, 'identity-console-approved');
      expectNoErrors(desk);

      // The queue at phone width.
      const phoneDesk = await consoleAt({ width: 390, height: 844 }, operator);
      await expectAccessible(phoneDesk.page, 'identity queue en 390');
      expectNoErrors(phoneDesk);

      // The phone: verified after its next pull (opening the page pulls).
      await goToPage(page, ROUTES.settings, en('settings.title'));
      await navigateInApp(page, ROUTES.identity);
      await expectStatus(page, en, 'approved');
      expect(await page.getByLabel(en('identity.document_number')).count()).toBe(0);
      await accessibleInBothLanguages(page, 'approved', 'approved');
      // Requests that failed while the context was offline are the only errors allowed.
      expect(tab.errors.filter((error) => !/ERR_INTERNET_DISCONNECTED/.test(error))).toEqual([]);
    },
  );

  test(
    'compliance rejects in the console for "other" with words of its own; setting2 shows the reason and the words, and the form to submit again',
    { timeout: 420_000 },
    async () => {
      const { tab, page, customer } = await customerOnPhone('kycreject');
      await goToPage(page, ROUTES.identity, en('identity.title'));
      // A passport has no back.
      await page.getByRole('radio', { name: en('identity.type_passport'), exact: true }).check();
      expect(await page.getByRole('group', { name: en('identity.image_back'), exact: true }).count()).toBe(0);
      await submitInApp(page, 'passport', 'P7654321', 'Bo Chen');

      const operator = await complianceOperator();
      const desk = await consoleAt(DESKTOP, operator);
      const review = desk.page;
      const drawer = await openDetails(review, customer.email);
      await review.bringToFront();
      await drawer.getByRole('button', { name: t('identity.reject'), exact: true }).click();
      const dialog = review.getByRole('dialog', { name: t('identity.reject'), exact: true });
      await dialog.waitFor();
      await animationsSettled(review); // a click while the dialog still zooms in can miss
      await dialog.getByLabel(t('field.reason'), { exact: true }).click();
      await review
        .locator('.ant-select-dropdown:visible')
        .getByTitle(t('identity.reason.other'), { exact: true })
        .click();
      await expect
        .poll(() => dialog.innerText())
        .toContain(
          t('identity.confirm_reject', { email: customer.email, reason: t('identity.reason.other') }),
        );
      // "Other" needs the reviewer's words.
      await dialog.getByRole('button', { name: t('common.confirm'), exact: true }).click();
      await dialog.getByText(t('field.required', { field: t('field.note') })).waitFor();
      await expectAccessible(review, 'identity reject dialog en desktop');
      const note = 'The photo page is cut off at the bottom';
      await dialog.getByLabel(t('field.note'), { exact: true }).fill(note);
      await dialog.getByRole('button', { name: t('common.confirm'), exact: true }).click();
      await expect
        .poll(() => drawer.innerText(), { timeout: WAIT_MS })
        .toContain(t('identity.status.rejected'));
      expectNoErrors(desk);

      // The phone: rejected, the reason in words and the reviewer's, and the form again.
      await goToPage(page, ROUTES.settings, en('settings.title'));
      await navigateInApp(page, ROUTES.identity);
      await expectStatus(page, en, 'rejected');
      await page.getByText(en('identity.reason_other'), { exact: true }).waitFor();
      await page.getByText(note, { exact: true }).waitFor();
      await page.getByRole('button', { name: en('identity.submit'), exact: true }).waitFor();
      await accessibleInBothLanguages(page, 'rejected', 'rejected');
      await keepScreen(page, 'identity-rejected');
      expect(tab.errors).toEqual([]);
    },
  );
});
