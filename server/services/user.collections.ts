/** The user's sync collections: the profile (one record, the user's own) and the user's accounts. */
import type { Executor } from '../db/database.js';
import { recordChange } from '../repositories/sync.repository.js';
import { findUserById, listAccounts } from '../repositories/user.repository.js';
import { toAccountRecord, toProfileRecord } from './records.js';
import { defineCollections } from './sync-collection.js';

export const userCollections = defineCollections({
  profile: async (db, userId, ids) => {
    if (!ids.includes(String(userId))) return [];
    const user = await findUserById(db, userId);
    return user ? [toProfileRecord(user)] : [];
  },
  accounts: async (db, userId, ids) => {
    const [user, rows] = await Promise.all([findUserById(db, userId), listAccounts(db, userId)]);
    const wanted = new Set(ids);
    return rows
      .filter((row) => wanted.has(String(row.id)))
      .map((row) => toAccountRecord(row, user?.defaultAccountId ?? null));
  },
});

/** Marks the user's profile record changed, in the writer's transaction, for their devices to pull. */
export async function profileChanged(tx: Executor, userId: number, at: Date): Promise<void> {
  await recordChange(tx, {
    collection: 'profile',
    scopeId: userId,
    recordId: String(userId),
    deleted: false,
    at,
  });
}
