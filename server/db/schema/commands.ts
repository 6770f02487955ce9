/**
 * The server's own bookkeeping: exactly-once commands' stored answers and job runs.
 */
import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.js';

/** Exactly-once commands: the answer text is stored in the effect's transaction. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The serialised answer, byte for byte (text, not jsonb, which reorders keys). */
    answer: text('answer'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);

/** One row per job and period: a job runs at most once per period, whatever the instance count. */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    period: text('period').notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    startedAt: at('started_at').notNull(),
    finishedAt: at('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);
