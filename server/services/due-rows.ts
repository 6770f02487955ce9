/**
 * How a daily job works through the rows it finds due (hosting orders, machine holdings), in its
 * one transaction: batch after batch, each row once. What stays true: a row whose work leaves it
 * due is an error, never a loop.
 */
import { startOfLocalDay } from './hosting/days.js';

/**
 * What every daily job's run reports beside its own counts (job_runs.detail): the local days
 * worked and the USDT paid into cash.
 */
export interface DayWorkReport {
  days: number;
  paid: string;
}

/**
 * Calls `work` once for each row `lockDue` answers (it locks up to a batch of due rows), asking
 * for more until none is new. Throws naming `what` (`machine output: holdings`) when rows already
 * worked on are still due. Answers how many rows were worked on.
 */
export async function eachDue<Row extends { id: number }>(
  lockDue: () => Promise<Row[]>,
  what: string,
  work: (row: Row) => Promise<void>,
): Promise<number> {
  const seen = new Set<number>();
  for (;;) {
    const due = await lockDue();
    const fresh = due.filter((row) => !seen.has(row.id));
    if (fresh.length === 0) {
      if (due.length > 0) throw new Error(`${what} ${due.map((row) => row.id).join(', ')} stay due`);
      return seen.size;
    }
    for (const row of fresh) {
      seen.add(row.id);
      await work(row);
    }
  }
}

/**
 * `eachDue` for a daily job's run at `now`: `lockDue` and `work` are given the start of the local
 * day in `timezone` (today's local midnight), before which whole days are due.
 */
export function eachDueBeforeToday<Row extends { id: number }>(
  now: Date,
  timezone: string,
  lockDue: (dayStart: Date) => Promise<Row[]>,
  what: string,
  work: (row: Row, dayStart: Date) => Promise<void>,
): Promise<number> {
  const dayStart = startOfLocalDay(now, timezone);
  return eachDue(
    () => lockDue(dayStart),
    what,
    (row) => work(row, dayStart),
  );
}
