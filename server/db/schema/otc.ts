/**
 * OTC orders and fills.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { id, at } from './columns.js';

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
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    side: text('side').notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    volume: bigint('volume', { mode: 'bigint' }).notNull(),
    splittable: boolean('splittable').notNull(),
    filled: bigint('filled', { mode: 'bigint' }).notNull(),
    usdtFilled: bigint('usdt_filled', { mode: 'bigint' }).notNull(),
    makerFeeFilled: bigint('maker_fee_filled', { mode: 'bigint' }).notNull(),
    makerFeeRate: text('maker_fee_rate').notNull(),
    takerFeeRate: text('taker_fee_rate').notNull(),
    escrow: bigint('escrow', { mode: 'bigint' }).notNull(),
    holdId: bigint('hold_id', { mode: 'number' }),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
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
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    makerAccountId: bigint('maker_account_id', { mode: 'number' }).notNull(),
    takerUserId: bigint('taker_user_id', { mode: 'number' }).notNull(),
    takerAccountId: bigint('taker_account_id', { mode: 'number' }).notNull(),
    volume: bigint('volume', { mode: 'bigint' }).notNull(),
    usdt: bigint('usdt', { mode: 'bigint' }).notNull(),
    makerFee: bigint('maker_fee', { mode: 'bigint' }).notNull(),
    takerFee: bigint('taker_fee', { mode: 'bigint' }).notNull(),
    createdAt: at('created_at').notNull(),
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
