/**
 * Delivery: the published trade settlements.
 */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, money } from './columns.js';

/**
 * Delivery (trade settlement) records the platform publishes: trades, not any
 * customer's positions, read by everyone (the public `delivery` collection). Prices, lots and
 * the spread are exact decimal strings as the operator wrote them (normalised, never floats);
 * `margin` and `profitLoss` are USDT minor units (`profitLoss` signed).
 */
export const deliveryRecords = pgTable(
  'delivery_records',
  {
    id: id(),
    orderNo: text('order_no').notNull(),
    symbol: text('symbol').notNull(),
    direction: text('direction').notNull(),
    lots: text('lots').notNull(),
    leverage: integer('leverage').notNull(),
    openPrice: text('open_price').notNull(),
    closePrice: text('close_price').notNull(),
    openTime: at('open_time').notNull(),
    closeTime: at('close_time').notNull(),
    margin: money('margin'),
    spread: text('spread').notNull(),
    profitLoss: money('profit_loss'),
    publishedAt: at('published_at').notNull(),
    publishedBy: text('published_by').notNull(),
  },
  (t) => [
    uniqueIndex('delivery_records_order_no').on(t.orderNo),
    check('delivery_records_direction', sql`${t.direction} in ('buy', 'sell')`),
    check(
      'delivery_records_figures',
      sql`${t.margin} >= 0 and ${t.leverage} > 0 and ${t.closeTime} >= ${t.openTime}`,
    ),
  ],
);
