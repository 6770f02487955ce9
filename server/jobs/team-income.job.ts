/**
 * The daily team job (docs/protocol.md section 23): for the local day that ended in
 * COFFER_TIMEZONE, after the hosting accrual of that same day is done (`ready`: its job_runs
 * period has reached the day; until then a try answers `waiting` and records nothing), it decides
 * every user's level from the figures at the day's end and pays `promotion` and `management`
 * income on the day's static income, catching up any day missed. It is tried every minute and
 * at once after each accrual run (`follows`). All its work commits in the scheduler's one
 * transaction; each line's key makes a re-run pay nothing twice.
 */
import type { TeamJobHooks, TeamService } from '../services/team.service.js';
import { dailyJob, dayThatEnded } from './daily-job.js';
import { JobName, type Job } from './scheduler.js';

export function teamIncomeJob(team: TeamService, timezone: string, hooks: TeamJobHooks = {}): Job {
  return {
    ...dailyJob(JobName.teamIncome, timezone, async (tx, now) => ({
      ...(await team.runJob(tx, now, dayThatEnded(now, timezone), hooks)),
    })),
    follows: [JobName.hostingAccrual],
    ready: (tx, period) => team.accrualDone(tx, period),
  };
}
