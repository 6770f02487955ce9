/** SQL for the job scheduler: advisory locks, run records, and the purge job's deletes. */
import { eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.js';
import { idempotencyKeys, jobRuns } from '../db/schema.js';
import { updateWhere } from './rows.js';

const lockRowsSchema = z.object({ rows: z.array(z.object({ locked: z.boolean() })) });

/** Takes the job's advisory lock for this transaction; false when another instance holds it. */
export async function tryJobLock(db: Executor, job: string): Promise<boolean> {
  const result = lockRowsSchema.parse(
    await db.execute(sql`select pg_try_advisory_xact_lock(hashtext(${`coffer-job:${job}`})) as locked`),
  );
  return result.rows[0]?.locked === true;
}

/** Records the start of a run; false when this job already ran (or runs) for this period. */
export async function startJobRun(db: Executor, job: string, period: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(jobRuns)
    .values({ job, period, status: 'running', detail: {}, startedAt: at })
    .onConflictDoNothing()
    .returning({ job: jobRuns.job });
  return rows.length > 0;
}

export async function finishJobRun(
  db: Executor,
  job: string,
  period: string,
  status: 'done' | 'failed',
  detail: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await updateWhere(
    db,
    jobRuns,
    { status, detail, finishedAt: at },
    eq(jobRuns.job, job),
    eq(jobRuns.period, period),
  );
}

/** Records a run made on demand (an operator's ledger check), finished at once. */
export async function recordJobRun(
  db: Executor,
  job: string,
  period: string,
  detail: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await db
    .insert(jobRuns)
    .values({ job, period, status: 'done', detail, startedAt: at, finishedAt: at })
    .onConflictDoNothing();
}

export async function purgeIdempotencyKeys(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
