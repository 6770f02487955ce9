/**
 * SQL of AI dividends and their release records. Each write of a release also records the change
 * of the account-scoped `dividend_releases` collection in the same transaction.
 */
import { and, asc, eq, gt, lte, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.js';
import { rowsNewestFirst } from './rows.js';
import { accountRowsByIds, accountRowsNewestFirst, type AccountPage } from './account-rows.js';
import { dividendReleases, dividends } from '../db/schema.js';
import { customerHostingBalancesAt } from '../ledger/balance-sql.js';
import { recordChanges } from './sync.repository.js';

export type DividendRow = typeof dividends.$inferSelect;
export type DividendReleaseRow = typeof dividendReleases.$inferSelect;
export type DividendReleaseStatusFilter = 'to_be_claimed' | 'claimed' | 'expired';

const COLLECTION = 'dividend_releases';
const changed = (rows: readonly DividendReleaseRow[], at: Date) =>
  rows.map((row) => ({
    collection: COLLECTION,
    scopeId: row.accountId,
    recordId: String(row.id),
    deleted: false,
    at,
  }));

const integer = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));
const balancesSchema = z.object({
  rows: z.array(z.object({ account_id: integer, user_id: integer, balance: integer })),
});

/**
 * Every customer account's USDT hosting balance at `end` (exclusive), as the ledger held it: the
 * balance after the account's last hosting transfer before `end` (a customer's book is one row,
 * so its transfers' ids follow the order they were applied in). Accounts with none are left out.
 */
export async function hostingBalancesAt(
  db: Executor,
  end: Date,
): Promise<Array<{ accountId: number; userId: number; balance: bigint }>> {
  const result = balancesSchema.parse(
    await db.execute(sql`
      select h.owner as account_id, a.user_id, h.balance
        from ${customerHostingBalancesAt(end)} h
        join accounts a on a.id = h.owner
       order by h.owner`),
  );
  return result.rows.map((row) => ({
    accountId: Number(row.account_id),
    userId: Number(row.user_id),
    balance: row.balance,
  }));
}

/** Inserts a dividend; null when one was already published for its day (the unique index). */
export async function insertDividend(
  db: Executor,
  row: typeof dividends.$inferInsert,
): Promise<DividendRow | null> {
  const [saved] = await db
    .insert(dividends)
    .values(row)
    .onConflictDoNothing({ target: dividends.day })
    .returning();
  return saved ?? null;
}

export async function findDividendByDay(db: Executor, day: string): Promise<DividendRow | undefined> {
  const [row] = await db.select().from(dividends).where(eq(dividends.day, day));
  return row;
}

/** Dividends newest first, below `beforeId` when given. */
export async function listDividends(
  db: Executor,
  filter: { beforeId: number | undefined; limit: number },
): Promise<DividendRow[]> {
  return rowsNewestFirst(db, dividends, filter);
}

/** Inserts a dividend's release records (one statement) and records them for sync. */
export async function insertReleases(
  db: Executor,
  rows: ReadonlyArray<typeof dividendReleases.$inferInsert>,
  at: Date,
): Promise<DividendReleaseRow[]> {
  if (rows.length === 0) return [];
  const saved = await db
    .insert(dividendReleases)
    .values([...rows])
    .returning();
  await recordChanges(db, changed(saved, at));
  return saved;
}

/** The condition of a status as it stands at `now`: a record to be claimed past its expiry is expired. */
function statusAt(status: DividendReleaseStatusFilter, now: Date): SQL | undefined {
  if (status === 'claimed') return eq(dividendReleases.status, 'claimed');
  if (status === 'to_be_claimed')
    return and(eq(dividendReleases.status, 'to_be_claimed'), gt(dividendReleases.expiresAt, now));
  return or(
    eq(dividendReleases.status, 'expired'),
    and(eq(dividendReleases.status, 'to_be_claimed'), lte(dividendReleases.expiresAt, now)),
  );
}

/** The account's release records newest first, below `beforeId`, of one status (as at `now`) when given. */
export async function listReleases(
  db: Executor,
  filter: AccountPage & { status: DividendReleaseStatusFilter | undefined; now: Date },
): Promise<DividendReleaseRow[]> {
  const status = filter.status === undefined ? undefined : statusAt(filter.status, filter.now);
  return accountRowsNewestFirst(db, dividendReleases, filter, status);
}

/** The account's records with these ids (a pull's loader): others' ids find nothing. */
export const releasesByIds = (
  db: Executor,
  accountId: number,
  ids: readonly number[],
): Promise<DividendReleaseRow[]> => accountRowsByIds(db, dividendReleases, accountId, ids);

const totalsSchema = z.object({
  rows: z.array(
    z.object({
      claimable: integer,
      claimable_count: integer,
      claimed: integer,
      expired: integer,
      next_expires_at: z.union([z.string(), z.date()]).nullable(),
    }),
  ),
});

/** The account's sums per status as at `now`, and when its first claimable record expires. */
export async function releaseTotals(
  db: Executor,
  accountId: number,
  now: Date,
): Promise<{
  claimable: bigint;
  claimableCount: number;
  claimed: bigint;
  expired: bigint;
  nextExpiresAt: Date | null;
}> {
  const claimable = sql`status = 'to_be_claimed' and expires_at > ${now}::timestamptz`;
  const result = totalsSchema.parse(
    await db.execute(sql`
      select coalesce(sum(amount) filter (where ${claimable}), 0) as claimable,
             count(*) filter (where ${claimable}) as claimable_count,
             coalesce(sum(amount) filter (where status = 'claimed'), 0) as claimed,
             coalesce(sum(amount) filter (where not (${claimable}) and status <> 'claimed'), 0) as expired,
             min(expires_at) filter (where ${claimable}) as next_expires_at
        from dividend_releases
       where account_id = ${accountId}::bigint`),
  );
  const [row] = result.rows;
  if (!row) throw new Error('dividend_releases: totals answered nothing');
  return {
    claimable: row.claimable,
    claimableCount: Number(row.claimable_count),
    claimed: row.claimed,
    expired: row.expired,
    nextExpiresAt: row.next_expires_at === null ? null : new Date(row.next_expires_at),
  };
}

/**
 * Locks the account's records a claim may pay, in id order (so two claims never wait on each
 * other in a cycle): record `id` (whatever its status, so the caller can say why it is refused),
 * or every record still to be claimed. The caller decides on the locked rows.
 */
export async function lockReleasesForClaim(
  db: Executor,
  accountId: number,
  id: number | undefined,
): Promise<DividendReleaseRow[]> {
  const where =
    id === undefined
      ? and(eq(dividendReleases.accountId, accountId), eq(dividendReleases.status, 'to_be_claimed'))
      : and(eq(dividendReleases.accountId, accountId), eq(dividendReleases.id, id));
  return db.select().from(dividendReleases).where(where).orderBy(asc(dividendReleases.id)).for('update');
}

/** Marks a locked record claimed, with the income line that paid it, and records the change. */
export async function markReleaseClaimed(
  db: Executor,
  input: { id: number; incomeId: number; at: Date },
): Promise<DividendReleaseRow> {
  const [row] = await db
    .update(dividendReleases)
    .set({ status: 'claimed', claimedAt: input.at, incomeId: input.incomeId, updatedAt: input.at })
    .where(and(eq(dividendReleases.id, input.id), eq(dividendReleases.status, 'to_be_claimed')))
    .returning();
  if (!row) throw new Error(`dividend_releases: ${input.id} was not to be claimed`);
  await recordChanges(db, changed([row], input.at));
  return row;
}

/** Marks every record to be claimed whose expiry has passed as expired, and records the changes. */
export async function expireReleases(db: Executor, now: Date): Promise<DividendReleaseRow[]> {
  const rows = await db
    .update(dividendReleases)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(dividendReleases.status, 'to_be_claimed'), lte(dividendReleases.expiresAt, now)))
    .returning();
  await recordChanges(db, changed(rows, now));
  return rows;
}
