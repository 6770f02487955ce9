/** SQL about the devices users have signed in from (sign-in alerts), their address and their last language. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { userDevices, users } from '../db/schema.js';

/**
 * Remembers `deviceKey` for the user; true when it was not known before. `hadOthers`: whether the
 * user already had another device remembered (a user's first remembered device sends no alert).
 */
export async function rememberDevice(
  db: Executor,
  userId: number,
  deviceKey: string,
  at: Date,
): Promise<{ isNew: boolean; hadOthers: boolean }> {
  const inserted = await db
    .insert(userDevices)
    .values({ userId, deviceKey, firstSeenAt: at })
    .onConflictDoNothing()
    .returning({ deviceKey: userDevices.deviceKey });
  if (inserted.length === 0) return { isNew: false, hadOthers: true };
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(userDevices)
    .where(eq(userDevices.userId, userId));
  return { isNew: true, hadOthers: (row?.count ?? 0) > 1 };
}

/** Stores the language the user last used (mails they did not ask for are written in it); true when it changed. */
export async function setUserLang(db: Executor, userId: number, lang: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ lang })
    .where(and(eq(users.id, userId), sql`${users.lang} is distinct from ${lang}`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Changes the user's address (the caller checked it is free, in the same transaction). */
export async function setUserEmail(db: Executor, userId: number, email: string, at: Date): Promise<void> {
  await db.update(users).set({ email, updatedAt: at }).where(eq(users.id, userId));
}
