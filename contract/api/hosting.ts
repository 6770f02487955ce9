/**
 * Hosting (docs/protocol.md section 20): the products operators define
 * (/api/admin/hosting/product/list|add|update|disable), /api/v1/hosting/hosting-config, the
 * orders (create, add, sub, redeem, order, operator-log), and the account-scoped synced records
 * `hosting_orders` and `hosting_changes`.
 *
 * Money is a wire decimal string (USDT); rates are exact decimal strings ("0.0035" a day), read
 * with contract/hosting-interest.ts, never as floats.
 */
import { z } from 'zod';
import { isDailyRate, isRate, normalizeRate } from '../hosting-interest.js';
import { LOCALES, type Locale } from '../locales.js';
import {
  accountPageParamsSchema,
  accountRecordOf,
  choiceOf,
  idPageParamsSchema,
  idParamsSchema,
  idSchema,
  isoTimeSchema,
  listOf,
  pageOf,
  recordTimes,
  text,
  tradeCommandOf,
  userAmountSchema,
} from '../schema.js';

/** When interest is paid: into cash each day, or all at maturity (income `pending_arrival` until then). */
export const HOSTING_PAYOUTS = ['daily', 'at_maturity'] as const;
export const hostingPayoutSchema = choiceOf(HOSTING_PAYOUTS);
export type HostingPayout = z.infer<typeof hostingPayoutSchema>;

/** An order's status (spec "Hosting orders: in progress, expired"); a redeemed order is expired too. */
export const HOSTING_ORDER_STATUSES = ['in_progress', 'expired'] as const;
export const hostingOrderStatusSchema = choiceOf(HOSTING_ORDER_STATUSES);
export type HostingOrderStatus = z.infer<typeof hostingOrderStatusSchema>;

/** Why an expired order ended: its term ran out, or its owner redeemed it. */
export const HOSTING_CLOSE_REASONS = ['matured', 'redeemed'] as const;
export type HostingCloseReason = (typeof HOSTING_CLOSE_REASONS)[number];

/** A change of an order's principal (the operator-log's rows). */
export const HOSTING_CHANGE_KINDS = ['create', 'add', 'sub', 'redeem', 'maturity'] as const;
export type HostingChangeKind = (typeof HOSTING_CHANGE_KINDS)[number];

export const PRODUCT_STATUSES = ['active', 'disabled'] as const;
export const productStatusSchema = choiceOf(PRODUCT_STATUSES);
export type ProductStatus = z.infer<typeof productStatusSchema>;

/** The longest term a product may have (ten years). */
export const HOSTING_MAX_DAYS = 3650;
export const PRODUCT_NAME_MAX_LENGTH = 40;

/** A product's name in each of the seven languages. */
export type ProductNames = Record<Locale, string>;

// ---- customers ----

/** A product's terms, in this order, as a product offers them and as an order keeps them. */
const hostingTermsShape = {
  /** The lock term in days: interest days after the creation day, then the principal returns. */
  days: z.number().int(),
  /** Exact decimal interest per day ("0.0035" = 0.35 %). */
  dailyRate: z.string(),
  minimum: z.string(),
  maximum: z.string(),
  payout: hostingPayoutSchema,
  /** Whether an order may be decreased or redeemed before maturity. */
  earlyExit: z.boolean(),
  /** Exact decimal share of the principal taken out early that is kept as a penalty ("0.01"). */
  penaltyRate: z.string(),
};

/** A product as customers see it: the name in the request's language. */
export const hostingProductSchema = z.object({ id: z.string(), name: z.string(), ...hostingTermsShape });
export type HostingProduct = z.infer<typeof hostingProductSchema>;

/** /api/v1/hosting/hosting-config. */
export const hostingConfigDataSchema = z.object({
  products: z.array(hostingProductSchema),
  /** The hosting balance (USD) from which an account counts as valid hosting: "500". */
  validHostingThreshold: z.string(),
  /** The business time zone whose local days interest accrues on (COFFER_TIMEZONE). */
  timeZone: z.string(),
});
export type HostingConfigData = z.infer<typeof hostingConfigDataSchema>;

/** /api/v1/hosting/create: the trade password confirms it, so it is sent only while online. */
export const hostingCreateParamsSchema = tradeCommandOf({
  productId: idSchema,
  /** At most 2 decimals, within the product's minimum and maximum. */
  amount: userAmountSchema,
});
export type HostingCreateParams = z.infer<typeof hostingCreateParamsSchema>;

/** /api/v1/hosting/add and /api/v1/hosting/sub: increase or decrease an order's principal. */
export const hostingChangeParamsSchema = z.object({ orderId: idSchema, amount: userAmountSchema });
export type HostingChangeParams = z.infer<typeof hostingChangeParamsSchema>;

/** /api/v1/hosting/redeem: the whole principal back to cash. */
export const hostingRedeemParamsSchema = z.object({ orderId: idSchema });
export type HostingRedeemParams = z.infer<typeof hostingRedeemParamsSchema>;

/** One hosting order as its owner sees it (the `hosting_orders` collection; id = the order's id). */
export const hostingOrderRecordSchema = accountRecordOf({
  productId: z.string(),
  /** The product's name in each language (locale -> name). */
  names: z.record(z.string(), z.string()),
  /** The principal hosted now ("0" once expired). */
  amount: z.string(),
  /** The principal the order was created with. */
  initialAmount: z.string(),
  ...hostingTermsShape,
  status: hostingOrderStatusSchema,
  /** null while in progress. */
  closeReason: z.enum(HOSTING_CLOSE_REASONS).nullable(),
  /** When the order was created. */
  startAt: isoTimeSchema,
  /** Maturity: the local midnight ending the last interest day; the principal returns then. */
  endAt: isoTimeSchema,
  /** The local midnight after creation: interest accrues from here. */
  interestFrom: isoTimeSchema,
  /** Interest accrued so far (paid or pending), and the part paid into cash. */
  accruedInterest: z.string(),
  paidInterest: z.string(),
  /** Penalties taken on early decreases or a redeem before maturity. */
  penalty: z.string(),
  /** What one full day at today's principal earns: floor(amount × dailyRate). */
  dailyInterest: z.string(),
  /** Set when the order ended (matured or redeemed). */
  closedAt: isoTimeSchema.nullable(),
  ...recordTimes,
});
export type HostingOrderRecord = z.infer<typeof hostingOrderRecordSchema>;

/** One change of an order's principal (the operator-log; the `hosting_changes` collection). */
export const hostingChangeRecordSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  accountId: z.string(),
  kind: z.enum(HOSTING_CHANGE_KINDS),
  /** Signed from the order's side: + for create and add, − for sub, redeem and maturity. */
  amount: z.string(),
  /** Kept from what left the order (early exit); the rest went to cash. */
  penalty: z.string(),
  principalAfter: z.string(),
  createdAt: isoTimeSchema,
});
export type HostingChangeRecord = z.infer<typeof hostingChangeRecordSchema>;

/** The answer of create, add, sub and redeem: the order after the change, and the change. */
export const hostingCommandDataSchema = z.object({
  order: hostingOrderRecordSchema,
  change: hostingChangeRecordSchema,
});
export type HostingCommandData = z.infer<typeof hostingCommandDataSchema>;

/** /api/v1/hosting/order: the account's orders, newest first (`status` filters). */
export const hostingOrderListParamsSchema = accountPageParamsSchema.extend({
  status: hostingOrderStatusSchema.optional(),
});
export const hostingOrderListDataSchema = pageOf(hostingOrderRecordSchema);
export type HostingOrderListData = z.infer<typeof hostingOrderListDataSchema>;

/** /api/v1/hosting/operator-log: one order's changes, or an account's, newest first. */
export const hostingOperatorLogParamsSchema = idPageParamsSchema.extend({
  orderId: idSchema.optional(),
  accountId: idSchema.optional(),
});
export const hostingOperatorLogDataSchema = pageOf(hostingChangeRecordSchema);
export type HostingOperatorLogData = z.infer<typeof hostingOperatorLogDataSchema>;

// ---- operators ----

/** JSON and form booleans (CONTRACT.md "Formats"): true/false, "true"/"false", "1"/"0". */
export const booleanSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'server.field_invalid' })
  .transform((value) => value === true || value === 'true' || value === '1');

const daysSchema = text({ max: 5 }).transform((value, context) => {
  const days = /^[1-9]\d{0,3}$/.test(value) ? Number(value) : 0;
  if (days >= 1 && days <= HOSTING_MAX_DAYS) return days;
  context.addIssue({ code: 'custom', message: 'server.hosting_days_invalid' });
  return z.NEVER;
});

const rateSchema = (valid: (text: string) => boolean) =>
  text({ max: 20 }).transform((value, context) => {
    if (valid(value)) return normalizeRate(value);
    context.addIssue({ code: 'custom', message: 'server.rate_invalid' });
    return z.NEVER;
  });

/** A product bound in USDT: above 0, at most 2 decimals (what a customer may enter). */
const boundSchema = userAmountSchema;

const productNameSchema = text({ max: PRODUCT_NAME_MAX_LENGTH });

/**
 * A product's name: one string for every language, or an object of locale -> name (missing
 * languages take the Simplified Chinese name, else the English one, else any given).
 */
export const productNameParamSchema = z.union(
  [productNameSchema, z.partialRecord(z.enum(LOCALES), productNameSchema)],
  { error: 'server.field_invalid' },
);

/** Every language's name from a `name` parameter; null when it names none. Pure. */
export function productNamesOf(name: z.output<typeof productNameParamSchema>): ProductNames | null {
  const given = typeof name === 'string' ? null : name;
  const fallback = typeof name === 'string' ? name : (name['zh-Hans'] ?? name.en ?? Object.values(name)[0]);
  if (!fallback) return null;
  return Object.fromEntries(LOCALES.map((locale) => [locale, given?.[locale] || fallback])) as ProductNames; // every locale filled above
}

/** /api/admin/hosting/product/add. */
export const productAddParamsSchema = z.object({
  name: productNameParamSchema,
  days: daysSchema,
  dailyRate: rateSchema(isDailyRate),
  minimum: boundSchema,
  maximum: boundSchema,
  payout: hostingPayoutSchema,
  earlyExit: booleanSchema,
  penaltyRate: rateSchema(isRate).optional(),
});
export type ProductAddParams = z.infer<typeof productAddParamsSchema>;

/**
 * The update parameters of an operators' catalogue (hosting products, machines): the `id`, then
 * every field of the add parameters as optional (only the fields given change), then `status`
 * (`active` offers a disabled entry again). Field rules and messages are the add's own.
 */
export function catalogueUpdateOf<T extends z.ZodRawShape>(add: z.ZodObject<T>) {
  return z.object({ id: idSchema, ...add.partial().shape, status: productStatusSchema.optional() });
}

/** /api/admin/hosting/product/update: the fields given change (existing orders keep their terms). */
export const productUpdateParamsSchema = catalogueUpdateOf(productAddParamsSchema);
export type ProductUpdateParams = z.infer<typeof productUpdateParamsSchema>;

/** /api/admin/hosting/product/disable: customers no longer see it; orders made under it run on. */
export const productIdParamsSchema = idParamsSchema;

/** A product as operators see it: every language's name and its status. */
export const adminHostingProductSchema = hostingProductSchema.extend({
  names: z.record(z.string(), z.string()),
  status: productStatusSchema,
  ...recordTimes,
  updatedBy: z.string(),
});
export type AdminHostingProduct = z.infer<typeof adminHostingProductSchema>;
export const adminHostingProductListDataSchema = listOf(adminHostingProductSchema);
