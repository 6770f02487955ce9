/** The delivery sync collection (public): the platform's published trade settlements, read by id. */
import { deliveryRecordsByIds } from '../repositories/delivery.repository.js';
import { toDeliveryRecord } from './records.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const deliveryCollections = defineCollections({
  delivery: async (db, _scope, ids) =>
    (await deliveryRecordsByIds(db, numericIds(ids))).map(toDeliveryRecord),
});
