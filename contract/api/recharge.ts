/**
 * USDT deposits (CONTRACT.md "Chains"): /api/v1/recharge/address and /api/v1/recharge/list, the
 * chains in /api/v1/common/config, and the account-scoped synced records `deposits`.
 */
import { z } from 'zod';
import { CHAINS } from '../constants.js';
import {
  accountPageParamsSchema,
  accountReadParamsSchema,
  choiceOf,
  isoTimeSchema,
  pageOf,
} from '../schema.js';

export const chainSchema = choiceOf(CHAINS);

/**
 * A deposit's life: `confirming` (seen, fewer than 3 confirmations), `held` (credited to the
 * account's held balance at 3 confirmations), `credited` (at the chain's finality depth: cash),
 * `below_minimum` (under 1 USDT: recorded, never credited), `reversed` (a reorganisation removed
 * it before finality; a held credit is taken back by a new transfer).
 */
export const DEPOSIT_STATUSES = ['confirming', 'held', 'credited', 'below_minimum', 'reversed'] as const;
export const depositStatusSchema = z.enum(DEPOSIT_STATUSES);
export type DepositStatus = z.infer<typeof depositStatusSchema>;

/** What a user needs to check before sending: one enabled chain. */
export const chainInfoSchema = z.object({
  chain: chainSchema,
  /** The USDT contract users must send (EIP-55 on BEP20, base58 on TRC20). */
  contract: z.string(),
  /** The token's decimals on this chain. */
  decimals: z.number().int(),
  /** Deposits below this many USDT are recorded and not credited. */
  minimum: z.string(),
  /** Confirmations before a deposit is credited (to held). */
  confirmations: z.number().int(),
  /** Confirmations before a credited deposit becomes cash. */
  finality: z.number().int(),
});
export type ChainInfo = z.infer<typeof chainInfoSchema>;

/** `accountId` defaults to the caller's default account, as every account read does. */
export const rechargeAddressParamsSchema = accountReadParamsSchema.extend({ chain: chainSchema });
export const rechargeAddressDataSchema = chainInfoSchema.extend({
  accountId: z.string(),
  /** The account's own deposit address on the chain: stable, never shared with another account. */
  address: z.string(),
});
export type RechargeAddressData = z.infer<typeof rechargeAddressDataSchema>;

/** One deposit (the `deposits` collection; id = the deposit's id). Amounts are USDT strings. */
export const depositRecordSchema = z.object({
  id: z.string(),
  chain: chainSchema,
  /** Credited amount (6 decimals; what the chain sent, truncated). */
  amount: z.string(),
  address: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  blockNumber: z.string(),
  /** Blocks on top of the deposit's block, its own included (capped at the finality depth). */
  confirmations: z.number().int(),
  status: depositStatusSchema,
  detectedAt: isoTimeSchema,
  heldAt: isoTimeSchema.nullable(),
  creditedAt: isoTimeSchema.nullable(),
  reversedAt: isoTimeSchema.nullable(),
  updatedAt: isoTimeSchema,
});
export type DepositRecord = z.infer<typeof depositRecordSchema>;

export const rechargeListParamsSchema = accountPageParamsSchema;
export const rechargeListDataSchema = pageOf(depositRecordSchema);
export type RechargeListData = z.infer<typeof rechargeListDataSchema>;
