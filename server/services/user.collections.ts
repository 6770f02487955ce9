/** The user's sync collections: the profile (one record, the user's own) and the user's accounts. */
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
