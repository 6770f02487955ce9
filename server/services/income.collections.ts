/** The income sync collection: the account's income records, read by id. */
import { IncomeService } from './income.service.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const incomeCollections = defineCollections({
  income: (db, accountId, ids) => IncomeService.byIds(db, accountId, numericIds(ids)),
});
