/** The withdrawals sync collection: the account's withdrawals, read by id. */
import { withdrawalsByIds } from '../repositories/withdraw.repository.js';
import { accountRecordsByIds, toWithdrawalRecord } from './records.js';
import { defineCollections } from './sync-collection.js';

export const withdrawCollections = defineCollections({
  withdrawals: accountRecordsByIds(withdrawalsByIds, toWithdrawalRecord),
});
