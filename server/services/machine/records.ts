/**
 * Mining machine and ticket rows to the contract's records (one mapping each, for lists and
 * pulls), the synced collections' readers by id, and the sync changes saved rows record.
 */
import type {
  Acquisition,
  AdminMachine,
  Machine,
  MachineRecord,
  OwnedMachineRecord,
  OwnedMachineStatus,
  PayWith,
  TicketRecord,
  TicketSource,
  TicketStatus,
} from '../../../contract/api/machine.js';
import type { ProductStatus } from '../../../contract/api/hosting.js';
import type { Locale } from '../../../contract/locales.js';
import { dayOutputText, totalHashPower } from '../../../contract/machine-output.js';
import { moneyText } from '../../../contract/money.js';
import type { Executor } from '../../db/database.js';
import {
  listMachines,
  machinesByIds,
  type MachineRow,
  type OwnedMachineRow,
  type TicketRow,
} from '../../repositories/machine.repository.js';
import type { SyncChange } from '../../repositories/sync.repository.js';
import { catalogueNames, type ItemNames } from '../catalogue.js';
import { accountChange, accountRowIds } from '../records.js';
import { nameIn } from '../hosting/records.js';

/** The table a holding's ledger transfers and income lines refer to (and its collection). */
export const HOLDINGS = 'owned_machines';

/** A machine as operators set it: its record's fields and the audit's detail of each change. */
// The text columns below hold only the values their CHECK constraints allow.
export const machineTerms = (row: MachineRow) => ({
  names: row.names,
  hashPower: row.hashPower,
  price: moneyText(row.price),
  ticketPrice: row.ticketPrice,
  days: row.days,
  dailyOutput: row.dailyOutput,
  rentPrice: row.rentPrice === null ? null : moneyText(row.rentPrice),
  status: row.status as ProductStatus,
});

export const toMachineRecord = (row: MachineRow): MachineRecord => ({
  id: String(row.id),
  ...machineTerms(row),
  machineDailyOutput: dayOutputText(row.hashPower, 1, row.dailyOutput),
  updatedAt: row.updatedAt.toISOString(),
});

export const toMachine = (row: MachineRow, locale: Locale): Machine => ({
  ...toMachineRecord(row),
  name: nameIn(row.names, locale),
});

export const toAdminMachine = (row: MachineRow, locale: Locale): AdminMachine => ({
  ...toMachine(row, locale),
  createdAt: row.createdAt.toISOString(),
  updatedBy: row.updatedBy,
});

export const toOwnedMachineRecord = (row: OwnedMachineRow, names: ItemNames): OwnedMachineRecord => ({
  ...accountRowIds(row),
  machineId: String(row.machineId),
  names,
  acquisition: row.acquisition as Acquisition,
  payWith: row.payWith as PayWith,
  quantity: row.quantity,
  hashPower: row.hashPower,
  totalHashPower: totalHashPower(row.hashPower, row.quantity),
  dailyOutput: row.dailyOutput,
  holdingDailyOutput: dayOutputText(row.hashPower, row.quantity, row.dailyOutput),
  days: row.days,
  paidDays: row.paidDays,
  daysLeft: row.days - row.paidDays,
  price: moneyText(row.price),
  tickets: row.tickets,
  status: row.status as OwnedMachineStatus,
  startAt: row.startAt.toISOString(),
  earnFrom: row.earnFrom.toISOString(),
  endAt: row.endAt.toISOString(),
  earned: moneyText(row.earned),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toTicketRecord = (row: TicketRow): TicketRecord => ({
  ...accountRowIds(row),
  status: row.status as TicketStatus,
  source: row.source as TicketSource,
  memo: row.memo,
  usedAt: row.usedAt?.toISOString() ?? null,
  usedFor: row.usedFor === null ? null : String(row.usedFor),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The machines with these ids, as synced records (the public `machines` collection). */
export async function machineRecordsByIds(db: Executor, ids: readonly number[]): Promise<MachineRecord[]> {
  return (await machinesByIds(db, ids)).map(toMachineRecord);
}

/** Every machine's names by id (disabled ones too). */
export const machineNames = catalogueNames(listMachines);

/** The sync change of a saved holding. */
export const holdingChange = (row: OwnedMachineRow, at: Date): SyncChange => accountChange(HOLDINGS, row, at);

/** The sync change of a saved ticket. */
export const ticketChange = (row: TicketRow, at: Date): SyncChange => accountChange('tickets', row, at);
