/**
 * Withdrawals (CONTRACT.md codes 300, 470, 471, 472, 4900, 4901): /api/v1/withdraw/
 * index, create, list; the operators' /api/admin/withdraw/list, approve, reject, paid; and the
 * account-scoped synced records `withdrawals`.
 */
import { z } from 'zod';
import {
  accountPageParamsSchema,
  accountReadParamsSchema,
  accountRecordOf,
  choiceOf,
  codeSchema,
  idPageParamsSchema,
  idParamsSchema,
  idSchema,
  isoTimeSchema,
  pageOf,
  passwordSchema,
  text,
  userAmountSchema,
} from '../schema.js';

/** The customer's word for a withdrawal (spec "Withdrawal: pending, success, failed"). */
export const WITHDRAWAL_STATUSES = ['pending', 'success', 'failed'] as const;
export const withdrawalStatusSchema = choiceOf(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>;

/**
 * Where a withdrawal is: `awaiting_review` (operators' approvals missing), `approved` (the send
 * job takes a USDT one, an operator pays a bank card), `sending` (signed and broadcast, waiting
 * for its confirmations), `paid` (success), `rejected` or `failed` (the hold released).
 */
export const WITHDRAWAL_STAGES = [
  'awaiting_review',
  'approved',
  'sending',
  'paid',
  'rejected',
  'failed',
] as const;
export const withdrawalStageSchema = choiceOf(WITHDRAWAL_STAGES);
export type WithdrawalStage = z.infer<typeof withdrawalStageSchema>;

/** The window for withdrawals now (working days 09:00 to 21:00 in the business time zone). */
export const withdrawalWindowSchema = z.object({
  opens: z.string(),
  closes: z.string(),
  timeZone: z.string(),
  open: z.boolean(),
  /** The next opening when closed now; null while open. */
  nextOpen: isoTimeSchema.nullable(),
  /** When today's window closes while open; null while closed. */
  closesAt: isoTimeSchema.nullable(),
});
export type WithdrawalWindow = z.infer<typeof withdrawalWindowSchema>;

export const withdrawIndexParamsSchema = accountReadParamsSchema.extend({ methodId: idSchema.optional() });

/** /api/v1/withdraw/index: what a withdrawal from this account would cost and allow now. */
export const withdrawIndexDataSchema = z.object({
  accountId: z.string(),
  asset: z.literal('USDT'),
  /** The account's available cash (what can be withdrawn, before the fee). */
  available: z.string(),
  /** The flat fee per withdrawal, added to the amount and held with it. */
  fee: z.string(),
  minimum: z.string(),
  /** Per user and business day, counting pending and successful withdrawals. */
  dailyLimit: z.string(),
  dailyRemaining: z.string(),
  /** Whether the user's real name is approved; without it at most `unverifiedDailyLimit` a business day (then 601). */
  realNameApproved: z.boolean(),
  unverifiedDailyLimit: z.string(),
  /** The largest amount withdrawable now: min(available - fee, dailyRemaining), never below 0. */
  maximum: z.string(),
  /** Above this amount two different finance operators approve. */
  reviewAbove: z.string(),
  window: withdrawalWindowSchema,
  /** Set while a security change locks withdrawals (24 hours after it). */
  lockedUntil: isoTimeSchema.nullable(),
  tradePasswordSet: z.boolean(),
  authenticatorBound: z.boolean(),
  /** The method asked for, when `methodId` was given and it is the caller's; null otherwise. */
  method: z
    .object({
      id: z.string(),
      usable: z.boolean(),
      usableAt: isoTimeSchema,
    })
    .nullable(),
  /** The server's time of this answer: the client compares `usableAt` and `lockedUntil` with it, not its own clock. */
  serverTime: isoTimeSchema,
});
export type WithdrawIndexData = z.infer<typeof withdrawIndexDataSchema>;

/**
 * /api/v1/withdraw/create, as the route takes it: every field is looked at only after the
 * 300 / 4900 / 4901 checks, which come first whatever was sent (spec section 8).
 */
export const withdrawCreateParamsSchema = z.object({
  accountId: idSchema.optional(),
  amount: userAmountSchema,
  methodId: idSchema,
  googleCode: codeSchema,
  tradePassword: passwordSchema,
});

/** The route's own schema: strings of bounded length, read by the service in order. */
export const withdrawCreateRawParamsSchema = z.object({
  accountId: z.unknown().optional(),
  amount: z.unknown().optional(),
  methodId: z.unknown().optional(),
  googleCode: z.unknown().optional(),
  tradePassword: z.unknown().optional(),
});

/** One withdrawal as its owner sees it (the `withdrawals` collection; id = the withdrawal's id). */
export const withdrawalRecordSchema = accountRecordOf({
  kind: z.enum(['chain', 'bank']),
  /** BEP20 or TRC20 for a USDT address; null for a bank card. */
  network: z.string().nullable(),
  address: z.string().nullable(),
  bankName: z.string().nullable(),
  /** `•••• 1234`. */
  cardNumber: z.string().nullable(),
  amount: z.string(),
  fee: z.string(),
  /** amount + fee: what left the account's cash (held until the withdrawal ends). */
  total: z.string(),
  status: withdrawalStatusSchema,
  stage: withdrawalStageSchema,
  /** Why it was rejected or failed, as the operator wrote it or the chain answered. */
  reason: z.string().nullable(),
  /** The transaction hash of a USDT withdrawal once signed; a bank transfer's reference. */
  txHash: z.string().nullable(),
  reference: z.string().nullable(),
  createdAt: isoTimeSchema,
  completedAt: isoTimeSchema.nullable(),
  updatedAt: isoTimeSchema,
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecordSchema>;

export const withdrawListParamsSchema = accountPageParamsSchema;
export const withdrawListDataSchema = pageOf(withdrawalRecordSchema);
export type WithdrawListData = z.infer<typeof withdrawListDataSchema>;

// ---- operators ----

export const adminWithdrawListParamsSchema = idPageParamsSchema.extend({
  status: withdrawalStatusSchema.optional(),
  stage: withdrawalStageSchema.optional(),
});

/** A withdrawal as finance operators see it: the full destination and the approvals. */
export const adminWithdrawalSchema = withdrawalRecordSchema.extend({
  userId: z.string(),
  holderName: z.string().nullable(),
  branch: z.string().nullable(),
  approvalsNeeded: z.number().int(),
  approvedBy: z.array(z.string()),
  /** The approvals in order (the first is who approved first): the actor and, for an operator, its e-mail. */
  approvals: z.array(z.object({ by: z.string(), email: z.string().nullable() })),
  /**
   * A transaction the send job sent: it settles the withdrawal (paid, or failed if reverted) once
   * the transaction's block has `required` confirmations; `reached` once it did. `seen` is the
   * depth the job last saw (0 until the block is mined, at most `required`; lower again after a
   * reorganisation); null for one sent before counts were recorded. Null when the send job did
   * not send it.
   */
  confirmations: z
    .object({ required: z.number().int(), reached: z.boolean(), seen: z.number().int().nullable() })
    .nullable(),
  reviewedBy: z.string().nullable(),
  nonce: z.number().int().nullable(),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;
export const adminWithdrawListDataSchema = pageOf(adminWithdrawalSchema);

export const adminWithdrawIdParamsSchema = idParamsSchema;
export const adminWithdrawRejectParamsSchema = idParamsSchema.extend({
  reason: text({ max: 500, multiline: true }),
});
export const adminWithdrawPaidParamsSchema = idParamsSchema.extend({
  /** The bank transfer's reference (or a TRC20 transaction hash sent by hand). */
  reference: text({ max: 200 }),
});
