/** SQL about users, their accounts and their referral chain. */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/database.js';
import { findRow, idIn, insertRowUnlessTaken } from './rows.js';
import { accounts, inviteCodes, referralPaths, users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row;
}

export const findUserById = (db: Executor, id: number): Promise<UserRow | undefined> =>
  findRow(db, users, id);

const referrers = alias(users, 'referrers');

/** A user and its referrer's invite code (null: none), in one query. */
export async function findUserWithReferrerCode(
  db: Executor,
  id: number,
): Promise<{ user: UserRow; referrerInviteCode: string | null } | undefined> {
  const [row] = await db
    .select({ user: users, referrerInviteCode: referrers.inviteCode })
    .from(users)
    .leftJoin(referrers, eq(referrers.id, users.referrerId))
    .where(eq(users.id, id));
  return row;
}

/** Inserts a user; undefined when the address (or invite code) is already taken, even by a racing insert. */
export const insertUser = (db: Executor, user: NewUser): Promise<UserRow | undefined> =>
  insertRowUnlessTaken(db, users, user);

/** Updates nickname and/or avatar; undefined when the user does not exist. */
export async function updateUserProfile(
  db: Executor,
  userId: number,
  change: { nickname?: string; avatar?: string; updatedAt: Date },
): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set(change).where(eq(users.id, userId)).returning();
  return row;
}

export async function setDefaultAccount(db: Executor, userId: number, accountId: number): Promise<void> {
  await db.update(users).set({ defaultAccountId: accountId }).where(eq(users.id, userId));
}

export async function setPasswordHash(
  db: Executor,
  userId: number,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await db.update(users).set({ passwordHash, passwordChangedAt: at }).where(eq(users.id, userId));
}

export async function insertAccount(
  db: Executor,
  account: typeof accounts.$inferInsert,
): Promise<typeof accounts.$inferSelect> {
  const [row] = await db.insert(accounts).values(account).returning();
  if (!row) throw new Error('account insert returned nothing');
  return row;
}

/** Locks the user's row for this transaction: account changes of one user happen one at a time. */
export async function lockUser(db: Executor, userId: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export async function findAccount(db: Executor, accountId: number) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row;
}

export async function listAccounts(db: Executor, userId: number) {
  return db.select().from(accounts).where(eq(accounts.userId, userId)).orderBy(asc(accounts.id));
}

/**
 * The id of the user's account `accountId`, or with null the user's default account (else its
 * first); undefined when there is none such. One query.
 */
export async function findOwnAccountId(
  db: Executor,
  userId: number,
  accountId: number | null,
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(eq(accounts.userId, userId), accountId === null ? undefined : eq(accounts.id, accountId)))
    .orderBy(sql`(${accounts.id} = ${users.defaultAccountId}) is true desc`, asc(accounts.id))
    .limit(1);
  return row?.id;
}

/** Stores the whole chain: the new user under the referrer and under each of the referrer's ancestors. */
export async function insertReferralChain(db: Executor, referrerId: number, userId: number): Promise<void> {
  await db.execute(sql`
    insert into ${referralPaths} (ancestor_id, descendant_id, depth)
    select ${referrerId}::bigint, ${userId}::bigint, 1
    union all
    select ancestor_id, ${userId}::bigint, depth + 1 from ${referralPaths} where descendant_id = ${referrerId}`);
}

export async function listAncestors(db: Executor, userId: number) {
  return db
    .select({ ancestorId: referralPaths.ancestorId, depth: referralPaths.depth })
    .from(referralPaths)
    .where(eq(referralPaths.descendantId, userId))
    .orderBy(asc(referralPaths.depth));
}

export async function findInvite(db: Executor, code: string) {
  const [row] = await db
    .select()
    .from(inviteCodes)
    .where(and(eq(inviteCodes.code, code), eq(inviteCodes.disabled, false)));
  return row;
}

/** Inserts an invite code; false when the code exists already. */
export async function insertInvite(db: Executor, invite: typeof inviteCodes.$inferInsert): Promise<boolean> {
  const rows = await db
    .insert(inviteCodes)
    .values(invite)
    .onConflictDoNothing()
    .returning({ code: inviteCodes.code });
  return rows.length > 0;
}

/** Serializes making the root invite (transaction-scoped): concurrent first starts make one. */
export async function lockRootInvite(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('coffer:root-invite', 0))`);
}

export async function findRootInvite(db: Executor) {
  const [row] = await db.select().from(inviteCodes).where(eq(inviteCodes.root, true));
  return row;
}

/** Gives the unowned root invite to the first operator (CONTRACT.md). */
export async function assignRootInvite(db: Executor, operatorId: number): Promise<void> {
  await db
    .update(inviteCodes)
    .set({ ownerOperatorId: operatorId })
    .where(and(eq(inviteCodes.root, true), isNull(inviteCodes.ownerOperatorId)));
}

export async function listInvites(db: Executor) {
  return db.select().from(inviteCodes).orderBy(asc(inviteCodes.createdAt));
}

/** The accounts with these ids (those that exist). */
export async function accountsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.select().from(accounts).where(idIn(accounts.id, ids)).orderBy(asc(accounts.id));
}
