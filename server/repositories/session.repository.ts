/** SQL about session tokens (stored hashed). */
import { and, desc, eq, gt, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { operators, sessions, users } from '../db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;
type SubjectKind = SessionRow['subjectKind'];

/** One subject's sessions. */
const ofSubject = (kind: SubjectKind, subjectId: number) =>
  and(eq(sessions.subjectKind, kind), eq(sessions.subjectId, subjectId));

/** One subject's live sessions at `now`: not revoked, not expired. */
const liveOf = (kind: SubjectKind, subjectId: number, now: Date) =>
  and(ofSubject(kind, subjectId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

/** Revokes at `at` the sessions not revoked yet that match every condition; returns their token hashes. */
async function revokeWhere(db: Executor, at: Date, ...conditions: (SQL | undefined)[]): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(...conditions, isNull(sessions.revokedAt)))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.map((row) => row.tokenHash);
}

/** A live session with what its subject's standing is (null columns: the subject is gone or of the other kind). */
export interface SessionCallerRow {
  subjectKind: SubjectKind;
  subjectId: number;
  lastSeenAt: Date;
  expiresAt: Date;
  elevatedUntil: Date | null;
  userFrozen: boolean | null;
  operatorRole: string | null;
  operatorDisabled: boolean | null;
  operatorMustChangePassword: boolean | null;
  operatorAuthenticatorBound: boolean | null;
}

export async function insertSession(db: Executor, session: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The live session of `tokenHash` joined with its user or operator: one query. */
export async function findLiveSessionCaller(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<SessionCallerRow | undefined> {
  const [row] = await db
    .select({
      subjectKind: sessions.subjectKind,
      subjectId: sessions.subjectId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      elevatedUntil: sessions.elevatedUntil,
      userFrozen: users.frozen,
      operatorRole: operators.role,
      operatorDisabled: operators.disabled,
      operatorMustChangePassword: operators.mustChangePassword,
      operatorAuthenticatorBound: sql<boolean | null>`${operators.authenticatorSecret} is not null`,
    })
    .from(sessions)
    .leftJoin(users, and(eq(sessions.subjectKind, 'user'), eq(users.id, sessions.subjectId)))
    .leftJoin(operators, and(eq(sessions.subjectKind, 'operator'), eq(operators.id, sessions.subjectId)))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return row;
}

export async function extendSession(
  db: Executor,
  tokenHash: string,
  lastSeenAt: Date,
  expiresAt: Date,
): Promise<void> {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.tokenHash, tokenHash));
}

export async function revokeSession(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await revokeWhere(db, at, eq(sessions.tokenHash, tokenHash));
}

/** Revokes every live session of a subject (a password reset); returns their token hashes. */
export const revokeAllSessions = (
  db: Executor,
  kind: SubjectKind,
  subjectId: number,
  at: Date,
): Promise<string[]> => revokeWhere(db, at, ofSubject(kind, subjectId));

/** Deletes sessions expired or revoked before `before`; returns how many. */
export async function purgeSessions(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(
      or(lt(sessions.expiresAt, before), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, before))),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return rows.length;
}

/** Revokes every live session of a subject but `keepTokenHash` (a password change keeps the device that made it); returns their token hashes. */
export async function revokeOtherSessions(
  db: Executor,
  kind: SubjectKind,
  subjectId: number,
  keepTokenHash: string,
  at: Date,
): Promise<string[]> {
  return revokeWhere(db, at, ofSubject(kind, subjectId), ne(sessions.tokenHash, keepTokenHash));
}

/** Marks a session stepped up until `until` (an operator's fresh authenticator code). */
export async function elevateSession(db: Executor, tokenHash: string, until: Date): Promise<void> {
  await db.update(sessions).set({ elevatedUntil: until }).where(eq(sessions.tokenHash, tokenHash));
}

/** The token hashes of a subject's live sessions (to drop them from the caller caches after a change). */
export async function liveTokenHashes(
  db: Executor,
  kind: SubjectKind,
  subjectId: number,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(liveOf(kind, subjectId, now));
  return rows.map((row) => row.tokenHash);
}

/** A user's live session as the security centre lists it. */
export interface UserSessionRow {
  id: number;
  tokenHash: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** A user's live sessions, the most recently used first. */
export async function listLiveUserSessions(
  db: Executor,
  userId: number,
  now: Date,
): Promise<UserSessionRow[]> {
  return db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(liveOf('user', userId, now))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
}

/** Revokes the user's live session `id`; returns its token hash, or undefined when the user has no such live session. */
export async function revokeUserSessionById(
  db: Executor,
  userId: number,
  id: number,
  at: Date,
): Promise<string | undefined> {
  const [tokenHash] = await revokeWhere(db, at, eq(sessions.id, id), liveOf('user', userId, at));
  return tokenHash;
}
