/**
 * Proof of reserves in Chromium (issue 27, docs/protocol.md §32 "In the app"): after an operator
 * takes a snapshot, a funded customer opens "Proof of reserves" from the Assets tab and reads their
 * balance in the snapshot and the share the platform held; the path is recomputed on the device
 * ("Verified on this device"); each step shows on request; the downloaded JSON is the proof exactly
 * as the server gives it and verifies with contract/reserves.ts; offline (the link cut), the kept
 * proof still shows with its age, verified again on the device, and a kept leaf changed by one
 * minor unit is shown as not verified; the static /reserves/verify.html verifies the downloaded
 * file; the page passes axe in English and Chinese on a phone.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { reservesProofSchema, reservesSnapshotSchema } from '../../contract/api/reserves.js';
import { verifyPath } from '../../contract/reserves.js';
import { bep20Env, useTestDevnet } from '../helpers/devnet.js';
import { amountOfUnits, proofInputs } from '../../src/features/reserves/reserves-view.js';
import { percentOf } from '../../src/ui/amounts.js';
import {
  e2eHarness,
  en,
  expectAccessible,
  expectPage,
  expectNoAppErrors,
  expectNoErrors,
  fill,
  hasChromium,
  keepScreen,
  navigateInApp,
  goToPage,
  zh,
  WAIT_MS,
} from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

/** A pattern of a catalogue sentence with its values filled and `{{time}}` any text. */
function sentencePattern(template: string, values: Record<string, string>): RegExp {
  const [before = '', after = ''] = fill(template, values).split('{{time}}');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(before)}.+${escape(after)}$`);
}

describe.skipIf(!hasChromium)('proof of reserves in Chromium', () => {
  // A local BEP20 chain with the hot wallet, so the snapshot reads what the chain holds (a ratio).
  const chain = useTestDevnet();
  const { running, goOffline, api, customerTab, registered } = e2eHarness({
    proxy: true,
    env: () => bep20Env(chain(), 5, true),
  });

  /** An operator's snapshot through the admin API: what it answered. */
  async function snapshotNow(finance: string) {
    const answer = await api('/api/admin/reserves/snapshot', {}, finance);
    expect(answer.code, answer.message).toBe(200);
    return reservesSnapshotSchema.parse(answer.data);
  }

  /** From the Assets tab, the "Proof of reserves" link. */
  async function openFromAssets(page: Page, t: (key: string) => string): Promise<void> {
    await goToPage(page, ROUTES.my, t('tabs.assets'));
    await page.getByRole('link', { name: t('reserves.title'), exact: true }).click();
    await expectPage(page, t('reserves.title'));
  }

  test(
    'the balance in the snapshot and the share held, verified on the device, each step, the proof downloaded as the server gives it, offline from the kept copy (changed by one minor unit it is not verified), and verify.html accepts the file',
    { timeout: 300_000 },
    async () => {
      const { finance, tab, page, token } = await customerTab('en-US', 'reserves', {
        t: en,
        funds: { USDT: '20', RAB: '5' },
        reason: 'e2e reserves',
      });
      // Other customers, so the proof climbs at least one level beside a sibling.
      await registered('reserves-other');
      await registered('reserves-third');
      const snapshot = await snapshotNow(finance);
      const served = await api('/api/v1/reserves/proof', {}, token);
      expect(served.code, served.message).toBe(200);
      const proof = reservesProofSchema.parse(served.data);
      expect(proof.snapshotId).toBe(snapshot.snapshotId);
      expect([proof.leaf.usdt, proof.leaf.rab]).toEqual(['20000000', '5000000']);

      await openFromAssets(page, en);
      // The devnet's hot wallet was read: the sentence names the share held, the ratio × 100.
      expect(snapshot.reserves.BEP20).not.toBeNull();
      const percent = snapshot.ratio === null ? null : percentOf(snapshot.ratio);
      if (percent === null) throw new Error(`no ratio in ${JSON.stringify(snapshot)}`);
      const values = { usdt: amountOfUnits(proof.leaf.usdt), rab: amountOfUnits(proof.leaf.rab) };
      const sentence = sentencePattern(en('reserves.sentence'), { ...values, percent });
      await page.getByText(sentence).waitFor({ timeout: 30_000 });
      expect(await page.getByText(sentence).textContent()).toContain('20 USDT and 5 RAB');
      await page.getByText(en('reserves.verified'), { exact: true }).waitFor({ timeout: WAIT_MS });
      await expectAccessible(page, 'reserves (en)');
      await keepScreen(page, 'reserves-en');

      // Each step: the leaf, each level's hash and sums, and the published root.
      await page.getByRole('button', { name: en('reserves.show_steps'), exact: true }).click();
      await page.getByText(en('reserves.step_leaf'), { exact: true }).waitFor();
      expect(proof.path.length).toBeGreaterThan(0);
      for (let level = 1; level <= proof.path.length; level += 1) {
        await page.getByText(fill(en('reserves.step_level'), { level }), { exact: true }).waitFor();
      }
      await page.locator('code', { hasText: proof.root.hash }).first().waitFor();
      for (const step of proof.path) await page.locator('code', { hasText: step.hash }).first().waitFor();
      expect(
        await page
          .getByRole('button', { name: en('reserves.hide_steps'), exact: true })
          .getAttribute('aria-expanded'),
      ).toBe('true');
      await expectAccessible(page, 'reserves (en, steps)');
      await keepScreen(page, 'reserves-en-steps');

      // The download is the proof exactly as the server gives it, and it verifies independently.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: en('reserves.download'), exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`coffer-proof-of-reserves-${proof.snapshotId}.json`);
      const file = await download.path();
      const downloaded: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(downloaded).toEqual(served.data);
      const { leaf, path, root } = proofInputs(reservesProofSchema.parse(downloaded));
      expect((await verifyPath(leaf, path, root)).ok).toBe(true);

      // Offline: the kept proof, with its age, verified again on the device.
      const { base } = running();
      await goOffline(page);
      await page.context().setOffline(true);
      await goToPage(page, ROUTES.my, en('tabs.assets'));
      await goToPage(page, ROUTES.reserves, en('reserves.title'));
      await page.getByText(sentence).waitFor({ timeout: WAIT_MS });
      await page.getByText(en('reserves.verified'), { exact: true }).waitFor({ timeout: WAIT_MS });
      await page.getByText(en('reserves.saved'), { exact: true }).waitFor({ timeout: 60_000 });
      await page.getByText(/^As of /).waitFor();
      await keepScreen(page, 'reserves-en-offline');

      // The kept leaf changed by one minor unit (still offline, so no answer replaces it): the
      // page, opened again, says plainly that the proof is not verified.
      await page.evaluate(async () => {
        const names = (await indexedDB.databases()).map((db) => db.name ?? '');
        const name = names.find((candidate) => /^coffer-u\d+$/.test(candidate));
        if (!name) throw new Error(`no user database among ${names.join(', ')}`);
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open(name);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('open failed'));
        });
        await new Promise<void>((resolve, reject) => {
          const store = db.transaction('reservesProof', 'readwrite').objectStore('reservesProof');
          const read = store.get('latest');
          read.onsuccess = () => {
            const row = read.result as { proof: { leaf: { usdt: string } } }; // the kept row, read above
            row.proof.leaf.usdt = String(BigInt(row.proof.leaf.usdt) + 1n);
            const write = store.put(row);
            write.onsuccess = () => resolve();
            write.onerror = () => reject(write.error ?? new Error('put failed'));
          };
          read.onerror = () => reject(read.error ?? new Error('get failed'));
        });
        db.close();
      });
      await goToPage(page, ROUTES.my, en('tabs.assets'));
      await navigateInApp(page, ROUTES.reserves);
      await page.getByText(en('reserves.not_verified'), { exact: true }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByText(en('reserves.verified'), { exact: true }).count()).toBe(0);
      await page
        .getByText(/20\.000001 USDT/)
        .first()
        .waitFor();
      await page.context().setOffline(false);
      running().proxy?.up();

      // The static verifier accepts the downloaded file.
      const verifier = await page.context().newPage();
      await verifier.goto(`${base}/reserves/verify.html`);
      await verifier.getByLabel('Proof file (JSON)').setInputFiles(file);
      await verifier.getByText(/^Verified: a balance of 20 USDT and 5 RAB/).waitFor({ timeout: WAIT_MS });
      await verifier.close();
      expectNoAppErrors(tab);
    },
  );

  test(
    'in Chinese: the page, its sentence, its steps and its labels read in Chinese and pass axe',
    {
      timeout: 180_000,
    },
    async () => {
      const { finance, tab, page } = await customerTab('zh-CN', 'reserves-zh', {
        t: zh,
        funds: { USDT: '1.5' },
        reason: 'e2e reserves',
      });
      await snapshotNow(finance);
      await openFromAssets(page, zh);
      await page.getByText(zh('reserves.verified'), { exact: true }).waitFor({ timeout: 30_000 });
      await page
        .getByText(/1\.5 USDT/)
        .first()
        .waitFor();
      await expectAccessible(page, 'reserves (zh-Hans)');
      await page.getByRole('button', { name: zh('reserves.show_steps'), exact: true }).click();
      await page.getByText(zh('reserves.step_leaf'), { exact: true }).waitFor();
      await expectAccessible(page, 'reserves (zh-Hans, steps)');
      await keepScreen(page, 'reserves-zh-steps');
      expectNoErrors(tab);
    },
  );
});
