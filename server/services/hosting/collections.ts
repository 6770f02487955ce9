/** The hosting sync collections: the account's hosting orders (with their product's names) and the changes of their principal. */
import { changesByIds, ordersByIds } from '../../repositories/hosting.repository.js';
import { namedRecordsByIds } from '../catalogue.js';
import { accountRecordsByIds } from '../records.js';
import { defineCollections } from '../sync-collection.js';
import { productNames, toHostingChangeRecord, toHostingOrderRecord } from './records.js';

export const hostingCollections = defineCollections({
  hosting_orders: namedRecordsByIds(ordersByIds, productNames, (row) => row.productId, toHostingOrderRecord),
  hosting_changes: accountRecordsByIds(changesByIds, toHostingChangeRecord),
});
