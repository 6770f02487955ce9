/**
 * Withdrawals.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  id,
  at,
  ref,
  optionalRef,
  owner,
  money,
  status,
  createdAt,
  updatedAt,
  destination,
} from './columns.js';

/**
 * Withdrawals. The destination is copied from the method at request, so a deleted or
 * changed method never changes where money went. `amount + fee` is held (`holdId`) from request
 * until the withdrawal ends: posted on success, voided on reject or failure.
 *
 * `status` is the customer's word (`pending`, `success`, `failed`); `stage` is where it is:
 * `awaiting_review` (approvals missing), `approved` (ready: the send job takes chain ones, an
 * operator pays bank ones), `sending` (signed, nonce and hash recorded before broadcast),
 * `paid`, `rejected`, `failed`. `businessDate` is the request's local date in COFFER_TIMEZONE
 * (the daily limit counts per date). `confirmations` is null until the send job signs
 * (`sending`), then the depth the job last saw (0 before the block is mined, at most the
 * required count, which is where it settles).
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    ...owner(),
    methodId: ref('method_id'),
    kind: text('kind').notNull(),
    ...destination(),
    amount: money('amount'),
    fee: money('fee'),
    holdId: optionalRef('hold_id'),
    status: status(),
    stage: text('stage').notNull(),
    approvalsNeeded: integer('approvals_needed').notNull(),
    firstApprovedBy: text('first_approved_by'),
    secondApprovedBy: text('second_approved_by'),
    reviewedBy: text('reviewed_by'),
    reason: text('reason'),
    reference: text('reference'),
    nonce: integer('nonce'),
    txHash: text('tx_hash'),
    rawTx: text('raw_tx'),
    /** The send job's last seen depth of `txHash`, capped at the chain's required confirmations. */
    confirmations: integer('confirmations'),
    sendAttempt: integer('send_attempt').notNull().default(0),
    businessDate: text('business_date').notNull(),
    createdAt: createdAt(),
    approvedAt: at('approved_at'),
    sentAt: at('sent_at'),
    completedAt: at('completed_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('withdrawals_account').on(t.accountId, t.id),
    index('withdrawals_user_day').on(t.userId, t.businessDate),
    index('withdrawals_open')
      .on(t.stage, t.id)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex('withdrawals_nonce')
      .on(t.network, t.nonce)
      .where(sql`${t.nonce} is not null`),
    check('withdrawals_status', sql`${t.status} in ('pending', 'success', 'failed')`),
    check(
      'withdrawals_stage',
      sql`${t.stage} in ('awaiting_review', 'approved', 'sending', 'paid', 'rejected', 'failed')`,
    ),
    check('withdrawals_kind', sql`${t.kind} in ('chain', 'bank')`),
    check('withdrawals_amount_positive', sql`${t.amount} > 0 and ${t.fee} >= 0`),
  ],
);
