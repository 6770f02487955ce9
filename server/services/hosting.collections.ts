/** The hosting sync collections: the account's hosting orders and the changes of their principal. */
import { HostingService } from './hosting.service.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const hostingCollections = defineCollections({
  hosting_orders: (db, accountId, ids) => HostingService.orderRecordsByIds(db, accountId, numericIds(ids)),
  hosting_changes: (db, accountId, ids) => HostingService.changeRecordsByIds(db, accountId, numericIds(ids)),
});
