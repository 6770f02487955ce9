/**
 * Accounts, balances and wallet records (CONTRACT.md "Identity and accounts", "Money and the
 * ledger"): /api/v1/account/*, /api/v1/user/assets, /api/v1/wallet/records, and the synced
 * records `accounts` (user scope), `balances` and `records` (account scope), `prices` (public).
 */
import { z } from 'zod';
import { SUB_ACCOUNT_NAME_MAX_LENGTH } from '../constants.js';
import {
  accountPageParamsSchema,
  accountReadOf,
  accountReadParamsSchema,
  choiceOf,
  idSchema,
  isoTimeSchema,
  listOf,
  pageOf,
  text,
  userAmountSchema,
} from '../schema.js';
import { INCOME_TYPES } from './income.js';

/** The assets a ledger account holds; both carry 6 decimals (contract/money.ts). */
export const ASSETS = ['USDT', 'RAB'] as const;
export const assetSchema = choiceOf(ASSETS);
export type Asset = z.infer<typeof assetSchema>;

/**
 * A customer's balances per Coffer account and asset: `cash` (spendable), `hosting` (in
 * custody for interest), `held` (reserved: deposits before finality, withdrawal and escrow holds).
 */
export const BOOKS = ['cash', 'hosting', 'held'] as const;
export const bookSchema = z.enum(BOOKS);
export type Book = z.infer<typeof bookSchema>;

/** Wallet record kinds (CONTRACT.md), lower_snake_case on the wire; the UI names each. */
export const RECORD_KINDS = [
  'data_adjustment',
  'withdrawal',
  'withdrawal_reversal',
  'trust_deposit',
  'trust_withdrawal',
  'newcomer_incentive',
  'otc_list_buy',
  'otc_sell',
  'otc_list_sell',
  'otc_buy',
  'otc_cancel',
  'recharge',
  'exchange',
  'account_transfer',
  'fee',
  // Each income line is a wallet record of its own type, last in this order.
  ...INCOME_TYPES,
] as const;
export const recordKindSchema = choiceOf(RECORD_KINDS);
export type RecordKind = z.infer<typeof recordKindSchema>;

/** One of the caller's accounts (synced in the user-scoped `accounts` collection). */
export const accountRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(['main', 'sub']),
  name: z.string(),
  /** The account shown first (account/switch sets it). */
  isDefault: z.boolean(),
  createdAt: isoTimeSchema,
});
export type AccountRecord = z.infer<typeof accountRecordSchema>;

export const accountListDataSchema = listOf(accountRecordSchema);
export type AccountListData = z.infer<typeof accountListDataSchema>;

export const createSubAccountParamsSchema = z.object({
  name: text({ max: SUB_ACCOUNT_NAME_MAX_LENGTH }),
});
export const accountIdParamsSchema = z.object({ accountId: idSchema });
export { accountReadParamsSchema };

export const accountTransferParamsSchema = z.object({
  fromAccountId: idSchema,
  toAccountId: idSchema,
  asset: assetSchema,
  amount: userAmountSchema,
});
export type AccountTransferParams = z.infer<typeof accountTransferParamsSchema>;
export const accountTransferDataSchema = z.object({
  /** The ledger transfer's id. */
  id: z.string(),
  fromAccountId: z.string(),
  toAccountId: z.string(),
  asset: assetSchema,
  amount: z.string(),
  createdAt: isoTimeSchema,
});
export type AccountTransferData = z.infer<typeof accountTransferDataSchema>;

/**
 * An account's balances, money strings, in this order: `cash` (what can be spent now), `hosting`,
 * `held`, then `rab` the available RAB and `rabHeld` the RAB reserved.
 */
const balanceFields = {
  cash: z.string(),
  hosting: z.string(),
  held: z.string(),
  rab: z.string(),
  rabHeld: z.string(),
};

/** One account's balances (the `balances` collection; id = the account's id). */
export const balanceRecordSchema = z.object({ id: z.string(), ...balanceFields, updatedAt: isoTimeSchema });
export type BalanceRecord = z.infer<typeof balanceRecordSchema>;

/** /api/v1/user/assets: the balances with RAB valued at the operator's price (`valueAssets`). */
export const assetsDataSchema = accountReadOf({
  ...balanceFields,
  rabPriceUsdt: z.string(),
  totalUsdt: z.string(),
});
export type AssetsData = z.infer<typeof assetsDataSchema>;

/**
 * An operator's price of an asset in USDT (the `prices` collection; id = the asset, e.g. `RAB`).
 * `priceVersion` is the exchange's price version (docs/protocol.md section 18); absent in
 * records synced before versions existed.
 */
export const priceRecordSchema = z.object({
  id: z.string(),
  usdt: z.string(),
  priceVersion: z.string().optional(),
  updatedAt: isoTimeSchema,
});
export type PriceRecord = z.infer<typeof priceRecordSchema>;

/**
 * One line of the wallet records (the `blance_record` pages and the `records` collection): one
 * side of a ledger transfer, seen from the account. `amount` is signed from the account's side;
 * `balanceAfter` is that book's balance right after it; `ref` names the cause.
 */
export const walletRecordSchema = z.object({
  /** `<transferId>-d` (the account paid) or `<transferId>-c` (the account received). */
  id: z.string(),
  kind: recordKindSchema,
  asset: assetSchema,
  book: bookSchema,
  amount: z.string(),
  balanceAfter: z.string(),
  createdAt: isoTimeSchema,
  ref: z.object({ table: z.string(), id: z.string() }),
});
export type WalletRecord = z.infer<typeof walletRecordSchema>;

export const walletRecordsParamsSchema = accountPageParamsSchema.extend({
  kind: recordKindSchema.optional(),
});
export const walletRecordsDataSchema = pageOf(walletRecordSchema);
export type WalletRecordsData = z.infer<typeof walletRecordsDataSchema>;
