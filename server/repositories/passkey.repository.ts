/** SQL about passkeys (WebAuthn credentials, server/db/schema/passkeys.ts). */
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { passkeys } from '../db/schema.js';
import { insertRowUnlessTaken } from './rows.js';

export type PasskeyRow = typeof passkeys.$inferSelect;

/** Stores a new passkey; false when its credential id is already stored (for anyone). */
export const insertPasskey = (db: Executor, row: typeof passkeys.$inferInsert) =>
  insertRowUnlessTaken(db, passkeys, row);

/** The user's passkeys, oldest first. */
export function listPasskeysOfUser(db: Executor, userId: number): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
}

/** The passkey of `credentialId`, locked until the transaction ends (its counter is about to move). */
export async function lockPasskeyByCredential(
  db: Executor,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).for('update');
  return row;
}

/** After a sign-in: the new counter, the backup state and the time. */
export async function notePasskeyUse(
  db: Executor,
  id: number,
  change: { counter: number; backedUp: boolean; lastUsedAt: Date },
): Promise<void> {
  await db.update(passkeys).set(change).where(eq(passkeys.id, id));
}

/** Renames one of the user's passkeys; false when it is not theirs or not there. */
export async function renamePasskey(
  db: Executor,
  userId: number,
  id: number,
  name: string,
): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/** Deletes one of the user's passkeys; false when it is not theirs or not there. */
export async function deletePasskey(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}
