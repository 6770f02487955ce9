/** SQL about session tokens (stored hashed). */
import { and, eq, gt, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { sessions } from '../db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;
type SubjectKind = SessionRow['subjectKind'];

export async function insertSession(db: Executor, session: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(session);
}

export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
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
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a subject (a password reset); returns how many. */
export async function revokeAllSessions(
  db: Executor,
  kind: SubjectKind,
  subjectId: number,
  at: Date,
): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.subjectKind, kind), eq(sessions.subjectId, subjectId), isNull(sessions.revokedAt)))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.length;
}

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

/** Revokes every live session of a subject but `keepTokenHash` (a password change keeps the device that made it); returns how many. */
export async function revokeOtherSessions(
  db: Executor,
  kind: SubjectKind,
  subjectId: number,
  keepTokenHash: string,
  at: Date,
): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.subjectKind, kind),
        eq(sessions.subjectId, subjectId),
        isNull(sessions.revokedAt),
        ne(sessions.tokenHash, keepTokenHash),
      ),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return rows.length;
}
