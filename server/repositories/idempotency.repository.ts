/**
 * The stored answers of exactly-once commands (idempotency_keys), by (owner, key). The key row
 * is written first in the command's transaction, so a concurrent repeat of the key waits on it.
 */
import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../db/database.js';
import { idempotencyKeys } from '../db/schema.js';

export interface IdempotencyKey {
  owner: string;
  key: string;
  requestHash: string;
}

/** Claims the key for a first run; false when it is already taken (a repeat, or a concurrent one, waited on). */
export async function claimIdempotencyKey(
  tx: Transaction,
  claim: IdempotencyKey,
  at: Date,
): Promise<boolean> {
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ ...claim, createdAt: at })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

/** The stored row of a taken key (its request hash and answer, null while unanswered). */
export async function findIdempotencyKey(tx: Transaction, owner: string, key: string) {
  const [stored] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key)));
  return stored;
}

/** Stores the answer text of the key's first run. */
export async function storeIdempotentAnswer(tx: Transaction, owner: string, key: string, answer: string) {
  await tx
    .update(idempotencyKeys)
    .set({ answer })
    .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key)));
}
