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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../server/app.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { hostingAccrualJob } from '../../server/jobs/hosting-accrual.job.js';
import { Scheduler } from '../../server/jobs/scheduler.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`hosting-accrual-child: ${name} is required`);
  return value;
};
const crashAfter = Number(process.env['CRASH_AFTER'] ?? '0');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-accrual-child-'));
const config = loadConfig({
  DATABASE_URL: env('DATABASE_URL'),
  DATA_DIR: dataDir,
  COFFER_JOBS: 'off',
  COFFER_SCRYPT_COST: '4',
  LOG_LEVEL: 'silent',
});
const clock = new ManualClock(env('NOW'));
const server = await createServer({ config, clock, logger: false });
let done = 0;
const scheduler = new Scheduler(
  server.database.db,
  clock,
  [
    hostingAccrualJob(server.services.hostingAccrual, config.timezone, {
      afterOrder: (orderId) => {
        done += 1;
        console.log(`order ${orderId}`);
        if (done === crashAfter) process.kill(process.pid, 'SIGKILL');
      },
    }),
  ],
  (message, error) => console.error(message, error),
);
const report = await scheduler.runNow('hosting-accrual');
console.log(`report ${JSON.stringify(report)}`);
await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
