/** SQL about e-mail verification codes. */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { verificationCodes } from '../db/schema.js';

export type CodePurpose = (typeof verificationCodes.$inferSelect)['purpose'];
export type CodeRow = typeof verificationCodes.$inferSelect;

/** The newest code for an address and purpose, locked for this transaction (only the newest counts). */
export async function latestCodeForUpdate(
  db: Executor,
  email: string,
  purpose: CodePurpose,
): Promise<CodeRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.email, email), eq(verificationCodes.purpose, purpose)))
    .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
    .limit(1)
    .for('update');
  return row;
}

export async function insertCode(db: Executor, code: typeof verificationCodes.$inferInsert): Promise<void> {
  await db.insert(verificationCodes).values(code);
}

export async function countWrongTry(db: Executor, id: number): Promise<number> {
  const [row] = await db
    .update(verificationCodes)
    .set({ wrongTries: sql`${verificationCodes.wrongTries} + 1` })
    .where(eq(verificationCodes.id, id))
    .returning({ wrongTries: verificationCodes.wrongTries });
  return row?.wrongTries ?? 0;
}

export async function markCodeUsed(db: Executor, id: number, at: Date): Promise<void> {
  await db.update(verificationCodes).set({ usedAt: at }).where(eq(verificationCodes.id, id));
}

/** Deletes codes that expired before `before`; returns how many. */
export async function purgeCodes(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(verificationCodes)
    .where(lt(verificationCodes.expiresAt, before))
    .returning({ id: verificationCodes.id });
  return rows.length;
}
