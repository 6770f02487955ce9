/** The OTC sync collections: the account's orders and the open book (public). */
import { OtcService } from './otc.service.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const otcCollections = defineCollections({
  otc_orders: (db, accountId, ids) => OtcService.orderRecordsByIds(db, accountId, numericIds(ids)),
  otc_book: (db, _scope, ids) => OtcService.bookRecordsByIds(db, numericIds(ids)),
});
