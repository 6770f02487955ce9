/** SQL about real-name submissions (the review queue, a user's history, the same document elsewhere). */
import { and, asc, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { identitySubmissions, users } from '../db/schema.js';
import { rowWhere } from './rows.js';

export type IdentitySubmissionRow = typeof identitySubmissions.$inferSelect;

/** The user's latest submission, if any (what their status is). */
export async function latestSubmissionOf(
  db: Executor,
  userId: number,
  lock = false,
): Promise<IdentitySubmissionRow | undefined> {
  const query = db
    .select()
    .from(identitySubmissions)
    .where(eq(identitySubmissions.userId, userId))
    .orderBy(desc(identitySubmissions.id))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The latest submission of each of `userIds` (those that have one). */
export async function latestSubmissionsOf(db: Executor, userIds: number[]): Promise<IdentitySubmissionRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectDistinctOn([identitySubmissions.userId])
    .from(identitySubmissions)
    .where(inArray(identitySubmissions.userId, userIds))
    .orderBy(identitySubmissions.userId, desc(identitySubmissions.id));
}

/** Every submission of the user, newest first. */
export function submissionsOf(db: Executor, userId: number): Promise<IdentitySubmissionRow[]> {
  return db
    .select()
    .from(identitySubmissions)
    .where(eq(identitySubmissions.userId, userId))
    .orderBy(desc(identitySubmissions.id));
}

/** Submissions in `status`, oldest first, after submission `afterId`, with their user's e-mail. */
export function submissionQueue(db: Executor, status: string, afterId: number, limit: number) {
  return db
    .select({ submission: identitySubmissions, email: users.email })
    .from(identitySubmissions)
    .innerJoin(users, eq(users.id, identitySubmissions.userId))
    .where(and(eq(identitySubmissions.status, status), gt(identitySubmissions.id, afterId)))
    .orderBy(asc(identitySubmissions.id))
    .limit(limit);
}

/** Other users' submissions of the same document (its blind index), newest first, with their e-mail. */
export function sameDocumentElsewhere(db: Executor, numberIndex: string, userId: number) {
  return db
    .select({ submission: identitySubmissions, email: users.email })
    .from(identitySubmissions)
    .innerJoin(users, eq(users.id, identitySubmissions.userId))
    .where(and(eq(identitySubmissions.numberIndex, numberIndex), ne(identitySubmissions.userId, userId)))
    .orderBy(desc(identitySubmissions.id));
}

/** The approved submission of this document, whoever made it. */
export const approvedSubmissionOf = (db: Executor, numberIndex: string) =>
  rowWhere(
    db,
    identitySubmissions,
    eq(identitySubmissions.numberIndex, numberIndex),
    eq(identitySubmissions.status, 'approved'),
  );

/**
 * Waits for the lock of one document (a transaction-scoped advisory lock on its blind index): two
 * approvals of the same document for two users run one after the other, so the second sees the
 * first and is refused (the unique index is the last guard, never the answer).
 */
export async function lockDocument(db: Executor, numberIndex: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`identity:${numberIndex}`}, 0))`);
}
