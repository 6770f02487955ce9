/**
 * The daily hosting accrual (docs/protocol.md section 20): at 00:00 in COFFER_TIMEZONE
 * it accrues the day that ended for every order, catches up any day missed while the server was
 * down (oldest first), and matures the orders whose term ran out. Its period is that local day
 * (job_runs), and all its work commits in the scheduler's one transaction: a run killed half-way
 * leaves nothing, and each (order, day) is accrued once whatever runs again.
 */
import type { AccrualHooks, HostingAccrualService } from '../services/hosting/accrual.service.js';
import { dailyJob } from './daily-job.js';
import { JobName, type Job } from './scheduler.js';

export function hostingAccrualJob(
  accrual: HostingAccrualService,
  timezone: string,
  hooks: AccrualHooks = {},
): Job {
  return dailyJob(JobName.hostingAccrual, timezone, async (tx, now) => ({
    ...(await accrual.run(tx, now, hooks)),
  }));
}
