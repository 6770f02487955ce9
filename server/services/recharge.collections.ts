/** The deposits sync collection: the account's detected deposits, read by id. */
import { depositsByIds } from '../repositories/recharge.repository.js';
import { toDepositRecord } from './records.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const rechargeCollections = defineCollections({
  deposits: async (db, accountId, ids) =>
    (await depositsByIds(db, accountId, numericIds(ids))).map(toDepositRecord),
});
