/** The dividend_releases sync collection: the account's dividend shares, read by id. */
import { DividendService } from './dividend.service.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const dividendCollections = defineCollections({
  dividend_releases: (db, accountId, ids) => DividendService.recordsByIds(db, accountId, numericIds(ids)),
});
