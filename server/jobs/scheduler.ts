/**
 * The in-process job scheduler (CONTRACT.md "Jobs"). Each run takes a PostgreSQL advisory lock,
 * so with several instances a job runs once; each job runs at most once per period (a job_runs
 * row) and records what it did. Jobs are idempotent per period.
 */
import type { Clock } from '../clock.js';
import type { Database, Transaction } from '../db/database.js';
import { finishJobRun, startJobRun, tryJobLock } from '../repositories/job.repository.js';
import { LEDGER_CHECK_JOB } from '../ledger/invariants.js';

export const JobName = {
  purge: 'purge',
  ledgerCheck: LEDGER_CHECK_JOB,
  dividendExpiry: 'dividend-expiry',
  hostingAccrual: 'hosting-accrual',
  machineOutput: 'machine-output',
  teamIncome: 'team-income',
  reservesSnapshot: 'reserves-snapshot',
  chatUnreadMail: 'chat-unread-mail',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

export interface Job {
  name: JobName;
  /** How often the scheduler tries the job. */
  everySeconds: number;
  /** The period a run covers (e.g. the hour), from the clock: one run per period. */
  periodOf(now: Date): string;
  /**
   * What must happen before the transaction opens (a network read: never with a transaction and
   * its connection held); the job keeps the result for its `run`.
   */
  prepare?(now: Date): Promise<void>;
  /** Does the work in `tx`; returns what it did, for the job_runs record. */
  run(tx: Transaction, now: Date): Promise<Record<string, unknown>>;
  /**
   * What the period's run needs first (e.g. the team job: the hosting accrual of the same day).
   * False: the try answers `waiting` and records nothing, so a later try runs the period.
   */
  ready?(tx: Transaction, period: string): Promise<boolean>;
  /** Jobs this one runs after: it is tried again as soon as one of them completes a run. */
  follows?: readonly JobName[];
}

export type JobStatus = 'done' | 'already_done' | 'locked_elsewhere' | 'waiting';

export class Scheduler {
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #jobs = new Map<JobName, Job>();
  #started = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    jobs: readonly Job[],
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    for (const job of jobs) {
      if (this.#jobs.has(job.name)) throw new Error(`job declared twice: ${job.name}`);
      this.#jobs.set(job.name, job);
    }
  }

  /**
   * Runs one job for the current period now. Atomic: the work and its record commit together.
   * Returns `already_done` when this period ran, `locked_elsewhere` when another instance runs it,
   * `waiting` when what the job needs first is not done yet (nothing recorded).
   */
  async runNow(
    name: JobName,
  ): Promise<{ status: JobStatus; period: string; detail?: Record<string, unknown> }> {
    const job = this.#jobs.get(name);
    if (!job) throw new Error(`no such job: ${name}`);
    const now = this.clock.now();
    const period = job.periodOf(now);
    await job.prepare?.(now);
    return this.db.transaction(async (tx) => {
      if (!(await tryJobLock(tx, name))) return { status: 'locked_elsewhere', period };
      if (job.ready && !(await job.ready(tx, period))) return { status: 'waiting', period };
      if (!(await startJobRun(tx, name, period, now))) return { status: 'already_done', period };
      const detail = await job.run(tx, now);
      await finishJobRun(tx, name, period, 'done', detail, this.clock.now());
      return { status: 'done', period, detail };
    });
  }

  /** Starts the timers (first run shortly after start); they never keep the process alive. */
  start(): void {
    const ticks = new Map<JobName, () => void>();
    this.#started = true;
    for (const job of this.#jobs.values()) {
      const tick = () => {
        this.runNow(job.name).then(
          (result) => {
            // A job that follows this one need not wait for its own next try.
            if (result.status !== 'done' || !this.#started) return;
            for (const other of this.#jobs.values())
              if (other.follows?.includes(job.name)) ticks.get(other.name)?.();
          },
          (error: unknown) => this.log(`job ${job.name} failed`, error),
        );
      };
      ticks.set(job.name, tick);
      const first = setTimeout(tick, 5_000);
      const every = setInterval(tick, job.everySeconds * 1000);
      first.unref();
      every.unref();
      this.#timers.push(first, every);
    }
  }

  stop(): void {
    this.#started = false;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.length = 0;
  }
}
