/**
 * The body of a job run as a process of its own, for crash tests: one run of the job at NOW over
 * DATABASE_URL, through the scheduler (its advisory lock, its job_runs row and its one
 * transaction), then `report <json>` on stdout. The job's hook calls `step()` after each unit of
 * work; with CRASH_AFTER=n the process kills itself (SIGKILL) right after the n-th, inside the
 * run's transaction.
 *
 * Environment: DATABASE_URL, NOW (ISO time), CRASH_AFTER (0: run to the end).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type CofferServer } from '../../server/app.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import { Scheduler, type Job, type JobName } from '../../server/jobs/scheduler.js';

/** Runs the job `makeJob` builds once, as described above; `child` names the program in errors. */
export async function runJobChild(
  child: string,
  name: JobName,
  makeJob: (server: CofferServer, timezone: string, step: () => void) => Job,
): Promise<void> {
  const env = (variable: string) => {
    const value = process.env[variable];
    if (!value) throw new Error(`${child}: ${variable} is required`);
    return value;
  };
  const crashAfter = Number(process.env['CRASH_AFTER'] ?? '0');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `coffer-${child}-`));
  const config = loadConfig({
    DATABASE_URL: env('DATABASE_URL'),
    DATA_DIR: dataDir,
    COFFER_JOBS: 'off',
    COFFER_DEMO: 'off',
    COFFER_SCRYPT_COST: '4',
    LOG_LEVEL: 'silent',
  });
  const clock = new ManualClock(env('NOW'));
  const server = await createServer({ config, clock, logger: false });
  let steps = 0;
  const step = () => {
    steps += 1;
    if (steps === crashAfter) process.kill(process.pid, 'SIGKILL');
  };
  const scheduler = new Scheduler(
    server.database.db,
    clock,
    [makeJob(server, config.timezone, step)],
    (message, error) => console.error(message, error),
  );
  const report = await scheduler.runNow(name);
  console.log(`report ${JSON.stringify(report)}`);
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
