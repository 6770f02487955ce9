/**
 * The team job as a process of its own, for tests/api/team-income.crash.pg.test.ts: one run of
 * the job at NOW over DATABASE_URL, through the scheduler (its advisory lock, its job_runs row and
 * its one transaction), paying two lines a step and printing `step <paid so far>` after each, then
 * `report <json>`. With CRASH_AFTER=n it kills itself (SIGKILL) right after the n-th step, inside
 * the run's transaction, with lines and transfers already written for the steps before.
 *
 * Environment: DATABASE_URL, NOW (ISO time), CRASH_AFTER (0: run to the end).
 */
import { teamIncomeJob } from '../../server/jobs/team-income.job.js';
import { runJobChild } from '../helpers/job-child.js';

await runJobChild('team-income-child', 'team-income', (server, timezone, step) =>
  teamIncomeJob(server.services.team, timezone, {
    linesPerStep: 2,
    afterStep: (paid) => {
      console.log(`step ${paid}`);
      step();
    },
  }),
);
