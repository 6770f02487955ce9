/**
 * The daily machine output (docs/protocol.md section 22): at 00:00 in COFFER_TIMEZONE
 * it pays every active holding the day that ended, catches up any day missed while the server
 * was down (oldest first), and expires the holdings whose last day is paid. Its period is that
 * local day (job_runs), and all its work commits in the scheduler's one transaction: a run killed
 * half-way leaves nothing, and each (holding, day) is paid once whatever runs again.
 */
import type { MachineOutputService, OutputHooks } from '../services/machine/output.service.js';
import { dailyJob } from './daily-job.js';
import { JobName, type Job } from './scheduler.js';

export function machineOutputJob(
  output: MachineOutputService,
  timezone: string,
  hooks: OutputHooks = {},
): Job {
  return dailyJob(JobName.machineOutput, timezone, async (tx, now) => ({
    ...(await output.run(tx, now, hooks)),
  }));
}
