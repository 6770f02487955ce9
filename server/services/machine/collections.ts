/** The machine sync collections: the machines offered (public), the account's holdings (with their machine's names) and tickets. */
import { ownedMachinesByIds, ticketsByIds } from '../../repositories/machine.repository.js';
import { namedRecordsByIds } from '../catalogue.js';
import { accountRecordsByIds } from '../records.js';
import { defineCollections, numericIds } from '../sync-collection.js';
import { machineNames, machineRecordsByIds, toOwnedMachineRecord, toTicketRecord } from './records.js';

export const machineCollections = defineCollections({
  machines: (db, _scope, ids) => machineRecordsByIds(db, numericIds(ids)),
  owned_machines: namedRecordsByIds(
    ownedMachinesByIds,
    machineNames,
    (row) => row.machineId,
    toOwnedMachineRecord,
  ),
  tickets: accountRecordsByIds(ticketsByIds, toTicketRecord),
});
