/**
 * The operator console's customers (/api/admin/user/*), deposits (/api/admin/deposit/list) and
 * dashboard (/api/admin/dashboard). Money is decimal strings of USDT or RAB, as everywhere.
 */
import { z } from 'zod';
import { CHAINS } from '../constants.js';
import { accountRecordSchema, balanceRecordSchema } from './account.js';
import { hostingOrderRecordSchema } from './hosting.js';
import { ownedMachineRecordSchema } from './machine.js';
import { depositRecordSchema, depositStatusSchema } from './recharge.js';
import { withdrawalRecordSchema } from './withdraw.js';
import { choiceOf, idPageParamsSchema, idSchema, isoTimeSchema, pageOf, text } from '../schema.js';

/** `q`: an e-mail (or part of one), a user id, or an invite code. */
export const adminUserListParamsSchema = idPageParamsSchema.extend({
  q: text({ min: 0, max: 200 }).optional(),
});

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  nickname: z.string(),
  inviteCode: z.string(),
  kycStatus: z.string(),
  frozen: z.boolean(),
  createdAt: isoTimeSchema,
});
export const adminUserListDataSchema = pageOf(adminUserSchema);

export const adminUserParamsSchema = z.object({ userId: idSchema });
/** Freezing, unfreezing and resetting the authenticator say why (kept in the audit log). */
export const adminUserActionParamsSchema = adminUserParamsSchema.extend({ reason: text({ max: 500 }) });

export const adminUserDetailDataSchema = z.object({
  user: adminUserSchema.extend({
    frozenReason: z.string().nullable(),
    authenticatorBound: z.boolean(),
    referrer: z.object({ id: z.string(), email: z.string() }).nullable(),
    /** Members in the first and second generation of the user's team. */
    team: z.object({ first: z.number().int(), second: z.number().int() }),
  }),
  accounts: z.array(accountRecordSchema.extend({ balance: balanceRecordSchema })),
  /** The newest records of each kind over all the user's accounts (at most 20 each). */
  deposits: z.array(depositRecordSchema.extend({ accountId: z.string() })),
  withdrawals: z.array(withdrawalRecordSchema),
  hostingOrders: z.array(hostingOrderRecordSchema),
  machines: z.array(ownedMachineRecordSchema),
  sessions: z.array(
    z.object({ createdAt: isoTimeSchema, lastSeenAt: isoTimeSchema, expiresAt: isoTimeSchema }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailDataSchema>;

export const adminDepositListParamsSchema = idPageParamsSchema.extend({
  chain: choiceOf(CHAINS).optional(),
  status: depositStatusSchema.optional(),
});
export const adminDepositListDataSchema = pageOf(
  depositRecordSchema.extend({ accountId: z.string(), userId: z.string(), email: z.string() }),
);

const bookTotalsSchema = z.object({
  cash: z.string(),
  held: z.string(),
  hosting: z.string(),
  total: z.string(),
});
export const dashboardDataSchema = z.object({
  at: isoTimeSchema,
  /** What customers are owed, per asset, from the ledger. */
  liabilities: z.object({ USDT: bookTotalsSchema, RAB: bookTotalsSchema }),
  /**
   * USDT on chain: the hot wallet and the deposit addresses, per chain; null where the chain
   * cannot be read (no node configured, or it did not answer).
   */
  reserves: z.record(
    z.string(),
    z.object({ usdt: z.string(), block: z.string(), addresses: z.number().int() }).nullable(),
  ),
  /** Reserves over USDT liabilities, as a decimal string (e.g. "1.0250"); null when either is unknown or nothing is owed. */
  ratio: z.string().nullable(),
  ledgerCheck: z.object({ ok: z.boolean(), at: isoTimeSchema }).nullable(),
  waiting: z.object({
    withdrawals: z.number().int(),
    adjustments: z.number().int(),
    feedback: z.number().int(),
  }),
  /** Today in the business time zone. */
  today: z.object({
    day: z.string(),
    deposits: z.object({ count: z.number().int(), usdt: z.string() }),
    withdrawals: z.object({ count: z.number().int(), usdt: z.string() }),
  }),
});
export type DashboardData = z.infer<typeof dashboardDataSchema>;
