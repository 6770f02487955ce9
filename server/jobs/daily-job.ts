/**
 * What the daily jobs share (hosting accrual, machine output, team income): their period is the
 * local day in COFFER_TIMEZONE that ended, and they are tried every minute, so the first try after
 * local midnight runs the day that ended (a day missed while the server was down is caught up by
 * the job's own work, oldest first).
 */
import { localDateOf, localMidnightAfter } from '../services/hosting/days.js';
import type { Job, JobName } from './scheduler.js';

/** The local day (YYYY-MM-DD in `timezone`) that ended before `now`: a daily job's period. */
export const dayThatEnded = (now: Date, timezone: string): string =>
  localDateOf(localMidnightAfter(now, timezone, -1), timezone);

/** A job run once for each local day that ends in `timezone`, doing `run`. */
export function dailyJob(name: JobName, timezone: string, run: Job['run']): Job {
  return { name, everySeconds: 60, periodOf: (now) => dayThatEnded(now, timezone), run };
}
