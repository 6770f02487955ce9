/**
 * OTC orders and fills.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { id, ref, optionalRef, owner, money, status, createdAt, timestamps } from './columns.js';

/**
 * OTC orders (docs/protocol.md section 24): a customer's offer to buy (`side` buy) or
 * sell (`side` sell) `volume` RAB at `price` USDT per RAB (minor units per whole RAB), its
 * escrow a ledger hold (`holdId`: USDT for a buy, RAB for a sell). `filled` RAB have been taken
 * so far, for `usdtFilled` USDT (floor(filled x price / 10^6): each fill pays the difference) and
 * `makerFeeFilled` of the maker's fee (floor(usdtFilled x makerFeeRate)). `status` is
 * pending_match until filled (completed) or cancelled (cancelled, or match_ended when partly
 * filled). The escrow still held is always escrow - what the fills posted.
 */
export const otcOrders = pgTable(
  'otc_orders',
  {
    id: id(),
    ...owner(),
    side: text('side').notNull(),
    price: money('price'),
    volume: money('volume'),
    splittable: boolean('splittable').notNull(),
    filled: money('filled'),
    usdtFilled: money('usdt_filled'),
    makerFeeFilled: money('maker_fee_filled'),
    makerFeeRate: text('maker_fee_rate').notNull(),
    takerFeeRate: text('taker_fee_rate').notNull(),
    escrow: money('escrow'),
    holdId: optionalRef('hold_id'),
    status: status(),
    ...timestamps(),
  },
  (t) => [
    index('otc_orders_account').on(t.accountId, t.id),
    index('otc_orders_open')
      .on(t.side, t.price, t.id)
      .where(sql`status = 'pending_match'`),
    check('otc_orders_side', sql`${t.side} in ('buy', 'sell')`),
    check(
      'otc_orders_status',
      sql`${t.status} in ('pending_match', 'match_ended', 'cancelled', 'completed')`,
    ),
    check(
      'otc_orders_amounts',
      sql`${t.price} > 0 and ${t.volume} > 0 and ${t.filled} >= 0 and ${t.filled} <= ${t.volume} and ${t.usdtFilled} >= 0 and ${t.makerFeeFilled} >= 0 and ${t.escrow} > 0`,
    ),
  ],
);

/**
 * One take of an OTC order: `volume` RAB for `usdt` USDT, the maker's and the taker's fees
 * (USDT). Its ledger transfers are keyed `otc:<orderId>:fill:<id>:<leg>`.
 */
export const otcFills = pgTable(
  'otc_fills',
  {
    id: id(),
    orderId: ref('order_id'),
    makerAccountId: ref('maker_account_id'),
    takerUserId: ref('taker_user_id'),
    takerAccountId: ref('taker_account_id'),
    volume: money('volume'),
    usdt: money('usdt'),
    makerFee: money('maker_fee'),
    takerFee: money('taker_fee'),
    createdAt: createdAt(),
  },
  (t) => [
    index('otc_fills_order').on(t.orderId, t.id),
    index('otc_fills_taker').on(t.takerAccountId, t.id),
    check(
      'otc_fills_amounts',
      sql`${t.volume} > 0 and ${t.usdt} >= 0 and ${t.makerFee} >= 0 and ${t.takerFee} >= 0`,
    ),
  ],
);
