/**
 * Hosting: products, orders, the changes of their principal and accruals.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import {
  id,
  at,
  ref,
  accountRef,
  owner,
  money,
  total,
  status,
  timestamps,
  edited,
  localized,
  dayPayout,
} from './columns.js';

/** A product's terms, which an order copies from its product when it is made. */
const terms = () => ({
  days: integer('days').notNull(),
  dailyRate: text('daily_rate').notNull(),
  minimum: money('minimum'),
  maximum: money('maximum'),
  payout: text('payout').notNull(),
  earlyExit: boolean('early_exit').notNull(),
  penaltyRate: text('penalty_rate').notNull(),
});

/**
 * Hosting products operators define: a lock term of `days`, an exact decimal
 * `dailyRate` ("0.0035"), bounds of an order's principal (USDT minor units), when interest is
 * paid (`daily` or `at_maturity`), and whether an order may leave early (`earlyExit`) at
 * `penaltyRate` of the principal taken out. `names` per locale. An order copies the terms it was
 * made under, so a later update or a disable changes no existing order.
 */
export const hostingProducts = pgTable(
  'hosting_products',
  {
    id: id(),
    names: localized('names'),
    ...terms(),
    status: status(),
    ...edited(),
  },
  (t) => [
    check('hosting_products_payout', sql`${t.payout} in ('daily', 'at_maturity')`),
    check('hosting_products_status', sql`${t.status} in ('active', 'disabled')`),
    check('hosting_products_days', sql`${t.days} between 1 and 3650`),
    check('hosting_products_bounds', sql`${t.minimum} > 0 and ${t.maximum} >= ${t.minimum}`),
  ],
);

/**
 * Hosting orders: `principal` is what the order holds in the account's `hosting` book
 * now. Interest accrues on the local days (COFFER_TIMEZONE) from `interestFrom` (the midnight
 * after creation) until `interestUntil` (`endAt`, the maturity, or the redeem time); the daily
 * job has accrued every day before `accruedUntil`, so the order still accrues while
 * `accruedUntil < interestUntil`. `accrued` and `paid` are interest totals (minor units).
 */
export const hostingOrders = pgTable(
  'hosting_orders',
  {
    id: id(),
    ...owner(),
    productId: ref('product_id'),
    ...terms(),
    principal: money('principal'),
    /** The principal the order was created with. */
    initialAmount: money('initial_amount'),
    status: status(),
    closeReason: text('close_reason'),
    startAt: at('start_at').notNull(),
    endAt: at('end_at').notNull(),
    interestFrom: at('interest_from').notNull(),
    interestUntil: at('interest_until').notNull(),
    accruedUntil: at('accrued_until').notNull(),
    accrued: total('accrued'),
    paid: total('paid'),
    penalty: total('penalty'),
    closedAt: at('closed_at'),
    ...timestamps(),
  },
  (t) => [
    index('hosting_orders_account').on(t.accountId, t.id),
    index('hosting_orders_accruing')
      .on(t.accruedUntil)
      .where(sql`${t.accruedUntil} < ${t.interestUntil}`),
    index('hosting_orders_maturing')
      .on(t.endAt)
      .where(sql`${t.status} = 'in_progress'`),
    check('hosting_orders_status', sql`${t.status} in ('in_progress', 'expired')`),
    check(
      'hosting_orders_close_reason',
      sql`${t.closeReason} is null or ${t.closeReason} in ('matured', 'redeemed')`,
    ),
    check('hosting_orders_payout', sql`${t.payout} in ('daily', 'at_maturity')`),
    check(
      'hosting_orders_principal',
      sql`(${t.status} = 'in_progress' and ${t.principal} > 0) or (${t.status} = 'expired' and ${t.principal} = 0)`,
    ),
    check('hosting_orders_interest', sql`${t.accrued} >= 0 and ${t.paid} >= 0 and ${t.paid} <= ${t.accrued}`),
  ],
);

/**
 * The operator-log of hosting orders (spec "Hosting order: change amount and time"): one row per
 * change of an order's principal, signed from the order's side (`create` and `add` positive,
 * `sub`, `redeem` and `maturity` negative), with the penalty taken and the principal after. The
 * accrual job reads an order's principal over a day from these rows.
 */
export const hostingOrderChanges = pgTable(
  'hosting_order_changes',
  {
    id: id(),
    orderId: ref('order_id'),
    accountId: accountRef(),
    kind: text('kind').notNull(),
    amount: money('amount'),
    penalty: total('penalty'),
    principalAfter: money('principal_after'),
    at: at('at').notNull(),
  },
  (t) => [
    index('hosting_order_changes_order').on(t.orderId, t.id),
    index('hosting_order_changes_account').on(t.accountId, t.id),
    check('hosting_order_changes_kind', sql`${t.kind} in ('create', 'add', 'sub', 'redeem', 'maturity')`),
    check(
      'hosting_order_changes_amounts',
      sql`${t.amount} <> 0 and ${t.penalty} >= 0 and ${t.principalAfter} >= 0`,
    ),
  ],
);

/**
 * One order's interest for one local day (`day`, YYYY-MM-DD in COFFER_TIMEZONE): the primary key
 * is what makes the daily job idempotent, whatever re-runs or crashes. `principalMinutes` is
 * Σ principal × minutes hosted that day (minor units × minutes, as a decimal string: it can pass
 * 2^63), `minutesOfDay` the day's length (1380 or 1500 on a DST change), and `amount` =
 * floor(principalMinutes × rate / minutesOfDay), 0 when the day earned less than a minor unit.
 */
export const hostingAccruals = pgTable(
  'hosting_accruals',
  {
    orderId: ref('order_id'),
    ...dayPayout(),
    principalMinutes: text('principal_minutes').notNull(),
    minutesOfDay: integer('minutes_of_day').notNull(),
    dailyRate: text('daily_rate').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.day] }),
    /** The team job reads one day's static income of everyone. */
    index('hosting_accruals_day').on(t.day),
    check('hosting_accruals_amount', sql`${t.amount} >= 0`),
  ],
);
