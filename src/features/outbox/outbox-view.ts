/**
 * What the outbox page and its badge show, from the rows of the `outbox` table. Pure; it takes
 * only the fields it reads, so it needs neither zod nor IndexedDB.
 */
import type { OutboxState } from '../../../sync/commands.js';

export interface OutboxRowView {
  id: string;
  state: OutboxState;
  dismissed: boolean;
  retriedAs: string | null;
  seq: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/** How long a confirmed command stays under "Recently sent". */
export const RECENT_MS = 24 * 60 * 60 * 1000;
/** At most this many of them. */
export const RECENT_LIMIT = 10;

/**
 * True when the user should see the row: pending (queued, sending), or failed (rejected or
 * expired) and neither dismissed nor retried. Confirmed and cancelled rows are history.
 */
export function needsAttention(row: OutboxRowView): boolean {
  if (row.state === 'queued' || row.state === 'sending') return true;
  if (row.state === 'rejected' || row.state === 'expired') return !row.dismissed && row.retriedAs === null;
  return false;
}

/** The badge's number: pending plus failed commands still waiting for the user. */
export function attentionCount(rows: readonly OutboxRowView[]): number {
  return rows.filter(needsAttention).length;
}

/** The rows the outbox page lists, newest first (by when the user acted). */
export function listedRows<R extends OutboxRowView>(rows: readonly R[]): R[] {
  return rows.filter(needsAttention).sort((a, b) => b.createdAtMs - a.createdAtMs || b.seq - a.seq);
}

/** Cancel is offered for a queued command only: one being sent cannot be called back. */
export function canCancel(row: OutboxRowView): boolean {
  return row.state === 'queued';
}

/** Retry and dismiss are offered for a failed command not yet retried or dismissed. */
export function canRetry(row: OutboxRowView): boolean {
  return (row.state === 'rejected' || row.state === 'expired') && !row.dismissed && row.retriedAs === null;
}

/** Commands confirmed within RECENT_MS of `nowMs`, the latest confirmed first, at most RECENT_LIMIT. */
export function recentlyConfirmed<R extends OutboxRowView>(rows: readonly R[], nowMs: number): R[] {
  return rows
    .filter((row) => row.state === 'confirmed' && nowMs - row.updatedAtMs <= RECENT_MS)
    .sort((a, b) => b.updatedAtMs - a.updatedAtMs || b.seq - a.seq)
    .slice(0, RECENT_LIMIT);
}

/**
 * True when a refused command is one to tell app-wide: refused since `sinceMs` (this page load),
 * and neither dismissed (a page that followed it told it and dismissed it) nor retried.
 */
export function refusalToTell(row: OutboxRowView, sinceMs: number): boolean {
  return row.state === 'rejected' && row.updatedAtMs >= sinceMs && !row.dismissed && row.retriedAs === null;
}
