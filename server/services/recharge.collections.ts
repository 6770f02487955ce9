/** The deposits sync collection: the account's detected deposits, read by id. */
import { depositsByIds } from '../repositories/recharge.repository.js';
import { accountRecordsByIds, toDepositRecord } from './records.js';
import { defineCollections } from './sync-collection.js';

export const rechargeCollections = defineCollections({
  deposits: accountRecordsByIds(depositsByIds, toDepositRecord),
});
