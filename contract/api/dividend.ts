/**
 * AI dividends (docs/protocol.md section 21; spec "AI dividend and release records"):
 * operators publish a dividend for a local day (/api/admin/dividend/publish): a total shared pro
 * rata by each account's valid hosting balance at the day's end, or a rate of it. Each eligible
 * account gets a release record, `to_be_claimed` until the customer claims it
 * (/api/v1/user/aiReceive: paid to cash once, an income line of type `dividend`) or it expires
 * (`expired`, after COFFER_DIVIDEND_CLAIM_DAYS). Customers read /api/v1/user/aiInfo and aiIncome,
 * and the account-scoped synced records `dividend_releases`.
 */
import { z } from 'zod';
import { isRate, normalizeRate } from '../hosting-interest.js';
import {
  accountPageParamsSchema,
  accountReadOf,
  accountReadParamsSchema,
  accountRecordOf,
  idPageParamsSchema,
  idSchema,
  isoTimeSchema,
  moneySchema,
  pageOf,
  recordTimes,
  text,
} from '../schema.js';

/** Spec "Dividends: to be claimed, claimed", and Coffer's `expired` for a share not claimed in time. */
export const DIVIDEND_RELEASE_STATUSES = ['to_be_claimed', 'claimed', 'expired'] as const;
export const dividendReleaseStatusSchema = z.enum(DIVIDEND_RELEASE_STATUSES, {
  error: 'server.field_invalid',
});
export type DividendReleaseStatus = z.infer<typeof dividendReleaseStatusSchema>;

export const DIVIDEND_MODES = ['total', 'rate'] as const;

/** A local date (COFFER_TIMEZONE) `YYYY-MM-DD` that exists on the calendar. */
export const localDaySchema = text({ max: 16 }).refine(
  (value) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return false;
    const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    return date.toISOString().slice(0, 10) === value;
  },
  { error: 'server.field_invalid' },
);

/** A rate above 0 and below 1 as an exact decimal (at most 12 fraction digits), normalised. */
export const dividendRateSchema = text({ max: 20 }).transform((value, context) => {
  if (isRate(value) && /[1-9]/.test(value)) return normalizeRate(value);
  context.addIssue({ code: 'custom', message: 'server.field_invalid' });
  return z.NEVER;
});

/** /api/admin/dividend/publish: the day, and either `total` (USDT) or `rate`. */
export const dividendPublishParamsSchema = z
  .object({
    day: localDaySchema,
    total: moneySchema
      .refine((value) => value !== '0' && !value.startsWith('-'), { error: 'server.amount_invalid' })
      .optional(),
    rate: dividendRateSchema.optional(),
  })
  .refine((value) => (value.total === undefined) !== (value.rate === undefined), {
    error: 'server.dividend_total_or_rate',
    path: ['total'],
  });
export type DividendPublishParams = z.output<typeof dividendPublishParamsSchema>;

/** A published dividend as operators see it. */
export const dividendSchema = z.object({
  id: z.string(),
  day: z.string(),
  mode: z.enum(DIVIDEND_MODES),
  /** The published total (mode `total`), or what the shares add up to (mode `rate`). */
  total: z.string(),
  rate: z.string().nullable(),
  /** Σ of the eligible accounts' hosting balances at the day's end. */
  eligibleBalance: z.string(),
  /** Accounts that received a share. */
  accounts: z.number().int(),
  /** Σ of the shares (each floored to the minor unit). */
  distributed: z.string(),
  /** total − distributed: recorded to the platform's rounding book at publication. */
  residue: z.string(),
  claimDays: z.number().int(),
  expiresAt: isoTimeSchema,
  createdAt: isoTimeSchema,
  createdBy: z.string(),
});
export type Dividend = z.infer<typeof dividendSchema>;

export const adminDividendListParamsSchema = idPageParamsSchema;
export const adminDividendListDataSchema = pageOf(dividendSchema);
export type AdminDividendListData = z.infer<typeof adminDividendListDataSchema>;

/** One account's share of a dividend (the `dividend_releases` collection; id = the release's id). */
export const dividendReleaseRecordSchema = accountRecordOf({
  dividendId: z.string(),
  /** The local day the dividend was published for. */
  day: z.string(),
  /** The account's hosting balance at the day's end (USDT). */
  balance: z.string(),
  /** The share (USDT, above 0). */
  amount: z.string(),
  /**
   * As last written; a `to_be_claimed` record whose `expiresAt` has passed is expired even before
   * the expiry job writes it (the list calls answer `expired` already).
   */
  status: dividendReleaseStatusSchema,
  expiresAt: isoTimeSchema,
  claimedAt: isoTimeSchema.nullable(),
  ...recordTimes,
});
export type DividendReleaseRecord = z.infer<typeof dividendReleaseRecordSchema>;

export const aiInfoParamsSchema = accountReadParamsSchema;

/** /api/v1/user/aiInfo: what the account can claim now, what it claimed, and the rules. */
export const aiInfoDataSchema = accountReadOf({
  /** Σ of the records to be claimed now (not expired). */
  claimable: z.string(),
  claimableCount: z.number().int(),
  /** Σ of the records claimed, ever. */
  claimed: z.string(),
  /** Σ of the records that expired unclaimed. */
  expired: z.string(),
  /** When the first claimable record expires; null when none is claimable. */
  nextExpiresAt: isoTimeSchema.nullable(),
  rules: z.object({
    /** The hosting balance from which an account shares in a dividend (500 USDT). */
    validHostingThreshold: z.string(),
    /** Days a record may be claimed after its dividend is published. */
    claimDays: z.number().int(),
    /** How the balance is read: at the end of the dividend's local day, in this time zone. */
    timeZone: z.string(),
  }),
});
export type AiInfoData = z.infer<typeof aiInfoDataSchema>;

/** /api/v1/user/aiIncome: the account's release records, newest first, `status` filtering. */
export const aiIncomeParamsSchema = accountPageParamsSchema.extend({
  status: dividendReleaseStatusSchema.optional(),
});
export const aiIncomeDataSchema = pageOf(dividendReleaseRecordSchema);
export type AiIncomeData = z.infer<typeof aiIncomeDataSchema>;

/** /api/v1/user/aiReceive: claims record `id`, or every claimable record of the account when absent. */
export const aiReceiveParamsSchema = accountReadParamsSchema.extend({ id: idSchema.optional() });
export type AiReceiveParams = z.infer<typeof aiReceiveParamsSchema>;
export const aiReceiveDataSchema = z.object({
  accountId: z.string(),
  /** Σ paid to cash by this claim. */
  amount: z.string(),
  /** The records this claim paid, now `claimed`. */
  items: z.array(dividendReleaseRecordSchema),
});
export type AiReceiveData = z.infer<typeof aiReceiveDataSchema>;
