/**
 * Income records (docs/protocol.md section 20; spec "Income"): /api/v1/income/type-list
 * and /api/v1/income/log, the account-scoped synced records `income`, and the operators'
 * /api/admin/income/airdrop. Every income line is paid by one ledger transfer when it arrives.
 */
import { z } from 'zod';
import {
  accountPageParamsSchema,
  accountRecordOf,
  choiceOf,
  idSchema,
  isoTimeSchema,
  moneySchema,
  pageOf,
  recordTimes,
  text,
} from '../schema.js';

/** The spec's income types; hosting interest is `static`. */
export const INCOME_TYPES = [
  'static',
  'promotion',
  'management',
  'airdrop',
  'dividend',
  'mining_machine',
] as const;
export const incomeTypeSchema = choiceOf(INCOME_TYPES);
export type IncomeType = z.infer<typeof incomeTypeSchema>;

/** Spec "Income: pending arrival, arrived". */
export const INCOME_STATUSES = ['pending_arrival', 'arrived'] as const;
export const incomeStatusSchema = choiceOf(INCOME_STATUSES);
export type IncomeStatus = z.infer<typeof incomeStatusSchema>;

/** /api/v1/income/type-list: each type with its name in the request's language. */
export const incomeTypeListDataSchema = z.object({
  items: z.array(z.object({ type: incomeTypeSchema, name: z.string() })),
});
export type IncomeTypeListData = z.infer<typeof incomeTypeListDataSchema>;

/** A local business date (COFFER_TIMEZONE), `YYYY-MM-DD`. */
export const localDateSchema = z.string().describe('a local date YYYY-MM-DD in the business time zone');

/**
 * Where a team line (`promotion`, `management`) comes from: the member whose static
 * income of `earningsDate` paid it, how many generations below the receiver they are, that static
 * income (`base`), the rate applied to it (for management, the level difference) and the level the
 * receiver was paid at. `amount` = floor(base × rate).
 */
export const incomeSourceSchema = z.object({
  memberId: z.string(),
  /** As teamMembers shows it (a nickname still taken from the e-mail address is masked). */
  nickname: z.string(),
  generation: z.number().int(),
  base: z.string(),
  rate: z.string(),
  level: z.number().int(),
});
export type IncomeSource = z.infer<typeof incomeSourceSchema>;

/** One income line (the `income` collection; id = the line's id). */
export const incomeRecordSchema = accountRecordOf({
  type: incomeTypeSchema,
  /** Above 0, USDT. */
  amount: z.string(),
  /** The local day it was earned (hosting interest: the day accrued). */
  earningsDate: localDateSchema,
  /** The local day it arrived in cash; for a pending line, the day it is due to arrive. */
  arrivalDate: localDateSchema,
  status: incomeStatusSchema,
  /** When it arrived in cash (the ledger transfer's time); null while pending. */
  arrivedAt: isoTimeSchema.nullable(),
  /** What caused it: `{table: 'hosting_orders', id}` for interest, `{table: 'airdrops', id}` ... */
  ref: z.object({ table: z.string(), id: z.string() }),
  /** An airdrop's reason, or another note for the customer; null when none. */
  memo: z.string().nullable(),
  /** A team line's source (member, generation, base, rate); null for other types (absent in rows stored before it). */
  source: incomeSourceSchema.nullable().default(null),
  ...recordTimes,
});
export type IncomeRecord = z.infer<typeof incomeRecordSchema>;

/** /api/v1/income/log: the account's income lines, newest first, `type` filtering. */
export const incomeLogParamsSchema = accountPageParamsSchema.extend({
  type: incomeTypeSchema.optional(),
});
export const incomeLogDataSchema = pageOf(incomeRecordSchema);
export type IncomeLogData = z.infer<typeof incomeLogDataSchema>;

// ---- operators ----

/** At most this many accounts in one airdrop. */
export const AIRDROP_MAX_ACCOUNTS = 1000;

/** Account ids as a JSON array or a comma-separated string ("3,7,12"): distinct, at least one. */
export const accountIdListSchema = z
  .union(
    [text({ max: 20_000 }), z.array(idSchema).max(AIRDROP_MAX_ACCOUNTS, { error: 'server.field_invalid' })],
    {
      error: 'server.field_invalid',
    },
  )
  .transform((value, context) => {
    const ids = (typeof value === 'string' ? value.split(',') : value).map((id) => id.trim());
    const distinct = [...new Set(ids)];
    if (
      distinct.length >= 1 &&
      distinct.length <= AIRDROP_MAX_ACCOUNTS &&
      distinct.every((id) => /^[1-9]\d{0,14}$/.test(id))
    )
      return distinct.map(Number);
    context.addIssue({ code: 'custom', message: 'server.field_invalid' });
    return z.NEVER;
  });

/** /api/admin/income/airdrop: `amount` to each account, from incentive expense, with a reason. */
export const airdropParamsSchema = z.object({
  accountIds: accountIdListSchema,
  amount: moneySchema.refine((value) => value !== '0' && !value.startsWith('-'), {
    error: 'server.amount_invalid',
  }),
  reason: text({ max: 200 }),
});
export type AirdropParams = z.infer<typeof airdropParamsSchema>;

export const airdropDataSchema = z.object({
  id: z.string(),
  /** Paid to each account. */
  amount: z.string(),
  reason: z.string(),
  accountIds: z.array(z.string()),
  /** amount × the number of accounts. */
  total: z.string(),
  createdBy: z.string(),
  createdAt: isoTimeSchema,
});
export type AirdropData = z.infer<typeof airdropDataSchema>;
