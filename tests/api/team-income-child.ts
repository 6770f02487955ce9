/**
 * The team job as a process of its own, for tests/api/team-income.crash.pg.test.ts: one run of
 * the job at NOW over DATABASE_URL, through the scheduler (its advisory lock, its job_runs row and
 * its one transaction), paying two lines a step and printing `step <paid so far>` after each, then
 * `report <json>`. With CRASH_AFTER=n it kills itself (SIGKILL) right after the n-th step, inside
 * the run's transaction, with lines and transfers already written for the steps before.
 *
 * Environment: DATABASE_URL, NOW (ISO time), CRASH_AFTER (0: run to the end).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../server/app.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { Scheduler } from '../../server/jobs/scheduler.js';
import { teamIncomeJob } from '../../server/jobs/team-income.job.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`team-income-child: ${name} is required`);
  return value;
};
const crashAfter = Number(process.env['CRASH_AFTER'] ?? '0');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-team-child-'));
const config = loadConfig({
  DATABASE_URL: env('DATABASE_URL'),
  DATA_DIR: dataDir,
  COFFER_JOBS: 'off',
  COFFER_SCRYPT_COST: '4',
  LOG_LEVEL: 'silent',
});
const clock = new ManualClock(env('NOW'));
const server = await createServer({ config, clock, logger: false });
let steps = 0;
const scheduler = new Scheduler(
  server.database.db,
  clock,
  [
    teamIncomeJob(server.services.team, config.timezone, {
      linesPerStep: 2,
      afterStep: (paid) => {
        steps += 1;
        console.log(`step ${paid}`);
        if (steps === crashAfter) process.kill(process.pid, 'SIGKILL');
      },
    }),
  ],
  (message, error) => console.error(message, error),
);
const report = await scheduler.runNow('team-income');
console.log(`report ${JSON.stringify(report)}`);
await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
