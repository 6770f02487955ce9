/**
 * The OTC market (docs/protocol.md section 24): customers list buy and sell orders for
 * RAB priced in USDT and take each other's orders. /api/v1/otc/info, buy, sell, take, cancel,
 * allSellList, meBuyList, meSellList; /api/v1/pending/info and list. An order's escrow is a
 * ledger hold; a take names the price it was shown and is refused (409 with the order's state)
 * when the order changed.
 */
import { z } from 'zod';
import { OTC_SIDES, OTC_STATUSES } from '../otc-quote.js';
import {
  accountPageParamsSchema,
  accountReadOf,
  accountReadParamsSchema,
  accountRecordOf,
  choiceOf,
  idPageParamsSchema,
  idSchema,
  isoTimeSchema,
  moneySchema,
  pageOf,
  recordTimes,
  tradeCommandOf,
  userAmountSchema,
} from '../schema.js';
import { booleanSchema } from './hosting.js';

export const otcSideSchema = choiceOf(OTC_SIDES);
export const otcStatusSchema = choiceOf(OTC_STATUSES);

export const otcInfoParamsSchema = accountReadParamsSchema;

/** /api/v1/otc/info: the guide price and its band, the fees, the minimum and the account's money. */
export const otcInfoDataSchema = accountReadOf({
  /** The operators' RAB price in USDT ("0" while none is set: the market is closed). */
  guidePrice: z.string(),
  /** The band around the guide price as an exact decimal fraction ("0.1" = +/-10 %), and its edges. */
  priceBand: z.string(),
  minPrice: z.string(),
  maxPrice: z.string(),
  /** Exact decimal fractions of the USDT side. */
  makerFeeRate: z.string(),
  takerFeeRate: z.string(),
  /** The least RAB an order lists, and a take of a splittable order takes (unless it takes the rest). */
  minimum: z.string(),
  /** The account's available USDT and RAB. */
  usdt: z.string(),
  rab: z.string(),
});
export type OtcInfoData = z.infer<typeof otcInfoDataSchema>;

/** /api/v1/otc/buy and /api/v1/otc/sell. */
export const otcListParamsSchema = tradeCommandOf({
  /** RAB, at most 2 decimals. */
  volume: userAmountSchema,
  /** USDT per RAB, at most 6 decimals, within the band. */
  price: moneySchema,
  splittable: booleanSchema,
});
export type OtcListParams = z.infer<typeof otcListParamsSchema>;

/** An order's terms and progress, in this order, as its owner and the book see them. */
const otcOrderShape = {
  side: otcSideSchema,
  price: z.string(),
  volume: z.string(),
  /** RAB filled so far, what remains, and filled / volume ("0.25"). */
  filled: z.string(),
  remaining: z.string(),
  completionRate: z.string(),
  splittable: z.boolean(),
  status: otcStatusSchema,
};

/** One order as its owner sees it (the account-scoped `otc_orders` collection; id = the order's id). */
export const otcOrderSchema = accountRecordOf({
  ...otcOrderShape,
  /** USDT of the fills so far, the maker's fee on them, the escrow listed and what is still held. */
  usdtFilled: z.string(),
  makerFeeFilled: z.string(),
  escrow: z.string(),
  held: z.string(),
  makerFeeRate: z.string(),
  takerFeeRate: z.string(),
  ...recordTimes,
});
export type OtcOrder = z.infer<typeof otcOrderSchema>;

/** One order as anyone sees it in the book (/api/v1/pending/info, the lists, a 409's `data`). */
export const otcBookOrderSchema = z.object({
  id: z.string(),
  ...otcOrderShape,
  /** The taker's fee rate fixed on the order when listed (an exact decimal fraction of the USDT side). */
  takerFeeRate: z.string(),
  /** True when the caller listed it (a customer cannot take their own order). */
  mine: z.boolean(),
  ...recordTimes,
});
export type OtcBookOrder = z.infer<typeof otcBookOrderSchema>;

/** An open order in the public `otc_book` collection: the book's view without `mine` (it is the same for everyone). */
export const otcBookRecordSchema = otcBookOrderSchema.omit({ mine: true });
export type OtcBookRecord = z.infer<typeof otcBookRecordSchema>;

export const otcOrderIdParamsSchema = z.object({ orderId: idSchema });

export const otcTakeParamsSchema = tradeCommandOf({
  orderId: idSchema,
  /** RAB, at most 2 decimals. */
  volume: userAmountSchema,
  /** The order's price the customer was shown; another is 409 with the order's state. */
  price: moneySchema,
});
export type OtcTakeParams = z.infer<typeof otcTakeParamsSchema>;

/**
 * One take: `kind` otc_sell (the taker sold RAB into a buy order) or otc_buy (bought from a sell
 * order). `paid` and `received` are from the taker's side: otc_sell pays `volume` RAB and
 * receives `usdt - takerFee` USDT; otc_buy pays `usdt + takerFee` USDT and receives `volume` RAB.
 */
export const otcTakeDataSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  accountId: z.string(),
  kind: z.enum(['otc_sell', 'otc_buy']),
  volume: z.string(),
  price: z.string(),
  usdt: z.string(),
  takerFee: z.string(),
  paid: z.string(),
  paidAsset: z.enum(['USDT', 'RAB']),
  received: z.string(),
  receivedAsset: z.enum(['USDT', 'RAB']),
  order: otcBookOrderSchema,
  createdAt: isoTimeSchema,
});
export type OtcTakeData = z.infer<typeof otcTakeDataSchema>;

/** The open book: `sort` newest first (default) or best price first (buys highest, sells lowest). */
export const otcBookParamsSchema = idPageParamsSchema.extend({
  sort: choiceOf(['newest', 'price']).optional(),
});
export const otcBookDataSchema = pageOf(otcBookOrderSchema);
export type OtcBookData = z.infer<typeof otcBookDataSchema>;

/** My buy or sell orders, newest first; `status` filters. */
export const otcMyListParamsSchema = accountPageParamsSchema.extend({
  status: otcStatusSchema.optional(),
});
export const otcMyListDataSchema = pageOf(otcOrderSchema);
export type OtcMyListData = z.infer<typeof otcMyListDataSchema>;
