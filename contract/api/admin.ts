/** The operator API under /api/admin (CONTRACT.md: operators, roles, audit). */
import { z } from 'zod';
import { formatMoney, parseMoney } from '../money.js';
import { assetSchema } from './account.js';
export { google2FaDataSchema as adminAuthenticatorDataSchema } from './security.js';
export { doneDataSchema } from './sso.js';
import {
  choiceOf,
  codeSchema,
  emailSchema,
  idPageParamsSchema,
  idParamsSchema,
  idSchema,
  isoTimeParamSchema,
  isoTimeSchema,
  listOf,
  moneySchema,
  pageOf,
  passwordSchema,
  text,
} from '../schema.js';

export const OPERATOR_ROLES = ['superadmin', 'finance', 'compliance', 'support', 'content'] as const;
export const operatorRoleSchema = choiceOf(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof operatorRoleSchema>;

/** `googleCode` is required once the operator has bound an authenticator (a 400 on that field without it). */
export const adminLoginParamsSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  googleCode: codeSchema.optional(),
});
/** Until `mustChangePassword` is false and `authenticatorBound` true, other routes answer 403 `setup_required`. */
export const adminSessionDataSchema = z.object({
  token: z.string(),
  expiresAt: isoTimeSchema,
  operatorId: z.string(),
  role: operatorRoleSchema,
  mustChangePassword: z.boolean(),
  authenticatorBound: z.boolean(),
});
export const adminMeDataSchema = z.object({
  operatorId: z.string(),
  email: z.string(),
  role: operatorRoleSchema,
  mustChangePassword: z.boolean(),
  authenticatorBound: z.boolean(),
  /** The session's step-up, while it lasts (money and access actions need one within 5 minutes). */
  elevatedUntil: isoTimeSchema.nullable(),
});
export const adminPasswordParamsSchema = z.object({
  oldPassword: passwordSchema,
  newPassword: passwordSchema,
});
export const adminCodeParamsSchema = z.object({ googleCode: codeSchema });
export const stepUpDataSchema = z.object({ elevatedUntil: isoTimeSchema });

export const operatorSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: operatorRoleSchema,
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
  authenticatorBound: z.boolean(),
  /** The name customers see on chat replies (never the e-mail); null until set (docs/protocol.md §35). */
  displayName: z.string().nullable(),
  createdAt: isoTimeSchema,
});
export const operatorTargetParamsSchema = z.object({ operatorId: idSchema });
export type Operator = z.infer<typeof operatorSchema>;

export const createOperatorParamsSchema = z.object({
  email: emailSchema,
  role: operatorRoleSchema,
  password: passwordSchema.optional(),
});
export type CreateOperatorParams = z.infer<typeof createOperatorParamsSchema>;
export const createdOperatorDataSchema = operatorSchema.extend({
  /** Present only when the server generated the password: shown once. */
  initialPassword: z.string().nullable(),
});

export const inviteDataSchema = z.object({ code: z.string(), createdAt: isoTimeSchema });

export const auditEntrySchema = z.object({
  id: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: isoTimeSchema,
});
/** The audit log pages by entry id: `nextCursor` is the last id of the page. */
/** Filters: the actor (`operator:12`, `cli`, `system`), the action, the target, a time range. */
export const auditListParamsSchema = idPageParamsSchema.extend({
  actor: text({ max: 100 }).optional(),
  action: text({ max: 100 }).optional(),
  target: text({ max: 200 }).optional(),
  from: isoTimeParamSchema.optional(),
  to: isoTimeParamSchema.optional(),
});
export type AuditFilter = z.infer<typeof auditListParamsSchema>;
/** The audit log as CSV (the filters of audit/list, at most AUDIT_EXPORT_MAX rows, newest first). */
export const AUDIT_EXPORT_MAX = 10_000;
export const auditExportDataSchema = z.object({
  filename: z.string(),
  rows: z.number().int(),
  csv: z.string(),
});
export const auditListDataSchema = pageOf(auditEntrySchema);
export const operatorListDataSchema = listOf(operatorSchema);
/** The audit chain's check: `brokenAt` names the first row whose hash does not match. */
export const auditVerifyDataSchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  /** Rows written before the chain existed (an upgraded database), not covered. */
  beforeChain: z.number().int(),
  brokenAt: z.string().nullable(),
});

/** A signed money string an operator enters: not zero, at most 6 decimals (negative takes money out). */
export const signedMoneySchema = text({ max: 40 }).transform((value, context) => {
  try {
    const amount = parseMoney(value);
    if (amount !== 0n) return formatMoney(amount);
  } catch {
    // falls through to the issue below
  }
  context.addIssue({ code: 'custom', message: 'server.amount_signed_invalid' });
  return z.NEVER;
});

export const ADJUSTMENT_STATUSES = ['pending_review', 'applied', 'rejected'] as const;
export const adjustmentStatusSchema = choiceOf(ADJUSTMENT_STATUSES);

export const ledgerAdjustParamsSchema = z.object({
  accountId: idSchema,
  asset: assetSchema,
  amount: signedMoneySchema,
  reason: text({ max: 200 }),
});
export type LedgerAdjustParams = z.infer<typeof ledgerAdjustParamsSchema>;

export const adjustmentSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  asset: assetSchema,
  amount: z.string(),
  reason: z.string(),
  status: adjustmentStatusSchema,
  requestedBy: z.string(),
  reviewedBy: z.string().nullable(),
  createdAt: isoTimeSchema,
  reviewedAt: isoTimeSchema.nullable(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
export const ledgerReviewParamsSchema = idParamsSchema;
export const adjustmentListParamsSchema = idPageParamsSchema.extend({
  status: adjustmentStatusSchema.optional(),
});
export const adjustmentListDataSchema = pageOf(adjustmentSchema);

export const ledgerViolationSchema = z.object({
  rule: z.enum(['sum_zero', 'balance_matches_transfers', 'never_negative', 'held_covers_holds']),
  asset: z.string(),
  owner: z.string().optional(),
  book: z.string().optional(),
  expected: z.string(),
  actual: z.string(),
});
export const ledgerCheckDataSchema = z.object({
  ok: z.boolean(),
  checkedAt: isoTimeSchema,
  violations: z.array(ledgerViolationSchema),
});

/**
 * Platform settings operators set: the RAB price in USDT and the newcomer incentive (USDT, 0:
 * none). `rabPriceVersion` is the price's version (each change of the price is a new one; null
 * while never set), the `priceVersion` of /api/v1/exchange.
 */
export const platformSettingsSchema = z.object({
  rabPriceUsdt: z.string(),
  rabPriceVersion: z.string().nullable(),
  newcomerIncentive: z.string(),
});
export type PlatformSettings = z.infer<typeof platformSettingsSchema>;

/**
 * The fees and limits the server runs with: set by its configuration (environment, docs in the
 * README), shown to operators read-only; a change is a restart. Amounts are USDT (or RAB) decimal
 * strings, rates exact decimal fractions.
 */
export const PLATFORM_LIMITS = [
  'withdrawFee',
  'withdrawMinimum',
  'withdrawDailyLimit',
  'withdrawReviewAbove',
  'unverifiedWithdrawDaily',
  'adjustReviewAbove',
  'exchangeFeeRate',
  'exchangeMinimum',
  'exchangeMaximum',
  'otcPriceBand',
  'otcMakerFeeRate',
  'otcTakerFeeRate',
  'otcMinimum',
  'newMethodCooldownHours',
  'dividendClaimDays',
] as const;
export type PlatformLimit = (typeof PLATFORM_LIMITS)[number];
export const platformLimitsDataSchema = z.object({
  /** The RAB price's versions, newest first (the last 20). */
  rabPriceVersions: z.array(z.object({ version: z.string(), rabPriceUsdt: z.string(), at: isoTimeSchema })),
  limits: z.object(
    Object.fromEntries(PLATFORM_LIMITS.map((key) => [key, z.string()])) as Record<PlatformLimit, z.ZodString>,
  ),
});
export type PlatformLimitsData = z.infer<typeof platformLimitsDataSchema>;
const nonNegativeMoneySchema = moneySchema.refine((value) => !value.startsWith('-'), {
  error: 'server.field_invalid',
});
/** The highest RAB price operators may set (USDT per RAB): far above any real one, inside the database's bigint. */
export const RAB_PRICE_MAX_USDT = '1000000000';
export const platformSettingsParamsSchema = z.object({
  rabPriceUsdt: nonNegativeMoneySchema
    .refine((value) => parseMoney(value) <= parseMoney(RAB_PRICE_MAX_USDT), { error: 'server.field_invalid' })
    .optional(),
  newcomerIncentive: nonNegativeMoneySchema.optional(),
});
export const adjustmentStatusDataSchema = z.object({ id: z.string(), status: adjustmentStatusSchema });
