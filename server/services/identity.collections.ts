/** The identity sync collection: the user's one real-name record (id = the user id). */
import { latestSubmissionOf } from '../repositories/identity.repository.js';
import { toIdentityRecord } from './identity.service.js';
import { defineCollections } from './sync-collection.js';

export const identityCollections = defineCollections({
  identity: async (db, userId, ids) =>
    ids.includes(String(userId)) ? [toIdentityRecord(userId, await latestSubmissionOf(db, userId))] : [],
});
