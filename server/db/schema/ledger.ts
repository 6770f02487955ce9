/**
 * The ledger's tables (read and written only by server/ledger/): balances, transfers, holds and operators' adjustments.
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, ref, accountRef, money, optionalMoney, createdAt, timestamps } from './columns.js';

/**
 * Ledger balances (server/ledger): one row per (owner, book, asset, slot). `owner` is a Coffer
 * account id for a customer's books (cash, hosting, held), or 0 for the platform's books (fee
 * revenue, omnibus per chain, adjustments ...). A customer's book has one slot and can never go
 * negative (a CHECK, whatever code runs); a platform book is spread over several slots so that
 * transfers paying it do not queue behind one row. Only the ledger writes here.
 */
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    owner: ref('owner'),
    book: text('book').notNull(),
    asset: text('asset').notNull(),
    slot: smallint('slot').notNull(),
    balance: money('balance'),
  },
  (t) => [
    primaryKey({ columns: [t.owner, t.book, t.asset, t.slot] }),
    check('ledger_balances_customer_never_negative', sql`${t.owner} = 0 OR ${t.balance} >= 0`),
    check('ledger_balances_customer_one_slot', sql`${t.owner} = 0 OR ${t.slot} = 0`),
  ],
);

/**
 * Ledger transfers: one amount of one asset from a debit book to a credit book, append-only (a
 * trigger refuses UPDATE, DELETE and TRUNCATE), with a unique key derived from its cause.
 * `*BalanceAfter` is the customer book's balance right after (null on the platform's side).
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: id(),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    asset: text('asset').notNull(),
    debitOwner: ref('debit_owner'),
    debitBook: text('debit_book').notNull(),
    creditOwner: ref('credit_owner'),
    creditBook: text('credit_book').notNull(),
    amount: money('amount'),
    debitBalanceAfter: optionalMoney('debit_balance_after'),
    creditBalanceAfter: optionalMoney('credit_balance_after'),
    refTable: text('ref_table').notNull(),
    refId: text('ref_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transfers_key').on(t.key),
    index('ledger_transfers_debit').on(t.debitOwner, t.id),
    index('ledger_transfers_credit').on(t.creditOwner, t.id),
    check('ledger_transfers_amount_positive', sql`${t.amount} > 0`),
    check(
      'ledger_transfers_two_books',
      sql`${t.debitOwner} <> ${t.creditOwner} OR ${t.debitBook} <> ${t.creditBook}`,
    ),
  ],
);

/**
 * Holds (TigerBeetle's pending / post / void): money moved from a customer's cash to held,
 * then posted (in parts, or whole) to where it goes, or voided back. `remaining` is what is still
 * held; a hold ends exactly once (status leaves `pending` in one conditional update).
 */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: id(),
    key: text('key').notNull(),
    owner: ref('owner'),
    asset: text('asset').notNull(),
    kind: text('kind').notNull(),
    amount: money('amount'),
    remaining: money('remaining'),
    status: text('status', { enum: ['pending', 'posted', 'voided'] }).notNull(),
    refTable: text('ref_table').notNull(),
    refId: text('ref_id').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('ledger_holds_key').on(t.key),
    index('ledger_holds_owner_pending')
      .on(t.owner, t.asset)
      .where(sql`status = 'pending'`),
    check('ledger_holds_amount_positive', sql`${t.amount} > 0`),
    check(
      'ledger_holds_remaining',
      sql`(${t.status} = 'pending' AND ${t.remaining} > 0 AND ${t.remaining} <= ${t.amount}) OR (${t.status} <> 'pending' AND ${t.remaining} = 0)`,
    ),
  ],
);

/** Operators' adjustments (kind data_adjustment); large ones wait for a second finance operator. */
export const ledgerAdjustments = pgTable(
  'ledger_adjustments',
  {
    id: id(),
    accountId: accountRef(),
    asset: text('asset').notNull(),
    /** Signed: positive pays the account, negative takes from it. */
    amount: money('amount'),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending_review', 'applied', 'rejected'] }).notNull(),
    requestedBy: text('requested_by').notNull(),
    reviewedBy: text('reviewed_by'),
    createdAt: createdAt(),
    reviewedAt: at('reviewed_at'),
  },
  (t) => [
    index('ledger_adjustments_status').on(t.status, t.id),
    check('ledger_adjustments_amount_not_zero', sql`${t.amount} <> 0`),
  ],
);
