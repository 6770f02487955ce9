/**
 * The hosting accrual job as a process of its own, for tests/api/hosting-accrual.crash.pg.test.ts:
 * one run of the job at NOW over DATABASE_URL, through the scheduler (its advisory lock, its
 * job_runs row and its one transaction), printing `order <id>` after each order's work and then
 * `report <json>`. With CRASH_AFTER=n it kills itself (SIGKILL) right after the n-th order's
 * work, inside the run's transaction, with the accruals of the orders before already written (their
 * daily interest is paid in one batch after the last order's work).
 *
 * Environment: DATABASE_URL, NOW (ISO time), CRASH_AFTER (0: run to the end).
 */
import { hostingAccrualJob } from '../../server/jobs/hosting-accrual.job.js';
import { runJobChild } from '../helpers/job-child.js';

await runJobChild('hosting-accrual-child', 'hosting-accrual', (server, timezone, step) =>
  hostingAccrualJob(server.services.hostingAccrual, timezone, {
    afterOrder: (orderId) => {
      console.log(`order ${orderId}`);
      step();
    },
  }),
);
