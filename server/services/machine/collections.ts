/** The machine sync collections: the machines offered (public), the account's holdings and tickets. */
import { defineCollections, numericIds } from '../sync-collection.js';
import { machineRecordsByIds, ownedRecordsByIds, ticketRecordsByIds } from './records.js';

export const machineCollections = defineCollections({
  machines: (db, _scope, ids) => machineRecordsByIds(db, numericIds(ids)),
  owned_machines: (db, accountId, ids) => ownedRecordsByIds(db, accountId, numericIds(ids)),
  tickets: (db, accountId, ids) => ticketRecordsByIds(db, accountId, numericIds(ids)),
});
