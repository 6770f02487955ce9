/** SQL for the operator console's own reads: customer search, the deposits list, what waits, today's flows. */
import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Chain } from '../../contract/constants.js';
import type { Executor } from '../db/database.js';
import {
  depositAddresses,
  deposits,
  feedback,
  jobRuns,
  ledgerAdjustments,
  referralPaths,
  sessions,
  users,
  withdrawals,
} from '../db/schema.js';
import { rowsNewestFirst } from './rows.js';
import type { UserRow } from './user.repository.js';

/** Users matching `q` (part of an e-mail, a user id, an invite code), newest first, below `beforeId`. */
export async function searchUsers(
  db: Executor,
  q: string,
  beforeId: number | undefined,
  limit: number,
): Promise<UserRow[]> {
  let matching: SQL | undefined;
  if (q !== '') {
    const escaped = q.replace(/[\\%_]/g, (match) => `\\${match}`);
    const matches: SQL[] = [ilike(users.email, `%${escaped}%`), eq(users.inviteCode, q.toUpperCase())];
    if (/^\d{1,15}$/.test(q)) matches.push(eq(users.id, Number(q)));
    matching = or(...matches);
  }
  return rowsNewestFirst(db, users, { beforeId, limit }, matching);
}

export async function setUserFrozen(db: Executor, userId: number, frozen: boolean, reason: string | null) {
  const [row] = await db
    .update(users)
    .set({ frozen, frozenReason: reason })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/** Members of the user's team in the first and second generation. */
export async function teamCounts(db: Executor, userId: number): Promise<{ first: number; second: number }> {
  const rows = await db
    .select({ depth: referralPaths.depth, count: sql<number>`count(*)::int` })
    .from(referralPaths)
    .where(and(eq(referralPaths.ancestorId, userId), lt(referralPaths.depth, 3)))
    .groupBy(referralPaths.depth);
  const of = (depth: number) => rows.find((row) => row.depth === depth)?.count ?? 0;
  return { first: of(1), second: of(2) };
}

export async function liveUserSessions(db: Executor, userId: number, now: Date) {
  return db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.subjectKind, 'user'),
        eq(sessions.subjectId, userId),
        sql`${sessions.revokedAt} is null`,
        sql`${sessions.expiresAt} > ${now}`,
      ),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(50);
}

/** The newest deposits of the user's accounts. */
export const depositsOfUser = (db: Executor, userId: number, limit: number) =>
  rowsNewestFirst(db, deposits, { limit }, eq(deposits.userId, userId));

/** Every deposit by chain and status, newest first, with its owner's e-mail. */
export async function listDeposits(
  db: Executor,
  filter: {
    chain?: Chain | undefined;
    status?: string | undefined;
    beforeId?: number | undefined;
    limit: number;
  },
) {
  const where: SQL[] = [];
  if (filter.chain !== undefined) where.push(eq(deposits.chain, filter.chain));
  if (filter.status !== undefined) where.push(eq(deposits.status, filter.status));
  if (filter.beforeId !== undefined) where.push(lt(deposits.id, filter.beforeId));
  return db
    .select({ deposit: deposits, email: users.email })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(and(...where))
    .orderBy(desc(deposits.id))
    .limit(filter.limit);
}

/** What waits for a person: withdrawals to review, adjustments to approve, feedback to answer. */
export async function waitingCounts(db: Executor) {
  const count = sql<number>`count(*)::int`;
  const [[review], [adjust], [answer]] = await Promise.all([
    db.select({ count }).from(withdrawals).where(eq(withdrawals.stage, 'awaiting_review')),
    db.select({ count }).from(ledgerAdjustments).where(eq(ledgerAdjustments.status, 'pending_review')),
    db.select({ count }).from(feedback).where(eq(feedback.status, 'awaiting_reply')),
  ]);
  return { withdrawals: review?.count ?? 0, adjustments: adjust?.count ?? 0, feedback: answer?.count ?? 0 };
}

/** Deposits credited and withdrawals asked for between `from` and `to`: how many, and how much (minor units). */
export async function flowsBetween(db: Executor, from: Date, to: Date) {
  const [[credited], [asked]] = await Promise.all([
    db
      .select({
        count: sql<number>`count(*)::int`,
        total: sql<string>`coalesce(sum(${deposits.amount}), 0)::text`,
      })
      .from(deposits)
      .where(and(gte(deposits.creditedAt, from), lt(deposits.creditedAt, to))),
    db
      .select({
        count: sql<number>`count(*)::int`,
        total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)::text`,
      })
      .from(withdrawals)
      .where(and(gte(withdrawals.createdAt, from), lt(withdrawals.createdAt, to))),
  ]);
  return {
    deposits: { count: credited?.count ?? 0, total: BigInt(credited?.total ?? '0') },
    withdrawals: { count: asked?.count ?? 0, total: BigInt(asked?.total ?? '0') },
  };
}

/** The newest finished run of a job (the ledger check's result and time). */
export async function lastJobRun(db: Executor, job: string) {
  const [row] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), eq(jobRuns.status, 'done')))
    .orderBy(desc(jobRuns.finishedAt))
    .limit(1);
  return row;
}

/** Every deposit address of a chain (20-byte hex): what the chain holds for Coffer besides the hot wallet. */
export async function depositAddressHexes(db: Executor, chain: Chain): Promise<string[]> {
  const rows = await db
    .select({ hex: depositAddresses.hex })
    .from(depositAddresses)
    .where(eq(depositAddresses.chain, chain));
  return rows.map((row) => row.hex);
}
