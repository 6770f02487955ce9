/**
 * Issue 15 in Chromium: a client built before the server chose its segments (this file's build
 * knows nothing of them) reads them at run time from /client-config.json and logs in through
 * the UI over the envelope gateway the server names; and the app runs under the server's strict
 * Content-Security-Policy without one violation (the page's `securitypolicyviolation` events
 * and Chromium's "Refused to ..." console errors, the worker's included, are both watched).
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { e2eHarness, en, expectNoErrors, hasChromium, goToPage, SLOW, WAIT_MS, type Tab } from './harness.js';
import { ROUTES } from '../../src/app/paths.js';

const GATEWAY_SEGMENT = 'gate7x';
const UPLOAD_SEGMENT = 'files7x';

/** Records every CSP violation the document reports, from before its first script runs. */
async function watchViolations(tab: Tab): Promise<void> {
  await tab.page.context().addInitScript(() => {
    const seen: string[] = [];
    Reflect.set(window, '__cspViolations', seen);
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile})`);
    });
  });
  // Chromium also reports a refusal as a console message, of any level; a worker's only there.
  const listen = (source: string) => (message: ConsoleMessage) => {
    if (/Refused to|Content Security Policy/i.test(message.text()))
      tab.errors.push(`csp (${source}): ${message.text()}`);
  };
  tab.page.on('console', listen('page'));
  tab.page.on('worker', (worker) => worker.on('console', listen(`worker ${worker.url()}`)));
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen: unknown = Reflect.get(window, '__cspViolations');
    return Array.isArray(seen) ? seen.map(String) : ['the violation watcher is missing'];
  });
}

describe.skipIf(!hasChromium)('run-time client configuration and the CSP, in Chromium', () => {
  const { running, openTab, api, signedIn } = e2eHarness({
    env: () => ({ COFFER_GATEWAY_SEGMENT: GATEWAY_SEGMENT, COFFER_UPLOAD_SEGMENT: UPLOAD_SEGMENT }),
  });

  test(
    'a build that never heard of the segments logs in through the UI over the gateway the server names, with no CSP violation',
    SLOW,
    async () => {
      const tab = await openTab('en-US');
      await watchViolations(tab);
      const { page } = tab;
      const { token } = await signedIn('served-config', page);

      const paths = tab.apiCalls.map((url) => new URL(url).pathname);
      expect(paths).toContain(`/api/${GATEWAY_SEGMENT}`);
      // Envelope calls only: nothing went to the default gateway or around the envelope.
      expect(paths.filter((path) => path !== `/api/${GATEWAY_SEGMENT}`)).toEqual([]);
      const configRead = await page.evaluate(async () => (await fetch('/client-config.json')).json());
      expect(configRead).toMatchObject({ gatewayPath: `/api/${GATEWAY_SEGMENT}`, transport: 'envelope' });

      // The service worker registers and controls the page under worker-src 'self'.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });

      // A QR code (an SVG data: image) on the authenticator page.
      await goToPage(page, ROUTES.updatePassword3, en('settings.authenticator'));
      await page.getByTestId('authenticator-secret').waitFor({ timeout: WAIT_MS });
      await page.getByRole('img', { name: en('security.qr_alt') }).waitFor({ timeout: WAIT_MS });

      // The share poster: a QR code drawn from a PNG data: image onto a canvas, saved as a PNG.
      const info = await api('/api/v1/user/info', {}, token);
      const inviteCode = z.object({ inviteCode: z.string() }).parse(info.data).inviteCode;
      await goToPage(page, ROUTES.sharePoster, en('team.poster_title'));
      const qrAlt = en('team.poster_qr_alt').replace('{{code}}', inviteCode);
      await page.getByRole('img', { name: qrAlt, exact: true }).waitFor({ timeout: WAIT_MS });
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: en('team.poster_save'), exact: true }).click();
      expect((await download).suggestedFilename()).toBe(`coffer-invite-${inviteCode}.png`);

      // A reload, served by the service worker's precache this time.
      await page.reload();
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: WAIT_MS });

      expect(await violations(page)).toEqual([]);
      expectNoErrors(tab);
      const headers = (await page.request.get(`${running().base}/`)).headers();
      expect(headers['content-security-policy']).toContain("script-src 'self'");
    },
  );
});
