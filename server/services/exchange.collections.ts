/** The exchanges sync collection: the account's exchanges, read by id. */
import { exchangesByIds } from '../repositories/exchange.repository.js';
import { accountRecordsByIds, toExchangeRecord } from './records.js';
import { defineCollections } from './sync-collection.js';

export const exchangeCollections = defineCollections({
  exchanges: accountRecordsByIds(exchangesByIds, toExchangeRecord),
});
