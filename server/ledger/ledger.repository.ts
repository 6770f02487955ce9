/** The ledger's SQL: balances, transfers and holds. Only server/ledger calls it. */
import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/database.js';
import { accounts, ledgerBalances, ledgerHolds, ledgerTransfers } from '../db/schema.js';
import type { BalanceRow } from './books.js';

export type TransferRow = typeof ledgerTransfers.$inferSelect;
export type NewTransferRow = typeof ledgerTransfers.$inferInsert;
export type HoldRow = typeof ledgerHolds.$inferSelect;
export type NewHoldRow = typeof ledgerHolds.$inferInsert;

export async function findTransferByKey(db: Executor, key: string): Promise<TransferRow | undefined> {
  const [row] = await db.select().from(ledgerTransfers).where(eq(ledgerTransfers.key, key));
  return row;
}

/** One transfer of an event, as `ledger_event` takes it (a row of each side named by its slot). */
export interface EventTransfer {
  key: string;
  kind: string;
  asset: string;
  debit: BalanceRow;
  credit: BalanceRow;
  amount: bigint;
  refTable: string;
  refId: string;
}

const bigintText = z.union([z.string(), z.number(), z.bigint()]);
const eventRowsSchema = z.object({
  rows: z.array(
    z.object({
      status: z.enum(['applied', 'existing', 'insufficient']),
      id: bigintText.nullable(),
      amount: bigintText.nullable(),
      debit_balance_after: bigintText.nullable(),
      credit_balance_after: bigintText.nullable(),
      created_at: z.union([z.date(), z.string()]).nullable(),
    }),
  ),
});

/**
 * What an event answers of each transfer it wrote or found: its id, amount, balances after and
 * time. The rest of the row is the caller's own input; each column more is described, sent and
 * parsed on every call (the ledger's hot path: 16 columns ran 10 % slower than these).
 */
export type TransferResult = Pick<
  TransferRow,
  'id' | 'amount' | 'debitBalanceAfter' | 'creditBalanceAfter' | 'createdAt'
>;

/**
 * The function an event of `count` transfers goes to: one transfer or more than two to
 * `ledger_event` (migration 0029 does one, 0031's `ledger_event_many` several), two to
 * `ledger_event_pair` (0032: a payment and its fee, from one book; another shape of two it hands
 * to `ledger_event_many`).
 */
export function eventFunction(count: number): keyof typeof EVENT_STATEMENTS {
  return count === 2 ? 'ledger_event_pair' : 'ledger_event';
}

/**
 * Each function's one statement: a constant text, so PostgreSQL parses and plans it once per
 * connection, under its own prepared statement's name (node-postgres).
 */
const EVENT_STATEMENTS = {
  ledger_event: { name: 'ledger_event_v2', sql: eventSql('ledger_event') },
  ledger_event_pair: { name: 'ledger_event_pair_v1', sql: eventSql('ledger_event_pair') },
} as const;

function eventSql(fn: string): string {
  return `select status, id, amount, debit_balance_after, credit_balance_after, created_at from ${fn}($1::jsonb, $2::timestamptz)`;
}

/**
 * A whole event (one transfer or several) in ONE round trip: its function (`eventFunction`)
 * takes every key's lock and looks them up, locks every balance row in the global order, checks
 * each customer debit where it comes in the event, then writes the balances, the transfers (in
 * the event's order) and the sync change log; a short debit leaves nothing. Answers what each
 * transfer stored (`TransferResult`), in the event's order (`applied` false when its key
 * existed), or `insufficient`.
 *
 * It runs as a named prepared statement (Drizzle's session API, so the query logger still sees
 * it): with node-postgres the text is parsed once per pooled connection, then only bound and
 * executed; PGlite ignores the name.
 */
export async function applyEvent(
  db: Executor,
  transfers: readonly EventTransfer[],
  at: Date,
): Promise<'insufficient' | { applied: boolean; transfer: TransferResult }[]> {
  const json = JSON.stringify(
    transfers.map((t) => ({
      key: t.key,
      kind: t.kind,
      asset: t.asset,
      debit_owner: t.debit.owner,
      debit_book: t.debit.book,
      debit_slot: t.debit.slot,
      credit_owner: t.credit.owner,
      credit_book: t.credit.book,
      credit_slot: t.credit.slot,
      amount: t.amount.toString(),
      ref_table: t.refTable,
      ref_id: t.refId,
    })),
  );
  const statement = EVENT_STATEMENTS[eventFunction(transfers.length)];
  const result = eventRowsSchema.parse(
    await db._.session
      .prepareQuery(
        { sql: statement.sql, params: [json, at.toISOString()] },
        undefined,
        statement.name,
        false,
      )
      .execute(),
  );
  if (result.rows.some((row) => row.status === 'insufficient')) return 'insufficient';
  if (result.rows.length !== transfers.length)
    throw new Error(`ledger_event answered ${result.rows.length} rows for ${transfers.length} transfers`);
  return result.rows.map((row) => {
    if (row.id === null || row.amount === null || row.created_at === null)
      throw new Error('ledger_event answered a transfer without its columns');
    return {
      applied: row.status === 'applied',
      transfer: {
        id: Number(row.id),
        amount: BigInt(row.amount),
        debitBalanceAfter: bigintOrNull(row.debit_balance_after),
        creditBalanceAfter: bigintOrNull(row.credit_balance_after),
        createdAt: new Date(row.created_at),
      },
    };
  });
}

const bigintOrNull = (value: string | number | bigint | null) => (value === null ? null : BigInt(value));

/** Opens a Coffer account's books (cash, hosting, held; every asset) at 0, so transfers find their rows. */
export async function openBooks(
  db: Executor,
  owner: number,
  books: readonly string[],
  assets: readonly string[],
) {
  await db
    .insert(ledgerBalances)
    .values(books.flatMap((book) => assets.map((asset) => ({ owner, book, asset, slot: 0, balance: 0n }))))
    .onConflictDoNothing();
}

/** Every book of the given owners with its balance (slots summed). */
export async function balancesOf(db: Executor, owners: readonly number[]) {
  if (owners.length === 0) return [];
  const rows = await db
    .select({
      owner: ledgerBalances.owner,
      book: ledgerBalances.book,
      asset: ledgerBalances.asset,
      balance: sql<string>`sum(${ledgerBalances.balance})::text`,
    })
    .from(ledgerBalances)
    .where(inArray(ledgerBalances.owner, [...owners]))
    .groupBy(ledgerBalances.owner, ledgerBalances.book, ledgerBalances.asset);
  return rows.map((row) => ({ ...row, balance: BigInt(row.balance) }));
}

/**
 * One side of the account's transfers, newest first, below `beforeId`: those it paid
 * (`debit`) or those it received (`credit`); at most `limit`.
 */
export async function transfersOfSide(
  db: Executor,
  query: {
    owner: number;
    side: 'debit' | 'credit';
    beforeId: number | null;
    kind: string | null;
    limit: number;
  },
): Promise<TransferRow[]> {
  const ownerColumn = query.side === 'debit' ? ledgerTransfers.debitOwner : ledgerTransfers.creditOwner;
  return db
    .select()
    .from(ledgerTransfers)
    .where(
      and(
        eq(ownerColumn, query.owner),
        query.beforeId === null ? undefined : lt(ledgerTransfers.id, query.beforeId),
        query.kind === null ? undefined : eq(ledgerTransfers.kind, query.kind),
      ),
    )
    .orderBy(desc(ledgerTransfers.id))
    .limit(query.limit);
}

/** Transfers by id that the owner is a side of. */
export async function transfersOfOwnerByIds(db: Executor, owner: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(ledgerTransfers)
    .where(
      and(
        inArray(ledgerTransfers.id, [...ids]),
        or(eq(ledgerTransfers.debitOwner, owner), eq(ledgerTransfers.creditOwner, owner)),
      ),
    )
    .orderBy(asc(ledgerTransfers.id));
}

/**
 * When the newest transfer the owner is a side of was written; undefined when none was. One
 * query per side, each the head of its own index ((debit_owner, id), (credit_owner, id)): an OR
 * of both would read every transfer of the owner, or scan the table backwards.
 */
export async function latestTransferAt(db: Executor, owner: number): Promise<Date | undefined> {
  const [debit, credit] = await Promise.all(
    [ledgerTransfers.debitOwner, ledgerTransfers.creditOwner].map((column) =>
      db
        .select({ at: ledgerTransfers.createdAt })
        .from(ledgerTransfers)
        .where(eq(column, owner))
        .orderBy(desc(ledgerTransfers.id))
        .limit(1),
    ),
  );
  const times = [debit?.[0]?.at, credit?.[0]?.at].filter((at): at is Date => at !== undefined);
  return times.length === 0 ? undefined : new Date(Math.max(...times.map((at) => at.getTime())));
}

/** Inserts a hold; undefined when its key exists already. */
export async function insertHold(db: Executor, row: NewHoldRow): Promise<HoldRow | undefined> {
  const [inserted] = await db.insert(ledgerHolds).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function findHoldByKey(db: Executor, key: string): Promise<HoldRow | undefined> {
  const [row] = await db.select().from(ledgerHolds).where(eq(ledgerHolds.key, key));
  return row;
}

/** Locks a hold row for this transaction and returns it as it is now. */
export async function lockHold(db: Executor, id: number): Promise<HoldRow | undefined> {
  const [row] = await db.select().from(ledgerHolds).where(eq(ledgerHolds.id, id)).for('update');
  return row;
}

/** Sets what a locked hold still holds and its status. */
export async function updateHold(
  db: Executor,
  id: number,
  change: { remaining: bigint; status: HoldRow['status']; updatedAt: Date },
): Promise<void> {
  await db.update(ledgerHolds).set(change).where(eq(ledgerHolds.id, id));
}

const violationRowsSchema = z.object({
  rows: z.array(
    z.object({
      rule: z.string(),
      asset: z.string(),
      owner: z.union([z.string(), z.number()]).nullable(),
      book: z.string().nullable(),
      expected: z.string(),
      actual: z.string(),
    }),
  ),
});

/**
 * Every violation of the ledger's invariants, at most 20 per rule, in ONE statement, so that
 * all four rules see one snapshot even under READ COMMITTED while transfers go on:
 * sum_zero (per asset, all books sum to zero), balance_matches_transfers (a book's balance is
 * its credits minus its debits), never_negative (customer books), held_covers_holds (a held
 * book covers what its pending holds still hold). Amounts are minor units as text.
 */
export async function invariantViolations(db: Executor) {
  const result = await db.execute(sql`
    with moves as (
      select debit_owner as owner, debit_book as book, asset, -sum(amount) as delta
        from ledger_transfers group by 1, 2, 3
      union all
      select credit_owner, credit_book, asset, sum(amount)
        from ledger_transfers group by 1, 2, 3
    ), sums as (
      select owner, book, asset, sum(delta) as expected from moves group by 1, 2, 3
    ), balances as (
      select owner, book, asset, sum(balance) as actual from ledger_balances group by 1, 2, 3
    ), pending as (
      select owner, asset, sum(remaining) as expected from ledger_holds where status = 'pending' group by 1, 2
    )
    (select 'sum_zero' as rule, asset, null::bigint as owner, null::text as book,
            '0' as expected, sum(balance)::text as actual
       from ledger_balances group by asset having sum(balance) <> 0)
    union all
    (select 'balance_matches_transfers', asset, owner, book,
            coalesce(expected, 0)::text, coalesce(actual, 0)::text
       from sums full join balances using (owner, book, asset)
      where coalesce(expected, 0) <> coalesce(actual, 0)
      order by owner, book, asset limit 20)
    union all
    (select 'never_negative', asset, owner, book, '0', balance::text
       from ledger_balances where owner <> 0 and balance < 0
      order by owner, book, asset limit 20)
    union all
    (select 'held_covers_holds', pending.asset, pending.owner, 'held',
            pending.expected::text, coalesce(b.balance, 0)::text
       from pending left join ledger_balances b
         on b.owner = pending.owner and b.book = 'held' and b.asset = pending.asset and b.slot = 0
      where coalesce(b.balance, 0) < pending.expected
      order by pending.owner, pending.asset limit 20)`);
  return violationRowsSchema.parse(result).rows;
}

/** One credit of a batch (`applyCredits`), with the customer book's balance right after it. */
export interface CreditRow {
  key: string;
  kind: string;
  owner: number;
  amount: bigint;
  balanceAfter: bigint;
  refTable: string;
  refId: string;
}

const keyRowsSchema = z.object({ rows: z.array(z.object({ key: z.string() })) });
const insertedRowsSchema = z.object({
  rows: z.array(z.object({ id: z.union([z.string(), z.number()]), key: z.string() })),
});
const balanceRowsSchema = z.object({
  rows: z.array(
    z.object({ owner: z.union([z.string(), z.number()]), balance: z.union([z.string(), z.number()]) }),
  ),
});

/** Which of `keys` have a transfer already (one statement, through the unique index). */
export async function existingTransferKeys(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const result = keyRowsSchema.parse(
    await db.execute(sql`select t.key from ledger_transfers t
      where t.key in (select value from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))`),
  );
  return new Set(result.rows.map((row) => row.key));
}

/**
 * Locks one platform slot's row and the customers' rows of `book` (created at 0 on first use), in
 * the global order `ledger_event` locks in (owner, book, asset, slot), and answers each
 * customer's balance now.
 */
export async function lockCreditRows(
  db: Executor,
  input: { asset: string; fromBook: string; slot: number; toBook: string; owners: readonly number[] },
): Promise<Map<number, bigint>> {
  const owners = JSON.stringify(input.owners.map(String));
  await db.execute(sql`insert into ledger_balances (owner, book, asset, slot, balance)
    select o::bigint, ${input.toBook}, ${input.asset}, 0, 0 from jsonb_array_elements_text(${owners}::jsonb) o
    union all select 0, ${input.fromBook}, ${input.asset}, ${input.slot}::smallint, 0
    on conflict do nothing`);
  const result = balanceRowsSchema.parse(
    await db.execute(sql`select b.owner, b.balance::text as balance
      from (select 0::bigint as owner, ${input.fromBook}::text as book, ${input.slot}::smallint as slot
            union all
            select o::bigint, ${input.toBook}::text, 0::smallint from jsonb_array_elements_text(${owners}::jsonb) o) w
      join ledger_balances b on b.owner = w.owner and b.book = w.book and b.asset = ${input.asset} and b.slot = w.slot
      order by b.owner, b.book collate "C", b.asset collate "C", b.slot
      for update of b`),
  );
  return new Map(
    result.rows
      .filter((row) => Number(row.owner) !== 0)
      .map((row) => [Number(row.owner), BigInt(row.balance)]),
  );
}

/**
 * Writes a batch of credits from one platform slot to customers' `toBook` whose rows the caller
 * locked (`lockCreditRows`) and whose keys are new: both balances, the transfers in the order
 * given (each with the customer's balance after it) and the sync change log (each customer side
 * as a wallet record, each account's balances), in three statements. Answers each key's id.
 */
export async function applyCredits(
  db: Executor,
  input: {
    asset: string;
    fromBook: string;
    slot: number;
    toBook: string;
    at: Date;
    rows: readonly CreditRow[];
  },
): Promise<Map<string, number>> {
  if (input.rows.length === 0) return new Map();
  const totals = new Map<number, bigint>();
  let sum = 0n;
  for (const row of input.rows) {
    totals.set(row.owner, (totals.get(row.owner) ?? 0n) + row.amount);
    sum += row.amount;
  }
  const totalsJson = JSON.stringify(
    [...totals].map(([owner, total]) => ({ owner: String(owner), total: String(total) })),
  );
  await db.execute(sql`update ledger_balances b set balance = b.balance + d.total
    from jsonb_to_recordset(${totalsJson}::jsonb) as d(owner bigint, total bigint)
    where b.owner = d.owner and b.book = ${input.toBook} and b.asset = ${input.asset} and b.slot = 0`);
  await db.execute(sql`update ledger_balances set balance = balance - ${String(sum)}::bigint
    where owner = 0 and book = ${input.fromBook} and asset = ${input.asset} and slot = ${input.slot}::smallint`);
  const rowsJson = JSON.stringify(
    input.rows.map((row, n) => ({
      n,
      key: row.key,
      kind: row.kind,
      owner: String(row.owner),
      amount: String(row.amount),
      after: String(row.balanceAfter),
      ref_table: row.refTable,
      ref_id: row.refId,
    })),
  );
  const result = insertedRowsSchema.parse(
    await db.execute(sql`
      with inserted as (
        insert into ledger_transfers (key, kind, asset, debit_owner, debit_book, credit_owner, credit_book,
                                      amount, debit_balance_after, credit_balance_after, ref_table, ref_id, created_at)
        select i.key, i.kind, ${input.asset}, 0, ${input.fromBook}, i.owner, ${input.toBook},
               i.amount, null, i.after, i.ref_table, i.ref_id, ${input.at}::timestamptz
          from jsonb_to_recordset(${rowsJson}::jsonb)
               as i(n integer, key text, kind text, owner bigint, amount bigint, after bigint, ref_table text, ref_id text)
         order by i.n
        returning id, key, credit_owner
      ), changes as (
        insert into sync_changes (collection, scope_id, record_id, deleted, at)
        select 'records', credit_owner, id::text || '-c', false, ${input.at}::timestamptz from inserted
        union all
        select distinct 'balances', credit_owner, credit_owner::text, false, ${input.at}::timestamptz from inserted
      )
      select id, key from inserted`),
  );
  return new Map(result.rows.map((row) => [row.key, Number(row.id)]));
}

/** What all customers hold, per asset and book (cash, held, hosting), in minor units. */
export async function customerBookTotals(db: Executor) {
  const rows = await db
    .select({
      asset: ledgerBalances.asset,
      book: ledgerBalances.book,
      total: sql<string>`sum(${ledgerBalances.balance})::text`,
    })
    .from(ledgerBalances)
    .where(sql`${ledgerBalances.owner} <> 0`)
    .groupBy(ledgerBalances.asset, ledgerBalances.book);
  return rows.map((row) => ({ asset: row.asset, book: row.book, total: BigInt(row.total) }));
}

const userBalanceRowsSchema = z.object({
  rows: z.array(
    z.object({ user_id: z.string().nullable(), asset: z.string(), book: z.string(), total: z.string() }),
  ),
});

/**
 * In one statement, so from one snapshot of the database (what a repeatable-read transaction
 * gives): every user's balances summed over all their accounts per asset and book (`userId` set),
 * and all customers' totals per asset and book (`userId` null), in minor units. Rows of users
 * whose balances are all zero are there too; a user without a balance row has none.
 */
export async function customerBalancesByUser(db: Executor) {
  const result = userBalanceRowsSchema.parse(
    await db.execute(sql`
    select a.user_id::text as user_id, b.asset, b.book, sum(b.balance)::text as total
      from ${ledgerBalances} b join ${accounts} a on a.id = b.owner
     where b.owner <> 0
     group by a.user_id, b.asset, b.book
    union all
    select null, asset, book, sum(balance)::text
      from ${ledgerBalances}
     where owner <> 0
     group by asset, book`),
  );
  return result.rows.map((row) => ({
    userId: row.user_id === null ? null : Number(row.user_id),
    asset: row.asset,
    book: row.book,
    total: BigInt(row.total),
  }));
}
