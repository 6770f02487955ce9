/**
 * What waits for the first page (src/app/first-page.ts): the service worker's registration, the
 * toast chunk and the data worker start once a page is on screen and the browser is idle, or
 * after FIRST_PAGE_WAIT_MS when no page shows; later work runs at once.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type * as FirstPageModule from '../../src/app/first-page.js';

type FirstPage = typeof FirstPageModule;

/**
 * A fresh copy of the module (its queue is module state), in a window without requestIdleCallback
 * and, unless `window` says otherwise, without requestAnimationFrame.
 */
async function freshModule(window: object = {}): Promise<FirstPage> {
  vi.resetModules();
  vi.stubGlobal('window', window);
  return import('../../src/app/first-page.js');
}

const FRAME_MS = 16;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('work after the first page', () => {
  test('waits until a page is on screen and the browser is idle, then runs in the order queued', async () => {
    const { afterFirstPage, firstPageShown } = await freshModule();
    const ran: string[] = [];
    afterFirstPage(() => ran.push('service worker'));
    afterFirstPage(() => ran.push('worker'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual([]);
    firstPageShown();
    expect(ran).toEqual([]); // not inside the page's own commit
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toEqual(['service worker', 'worker']);
  });

  test('waits for the frame after the one that shows the page, so the largest paint comes first', async () => {
    const { afterFirstPage, firstPageShown } = await freshModule({
      requestAnimationFrame: (run: () => void) => setTimeout(run, FRAME_MS),
    });
    const ran: string[] = [];
    afterFirstPage(() => ran.push('worker'));
    firstPageShown();
    await vi.advanceTimersByTimeAsync(FRAME_MS);
    expect(ran).toEqual([]); // the frame that shows the page
    await vi.advanceTimersByTimeAsync(FRAME_MS);
    expect(ran).toEqual([]); // the next frame has begun: now the first idle moment
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['worker']);
  });

  test('runs anyway after FIRST_PAGE_WAIT_MS when no page shows (a redirect, a failed chunk)', async () => {
    const { afterFirstPage, FIRST_PAGE_WAIT_MS } = await freshModule();
    const ran: string[] = [];
    afterFirstPage(() => ran.push('toasts'));
    await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS - 1);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['toasts']);
  });

  test('once the first page showed, work queued later runs at once, and only once', async () => {
    const { afterFirstPage, firstPageShown, FIRST_PAGE_WAIT_MS } = await freshModule();
    const ran: string[] = [];
    afterFirstPage(() => ran.push('first'));
    firstPageShown();
    await vi.advanceTimersByTimeAsync(0);
    afterFirstPage(() => ran.push('later'));
    expect(ran).toEqual(['first', 'later']);
    firstPageShown();
    await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS);
    expect(ran).toEqual(['first', 'later']);
  });
});
