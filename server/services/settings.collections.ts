/** The prices sync collection (public): RAB's operator-set price, once it has been set. */
import { rabPrice } from './settings.service.js';
import { toPriceRecord } from './records.js';
import { defineCollections } from './sync-collection.js';

export const settingsCollections = defineCollections({
  prices: async (db, _scope, ids) => {
    if (!ids.includes('RAB')) return [];
    const price = await rabPrice(db);
    return price.version !== null && price.updatedAt
      ? [toPriceRecord('RAB', price.value, price.version, price.updatedAt)]
      : [];
  },
});
