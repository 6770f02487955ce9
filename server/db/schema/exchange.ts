/**
 * Exchange: price versions and exchanges.
 */
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { id, ref, owner, money, createdAt, madeBy } from './columns.js';

/**
 * Operators' prices of an asset in USDT, one row per change: the newest row of an
 * asset is its price, and its id is the `priceVersion` a customer's exchange names, so a
 * submit quoting an older version is refused (409) instead of filled at a price the customer
 * never saw. Append-only by convention: a change is a new row. `price` in USDT minor units
 * per whole unit of `asset` (0: no price, the exchange is closed).
 */
export const priceVersions = pgTable(
  'price_versions',
  {
    id: id(),
    asset: text('asset').notNull(),
    price: money('price'),
    ...madeBy(),
  },
  (t) => [
    index('price_versions_asset').on(t.asset, t.id),
    check('price_versions_price_not_negative', sql`${t.price} >= 0`),
  ],
);

/**
 * RAB/USDT exchanges, each settled by ledger transfers keyed `exchange:<id>:<leg>`
 * in the row's own transaction. `fee` and `rounding` are USDT minor units (the fee to fee
 * revenue, the residue of rounding toward the platform to the rounding book); `price` and
 * `priceVersionId` are the version the customer confirmed, `feeRate` the exact decimal used.
 */
export const exchanges = pgTable(
  'exchanges',
  {
    id: id(),
    ...owner(),
    direction: text('direction').notNull(),
    assetIn: text('asset_in').notNull(),
    amountIn: money('amount_in'),
    assetOut: text('asset_out').notNull(),
    amountOut: money('amount_out'),
    fee: money('fee'),
    rounding: money('rounding'),
    price: money('price'),
    priceVersionId: ref('price_version_id'),
    feeRate: text('fee_rate').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('exchanges_account').on(t.accountId, t.id),
    check('exchanges_direction', sql`${t.direction} in ('rab_to_usdt', 'usdt_to_rab')`),
    check(
      'exchanges_amounts',
      sql`${t.amountIn} > 0 and ${t.amountOut} > 0 and ${t.fee} >= 0 and ${t.rounding} >= 0 and ${t.price} > 0`,
    ),
  ],
);
