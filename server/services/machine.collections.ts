/** The machine sync collections: the machines offered (public), the account's holdings and tickets. */
import { MachineService } from './machine.service.js';
import { defineCollections, numericIds } from './sync-collection.js';

export const machineCollections = defineCollections({
  machines: (db, _scope, ids) => MachineService.machineRecordsByIds(db, numericIds(ids)),
  owned_machines: (db, accountId, ids) => MachineService.ownedRecordsByIds(db, accountId, numericIds(ids)),
  tickets: (db, accountId, ids) => MachineService.ticketRecordsByIds(db, accountId, numericIds(ids)),
});
