/** The exchanges sync collection: the account's exchanges, read by id. */
import { exchangesByIds } from '../repositories/exchange.repository.js';
import { toExchangeRecord } from './records.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const exchangeCollections = defineCollections({
  exchanges: async (db, accountId, ids) =>
    (await exchangesByIds(db, accountId, numericIds(ids))).map(toExchangeRecord),
});
