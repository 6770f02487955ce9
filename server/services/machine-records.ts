/** Mining machine and ticket rows to the contract's records (one mapping each, for lists and pulls). */
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
} from '../../contract/api/machine.js';
import type { ProductStatus } from '../../contract/api/hosting.js';
import type { Locale } from '../../contract/locales.js';
import { dayOutputText, totalHashPower } from '../../contract/machine-output.js';
import { formatMoney, minor } from '../../contract/money.js';
import type { MachineRow, OwnedMachineRow, TicketRow } from '../repositories/machine.repository.js';
import { nameIn } from './hosting-records.js';

const usdt = (value: bigint) => formatMoney(minor(value));

// The text columns below hold only the values their CHECK constraints allow.
export const toMachineRecord = (row: MachineRow): MachineRecord => ({
  id: String(row.id),
  names: row.names,
  hashPower: row.hashPower,
  price: usdt(row.price),
  ticketPrice: row.ticketPrice,
  days: row.days,
  dailyOutput: row.dailyOutput,
  machineDailyOutput: dayOutputText(row.hashPower, 1, row.dailyOutput),
  rentPrice: row.rentPrice === null ? null : usdt(row.rentPrice),
  status: row.status as ProductStatus,
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

export const toOwnedMachineRecord = (
  row: OwnedMachineRow,
  names: Record<string, string>,
): OwnedMachineRecord => ({
  id: String(row.id),
  accountId: String(row.accountId),
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
  price: usdt(row.price),
  tickets: row.tickets,
  status: row.status as OwnedMachineStatus,
  startAt: row.startAt.toISOString(),
  earnFrom: row.earnFrom.toISOString(),
  endAt: row.endAt.toISOString(),
  earned: usdt(row.earned),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toTicketRecord = (row: TicketRow): TicketRecord => ({
  id: String(row.id),
  accountId: String(row.accountId),
  status: row.status as TicketStatus,
  source: row.source as TicketSource,
  memo: row.memo,
  usedAt: row.usedAt?.toISOString() ?? null,
  usedFor: row.usedFor === null ? null : String(row.usedFor),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
