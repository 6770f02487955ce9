/** The withdrawals sync collection: the account's withdrawals, read by id. */
import { withdrawalsByIds } from '../repositories/withdraw.repository.js';
import { toWithdrawalRecord } from './records.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const withdrawCollections = defineCollections({
  withdrawals: async (db, accountId, ids) =>
    (await withdrawalsByIds(db, accountId, numericIds(ids))).map(toWithdrawalRecord),
});
