/** SQL about proof-of-reserves snapshots and their leaves. */
import { asc, desc, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { reserveLeaves, reserveSnapshots, users } from '../db/schema.js';
import { insertRow, rowsNewestFirst, rowWhere } from './rows.js';

export type ReserveSnapshotRow = typeof reserveSnapshots.$inferSelect;
export type ReserveLeafRow = typeof reserveLeaves.$inferSelect;

/** Every user id: each customer has a leaf, a zero one too, so everyone can check theirs. */
export async function allUserIds(db: Executor): Promise<number[]> {
  return (await db.select({ id: users.id }).from(users).orderBy(asc(users.id))).map((row) => row.id);
}

export const insertSnapshot = (db: Executor, row: typeof reserveSnapshots.$inferInsert) =>
  insertRow(db, reserveSnapshots, row);

/** Inserts the leaves in batches (a statement's parameters are bounded). */
export async function insertLeaves(
  db: Executor,
  rows: Array<typeof reserveLeaves.$inferInsert>,
): Promise<void> {
  for (let at = 0; at < rows.length; at += 1000)
    await db.insert(reserveLeaves).values(rows.slice(at, at + 1000));
}

/** The snapshot with this id, or the latest when `id` is undefined. */
export async function findSnapshot(db: Executor, id?: number): Promise<ReserveSnapshotRow | undefined> {
  const query = db.select().from(reserveSnapshots);
  const [row] = await (id === undefined
    ? query.orderBy(desc(reserveSnapshots.id)).limit(1)
    : query.where(eq(reserveSnapshots.id, id)));
  return row;
}

export const snapshotsBefore = (db: Executor, beforeId: number | undefined, limit: number) =>
  rowsNewestFirst(db, reserveSnapshots, { beforeId, limit });

/** A snapshot's leaves in the tree's order. */
export function leavesOf(db: Executor, snapshotId: number): Promise<ReserveLeafRow[]> {
  return db
    .select()
    .from(reserveLeaves)
    .where(eq(reserveLeaves.snapshotId, snapshotId))
    .orderBy(asc(reserveLeaves.position));
}

export const leafOfUser = (db: Executor, snapshotId: number, userId: number) =>
  rowWhere(db, reserveLeaves, eq(reserveLeaves.snapshotId, snapshotId), eq(reserveLeaves.userId, userId));
