/**
 * Work that must not compete with the first page for the network and the CPU (the service
 * worker's registration and precache, the toast chunk, the data worker and its first pull):
 * queued with `afterFirstPage`, it runs once the first page is on screen (`FirstPageShown`,
 * rendered in each lazy page's own first commit by routes.tsx), its frame has been
 * presented and the browser is idle, or after FIRST_PAGE_WAIT_MS whatever happened (a redirect, a
 * chunk that failed).
 */
import { useEffect, useLayoutEffect } from 'react';
import { takeOverPrerender } from './prerender.js';

/** The longest queued work waits for a first page. */
export const FIRST_PAGE_WAIT_MS = 3000;
/** How long an idle moment is waited for once the page is on screen. */
const IDLE_WAIT_MS = 500;

const queued: Array<() => void> = [];
let started = false;

function runQueued(): void {
  takeOverPrerender();
  started = true;
  for (const task of queued.splice(0)) task();
}

function whenIdle(run: () => void): void {
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(run, { timeout: IDLE_WAIT_MS });
  else setTimeout(run, 0);
}

/** Runs `task` once the first page is on screen (at once when it already is). */
export function afterFirstPage(task: () => void): void {
  if (started) {
    task();
    return;
  }
  if (queued.length === 0) setTimeout(runQueued, FIRST_PAGE_WAIT_MS);
  queued.push(task);
}

/**
 * Runs `run` at the start of the frame after the next, when the next one has been presented; at
 * once where there are no frames.
 */
function afterNextFrame(run: () => void): void {
  if (typeof window.requestAnimationFrame === 'function')
    window.requestAnimationFrame(() => window.requestAnimationFrame(run));
  else run();
}

/**
 * Says a page is on screen: what is queued runs at the browser's first idle moment after the frame
 * that shows it. An idle moment alone can come between the commit and that frame's presentation,
 * and work started there (the worker, the toast chunk) would count as part of the first page's
 * largest paint.
 */
export function firstPageShown(): void {
  if (!started) afterNextFrame(() => whenIdle(runQueued));
}

/**
 * Rendered with each page, in its first commit (routes.tsx): its effect runs once that page is
 * committed. The drawn login page gives way in the commit itself (a layout effect), so the page
 * never shows, nor is found by a query, twice.
 */
export function FirstPageShown(): null {
  useLayoutEffect(takeOverPrerender, []);
  useEffect(firstPageShown, []);
  return null;
}
