/**
 * SQL of mining machines and tickets: the machines on offer, customers' holdings,
 * each holding's daily output (`machine_earnings`), tickets and operators' ticket issues.
 */
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { idIn, idRows } from './rows.js';
import { accountRecordsByStatus } from './account-rows.js';
import { catalogueItems } from './catalogue-rows.js';
import { dayPayoutRows } from './day-payouts.js';
import { machineEarnings, machines, ownedMachines, ticketIssues, tickets } from '../db/schema.js';

export type MachineRow = typeof machines.$inferSelect;
export type OwnedMachineRow = typeof ownedMachines.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type TicketIssueRow = typeof ticketIssues.$inferSelect;

// ---- machines ----

/** Every machine (active ones only when `activeOnly`), by id. */
export const listMachines = (db: Executor, activeOnly: boolean): Promise<MachineRow[]> =>
  catalogueItems(db, machines, activeOnly, asc(machines.id));

const machineRows = idRows(machines);
export const { find: findMachine, insert: insertMachine } = machineRows;

/** The machines with these ids (a pull's loader). */
export async function machinesByIds(db: Executor, ids: readonly number[]): Promise<MachineRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(machines).where(idIn(machines.id, ids));
}

/** Updates a machine; null when there is no such machine. */
export const updateMachine = machineRows.updateIfAny;

// ---- holdings ----

export const { insert: insertOwnedMachine, update: updateOwnedMachine } = idRows(ownedMachines);

/** The account's holdings: a page newest first (of one status when given), or those with these ids. */
export const { page: listOwnedMachines, byIds: ownedMachinesByIds } = accountRecordsByStatus(ownedMachines);

/** Every active holding of the account (the totals of machine/index; a holding is at most 100 machines). */
export async function activeOwnedMachines(db: Executor, accountId: number): Promise<OwnedMachineRow[]> {
  return db
    .select()
    .from(ownedMachines)
    .where(and(eq(ownedMachines.accountId, accountId), eq(ownedMachines.status, 'active')))
    .orderBy(asc(ownedMachines.id));
}

/** USDT all the account's holdings earned (minor units). */
export async function earnedOfAccount(db: Executor, accountId: number): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ownedMachines.earned}), 0)::text` })
    .from(ownedMachines)
    .where(eq(ownedMachines.accountId, accountId));
  return BigInt(row?.total ?? '0');
}

/**
 * The active holdings with a whole local day not yet paid before `dayStart` (today's local
 * midnight), locked, by id, at most `limit`: the daily job's work (a holding whose term ended
 * is among them until its last day is paid and it expires).
 */
export async function lockOwnedMachinesDue(
  db: Executor,
  query: { dayStart: Date; limit: number },
): Promise<OwnedMachineRow[]> {
  return db
    .select()
    .from(ownedMachines)
    .where(and(eq(ownedMachines.status, 'active'), lt(ownedMachines.earnedUntil, query.dayStart)))
    .orderBy(asc(ownedMachines.id))
    .limit(query.limit)
    .for('update');
}

/** A holding's output for one local day: recorded once, then named its income line. */
export const { insert: insertEarning, setIncome: setEarningIncome } = dayPayoutRows(
  machineEarnings,
  machineEarnings.ownedMachineId,
);

// ---- tickets ----

/**
 * Inserts tickets, skipping any whose `key` exists (a repeated cause issues nothing twice);
 * returns the tickets written.
 */
export async function insertTickets(
  db: Executor,
  rows: ReadonlyArray<typeof tickets.$inferInsert>,
): Promise<TicketRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(tickets)
    .values([...rows])
    .onConflictDoNothing({ target: tickets.key })
    .returning();
}

/**
 * Takes up to `count` of the account's available tickets, oldest first, locked until the
 * transaction ends. A ticket a concurrent buy took meanwhile is re-checked once that buy
 * commits and skipped (no longer available), and the scan goes on to the next, so two racing
 * buys never get the same ticket; fewer than `count` come back only when no more are left.
 */
export async function lockAvailableTickets(
  db: Executor,
  accountId: number,
  count: number,
): Promise<TicketRow[]> {
  return db
    .select()
    .from(tickets)
    .where(and(eq(tickets.accountId, accountId), eq(tickets.status, 'available')))
    .orderBy(asc(tickets.id))
    .limit(count)
    .for('update');
}

/** Marks locked tickets used for a holding; returns them. */
export async function useTickets(
  db: Executor,
  ids: readonly number[],
  usedFor: number,
  at: Date,
): Promise<TicketRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(tickets)
    .set({ status: 'used', usedAt: at, usedFor, updatedAt: at })
    .where(and(idIn(tickets.id, ids), eq(tickets.status, 'available')))
    .returning();
}

/** The account's tickets: a page newest first (of one status when given), or those with these ids. */
export const { page: listTickets, byIds: ticketsByIds } = accountRecordsByStatus(tickets);

/** How many tickets the account has available. */
export async function availableTicketCount(db: Executor, accountId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)::text` })
    .from(tickets)
    .where(and(eq(tickets.accountId, accountId), eq(tickets.status, 'available')));
  return Number(row?.count ?? '0');
}

/** The account's tickets with these ids (a pull's loader): others' ids find nothing. */

/** Records an operator's ticket issue (its tickets are written by the caller in the same transaction). */
export const { insert: insertTicketIssue } = idRows(ticketIssues);
