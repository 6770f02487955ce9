/** The hosting sync collections: the account's hosting orders and the changes of their principal. */
import { defineCollections, numericIds } from '../sync-collection.js';
import { changeRecordsByIds, orderRecordsByIds } from './records.js';

export const hostingCollections = defineCollections({
  hosting_orders: (db, accountId, ids) => orderRecordsByIds(db, accountId, numericIds(ids)),
  hosting_changes: (db, accountId, ids) => changeRecordsByIds(db, accountId, numericIds(ids)),
});
