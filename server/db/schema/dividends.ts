/**
 * AI dividends and their releases.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  id,
  at,
  ref,
  optionalRef,
  userRef,
  accountRef,
  money,
  status,
  timestamps,
  madeBy,
} from './columns.js';

/**
 * AI dividends operators publish for a local day: `total` shared pro rata by each
 * account's valid hosting balance at the day's end (`mode` total), or `rate` of that balance
 * (`mode` rate, `total` then being what the shares add up to). Shares are floored to the minor
 * unit: `distributed` is their sum and `residue` = total − distributed, recorded to the
 * platform's rounding book at publication, so the published total is exactly accounted for.
 * One dividend per day.
 */
export const dividends = pgTable(
  'dividends',
  {
    id: id(),
    day: text('day').notNull(),
    mode: text('mode').notNull(),
    total: money('total'),
    rate: text('rate'),
    /** Σ of the eligible accounts' hosting balances at the day's end. */
    eligibleBalance: money('eligible_balance'),
    accounts: integer('accounts').notNull(),
    distributed: money('distributed'),
    residue: money('residue'),
    claimDays: integer('claim_days').notNull(),
    expiresAt: at('expires_at').notNull(),
    ...madeBy(),
  },
  (t) => [
    uniqueIndex('dividends_day').on(t.day),
    check('dividends_mode', sql`${t.mode} in ('total', 'rate')`),
    check(
      'dividends_amounts',
      sql`${t.total} > 0 and ${t.residue} >= 0 and ${t.distributed} + ${t.residue} = ${t.total}`,
    ),
  ],
);

/**
 * One account's share of a dividend (spec "Bonus release record"): `to_be_claimed` until the
 * customer claims it (`claimed`: paid to cash by the ledger transfer `dividend:release:<id>`
 * with its `dividend` income line) or `expiresAt` passes (`expired`: never paid). `balance` is
 * the account's hosting balance at the day's end that earned it.
 */
export const dividendReleases = pgTable(
  'dividend_releases',
  {
    id: id(),
    dividendId: ref('dividend_id'),
    accountId: accountRef(),
    userId: userRef(),
    day: text('day').notNull(),
    balance: money('balance'),
    amount: money('amount'),
    status: status(),
    expiresAt: at('expires_at').notNull(),
    claimedAt: at('claimed_at'),
    incomeId: optionalRef('income_id'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('dividend_releases_dividend_account').on(t.dividendId, t.accountId),
    index('dividend_releases_account').on(t.accountId, t.id),
    index('dividend_releases_claimable')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'to_be_claimed'`),
    check('dividend_releases_status', sql`${t.status} in ('to_be_claimed', 'claimed', 'expired')`),
    check('dividend_releases_amount_positive', sql`${t.amount} > 0`),
    check('dividend_releases_claimed_at', sql`(${t.status} = 'claimed') = (${t.claimedAt} is not null)`),
  ],
);
