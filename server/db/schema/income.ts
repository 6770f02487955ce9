/**
 * Income records and operators' airdrops.
 */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, userRef, accountRef, money, status, timestamps, grant } from './columns.js';

/**
 * Income lines (spec "Income"): each a customer sees is paid by one ledger transfer
 * (`transferKey`), made when it arrives: at once (`arrived`) or later (`pending_arrival`, e.g.
 * hosting interest paid at maturity). `key` is derived from the cause, unique, so a repeated
 * cause writes no second line. `earningsDate` and `arrivalDate` are local dates (YYYY-MM-DD in
 * COFFER_TIMEZONE); a pending line's arrival date is the expected one.
 */
export const income = pgTable(
  'income',
  {
    id: id(),
    accountId: accountRef(),
    userId: userRef(),
    type: text('type').notNull(),
    amount: money('amount'),
    earningsDate: text('earnings_date').notNull(),
    arrivalDate: text('arrival_date').notNull(),
    status: status(),
    key: text('key').notNull(),
    transferKey: text('transfer_key').notNull(),
    sourceTable: text('source_table').notNull(),
    sourceId: text('source_id').notNull(),
    memo: text('memo'),
    /** A team line's source: the member whose static income paid it, its generation, base and rate. */
    source: jsonb('source').$type<Record<string, unknown>>(),
    arrivedAt: at('arrived_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('income_key').on(t.key),
    index('income_account').on(t.accountId, t.id),
    index('income_account_type').on(t.accountId, t.type, t.id),
    index('income_source').on(t.sourceTable, t.sourceId),
    check(
      'income_type',
      sql`${t.type} in ('static', 'promotion', 'management', 'airdrop', 'dividend', 'mining_machine')`,
    ),
    check('income_status', sql`${t.status} in ('pending_arrival', 'arrived')`),
    check('income_amount_positive', sql`${t.amount} > 0`),
    check('income_arrived_at', sql`(${t.status} = 'arrived') = (${t.arrivedAt} is not null)`),
  ],
);

/** Operators' airdrops: `amount` paid to each of `accountIds` from incentive expense, audited. */
export const airdrops = pgTable('airdrops', {
  id: id(),
  amount: money('amount'),
  ...grant(),
});
