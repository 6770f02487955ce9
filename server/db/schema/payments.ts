/**
 * Payment methods and the work calendar.
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, userRef, createdAt, destination, lastEdit } from './columns.js';

/**
 * A user's withdrawal methods: a USDT address on BEP20 or TRC20, or a bank card. A method is
 * usable for withdrawals from `usableAt` (its creation plus the cooldown); deleting one keeps
 * the row (withdrawals name it) and sets `deletedAt`.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: id(),
    userId: userRef(),
    kind: text('kind').notNull(),
    currency: text('currency'),
    ...destination(),
    createdAt: createdAt(),
    usableAt: at('usable_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('payment_methods_user').on(t.userId, t.id),
    uniqueIndex('payment_methods_chain_address')
      .on(t.userId, t.network, t.address)
      .where(sql`${t.kind} = 'chain' and ${t.deletedAt} is null`),
    uniqueIndex('payment_methods_card')
      .on(t.userId, t.cardNumber)
      .where(sql`${t.kind} = 'bank' and ${t.deletedAt} is null`),
    check('payment_methods_kind', sql`${t.kind} in ('chain', 'bank')`),
  ],
);

/**
 * The operators' working-day calendar (withdrawals open on working days): a local date in the
 * business time zone marked a `holiday` (a weekday off) or a `workday` (a weekend day worked).
 */
export const workCalendar = pgTable(
  'work_calendar',
  {
    date: text('date').primaryKey(),
    kind: text('kind').notNull(),
    ...lastEdit(),
  },
  (t) => [check('work_calendar_kind', sql`${t.kind} in ('holiday', 'workday')`)],
);
