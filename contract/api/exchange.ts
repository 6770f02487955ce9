/**
 * The RAB/USDT exchange (docs/protocol.md section 18): /api/v1/exchange/index, submit,
 * list; the operators' /api/admin/exchange/list; and the account-scoped synced records
 * `exchanges`. A submit names the price version it was quoted, and is refused (409 with the
 * current price) when the operators' price has changed since: never a surprise fill.
 */
import { z } from 'zod';
import { EXCHANGE_DIRECTIONS } from '../exchange-quote.js';
import {
  accountPageParamsSchema,
  accountReadOf,
  accountReadParamsSchema,
  accountRecordOf,
  choiceOf,
  idCursorSchema,
  idPageParamsSchema,
  idSchema,
  isoTimeSchema,
  pageOf,
  passwordSchema,
  userAmountSchema,
} from '../schema.js';
import { assetSchema } from './account.js';

export const exchangeDirectionSchema = choiceOf(EXCHANGE_DIRECTIONS);

export const exchangeIndexParamsSchema = accountReadParamsSchema;

/** /api/v1/exchange/index: what an exchange from this account can do now, and at what price. */
export const exchangeIndexDataSchema = accountReadOf({
  /** The account's available RAB (what rab_to_usdt can spend) and its reserved RAB. */
  rab: z.string(),
  rabHeld: z.string(),
  /** The account's available USDT (what usdt_to_rab can spend). */
  usdt: z.string(),
  /** The operators' RAB price in USDT; "0" while none is set (the exchange is closed). */
  price: z.string(),
  /** The current price version, to be sent back with a submit; null while no price was ever set. */
  priceVersion: z.string().nullable(),
  priceUpdatedAt: isoTimeSchema.nullable(),
  /** True while the price is above 0. */
  open: z.boolean(),
  /** The fee as an exact decimal fraction of the USDT side ("0.002" = 0.2 %). */
  feeRate: z.string(),
  /** Bounds of `amount`, in the asset given: RAB for rab_to_usdt, USDT for usdt_to_rab. */
  minimum: z.string(),
  maximum: z.string(),
});
export type ExchangeIndexData = z.infer<typeof exchangeIndexDataSchema>;

export const exchangeSubmitParamsSchema = z.object({
  accountId: idSchema,
  direction: exchangeDirectionSchema,
  /** In the asset given (RAB for rab_to_usdt, USDT for usdt_to_rab), at most 2 decimals. */
  amount: userAmountSchema,
  tradePassword: passwordSchema,
  /** The `priceVersion` the customer was shown; another one is 409 with the current price. */
  priceVersion: idSchema,
});
export type ExchangeSubmitParams = z.infer<typeof exchangeSubmitParamsSchema>;

/** `data` of the 409 answering a submit that named an older price version. */
export const stalePriceDataSchema = z.object({ price: z.string(), priceVersion: z.string() });
export type StalePriceData = z.infer<typeof stalePriceDataSchema>;

/**
 * One exchange as its owner sees it (the `exchanges` collection; id = the exchange's id).
 * `fee` and `rounding` are USDT: the fee paid to the platform, and the part of a minor unit the
 * rounding kept (from the USDT paid in for usdt_to_rab; never paid out for rab_to_usdt).
 */
export const exchangeRecordSchema = accountRecordOf({
  direction: exchangeDirectionSchema,
  amountIn: z.string(),
  assetIn: assetSchema,
  amountOut: z.string(),
  assetOut: assetSchema,
  fee: z.string(),
  rounding: z.string(),
  price: z.string(),
  priceVersion: z.string(),
  feeRate: z.string(),
  createdAt: isoTimeSchema,
});
export type ExchangeRecord = z.infer<typeof exchangeRecordSchema>;

export const exchangeListParamsSchema = accountPageParamsSchema;
export const exchangeListDataSchema = pageOf(exchangeRecordSchema);
export type ExchangeListData = z.infer<typeof exchangeListDataSchema>;

// ---- operators ----

export const adminExchangeListParamsSchema = idPageParamsSchema.extend({
  /** One account's exchanges (its id's digits); absent or empty: everyone's. */
  accountId: idCursorSchema.optional(),
});
/** An exchange as finance operators see it: with the customer's user id. */
export const adminExchangeSchema = exchangeRecordSchema.extend({ userId: z.string() });
export const adminExchangeListDataSchema = pageOf(adminExchangeSchema);
export type AdminExchangeListData = z.infer<typeof adminExchangeListDataSchema>;
