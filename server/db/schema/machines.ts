/**
 * Mining machines, holdings, earnings, tickets and ticket issues.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  id,
  at,
  ref,
  optionalRef,
  owner,
  money,
  optionalMoney,
  total,
  status,
  timestamps,
  edited,
  localized,
  grant,
  dayPayout,
} from './columns.js';

/**
 * Mining machines operators offer: `hashPower` T per machine and `dailyOutput` USDT
 * per T a day as exact decimal strings ("12.5", "0.35"), the USDT `price` (minor units),
 * `ticketPrice` tickets for one (0: not sold for tickets), a term of `days`, and `rentPrice` USDT
 * a day to rent one (null: not for rent). `names` per locale. A holding copies the terms it was
 * made under, so a later update or a disable changes no holding.
 */
export const machines = pgTable(
  'machines',
  {
    id: id(),
    names: localized('names'),
    hashPower: text('hash_power').notNull(),
    price: money('price'),
    ticketPrice: integer('ticket_price').notNull(),
    days: integer('days').notNull(),
    dailyOutput: text('daily_output').notNull(),
    rentPrice: optionalMoney('rent_price'),
    status: status(),
    ...edited(),
  },
  (t) => [
    check('machines_status', sql`${t.status} in ('active', 'disabled')`),
    check('machines_days', sql`${t.days} between 1 and 3650`),
    check(
      'machines_prices',
      sql`${t.price} > 0 and ${t.ticketPrice} >= 0 and (${t.rentPrice} is null or ${t.rentPrice} > 0)`,
    ),
  ],
);

/**
 * A customer's holding of `quantity` machines of one kind, bought (`buy`, for the
 * machine's term) or rented (`rent`, for the days rented), paid with USDT or tickets. It earns on
 * the local days (COFFER_TIMEZONE) from `earnFrom` (the midnight after it was made) to `endAt`;
 * the daily job has paid every day before `earnedUntil`, `paidDays` of them, `earned` in all
 * (minor units). `expired` once its last day is paid.
 */
export const ownedMachines = pgTable(
  'owned_machines',
  {
    id: id(),
    ...owner(),
    machineId: ref('machine_id'),
    acquisition: text('acquisition').notNull(),
    payWith: text('pay_with').notNull(),
    quantity: integer('quantity').notNull(),
    hashPower: text('hash_power').notNull(),
    dailyOutput: text('daily_output').notNull(),
    days: integer('days').notNull(),
    price: money('price'),
    tickets: integer('tickets').notNull(),
    status: status(),
    startAt: at('start_at').notNull(),
    earnFrom: at('earn_from').notNull(),
    endAt: at('end_at').notNull(),
    earnedUntil: at('earned_until').notNull(),
    paidDays: integer('paid_days')
      .notNull()
      .default(sql`0`),
    earned: total('earned'),
    ...timestamps(),
  },
  (t) => [
    index('owned_machines_account').on(t.accountId, t.id),
    index('owned_machines_earning')
      .on(t.earnedUntil)
      .where(sql`${t.status} = 'active'`),
    check('owned_machines_acquisition', sql`${t.acquisition} in ('buy', 'rent')`),
    check('owned_machines_pay_with', sql`${t.payWith} in ('usdt', 'ticket')`),
    check('owned_machines_status', sql`${t.status} in ('active', 'expired')`),
    check(
      'owned_machines_figures',
      sql`${t.quantity} between 1 and 100 and ${t.days} between 1 and 3650 and ${t.price} >= 0 and ${t.tickets} >= 0 and ${t.paidDays} between 0 and ${t.days} and ${t.earned} >= 0`,
    ),
  ],
);

/**
 * One holding's output for one local day (`day`, YYYY-MM-DD in COFFER_TIMEZONE): the primary key
 * makes the daily job pay each (holding, day) once, whatever re-runs or crashes. `amount` =
 * floor(quantity × hashPower × dailyOutput), 0 when the day earned less than a minor unit.
 */
export const machineEarnings = pgTable(
  'machine_earnings',
  {
    ownedMachineId: ref('owned_machine_id'),
    ...dayPayout(),
  },
  (t) => [
    primaryKey({ columns: [t.ownedMachineId, t.day] }),
    check('machine_earnings_amount', sql`${t.amount} >= 0`),
  ],
);

/**
 * Tickets (spec "Tickets: available, used"): each row one ticket of an account, issued
 * by an operator or as a reward (`key` derived from the cause, unique, so a repeated cause issues
 * nothing twice), `used` once when a buy spends it (`usedFor` the holding): a buy locks the
 * tickets it takes, so racing buys never spend one twice.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: id(),
    ...owner(),
    status: status(),
    source: text('source').notNull(),
    key: text('key').notNull(),
    memo: text('memo'),
    usedAt: at('used_at'),
    usedFor: optionalRef('used_for'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('tickets_key').on(t.key),
    index('tickets_account').on(t.accountId, t.id),
    index('tickets_available')
      .on(t.accountId, t.id)
      .where(sql`${t.status} = 'available'`),
    check('tickets_status', sql`${t.status} in ('available', 'used')`),
    check('tickets_source', sql`${t.source} in ('operator', 'reward')`),
    check(
      'tickets_used',
      sql`(${t.status} = 'used') = (${t.usedAt} is not null and ${t.usedFor} is not null)`,
    ),
  ],
);

/** Operators' ticket issues: `count` tickets to each of `accountIds`, audited. */
export const ticketIssues = pgTable('ticket_issues', {
  id: id(),
  count: integer('count').notNull(),
  ...grant(),
});
