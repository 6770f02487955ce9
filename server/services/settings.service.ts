/**
 * Platform settings operators set: the RAB price in USDT (`npm run admin -- price set RAB <usdt>`,
 * 0 until set) and the newcomer incentive (USDT paid once to each new user's main account, 0:
 * none). Both audited; the price reaches every client through the public `prices` collection.
 *
 * The RAB price lives in `price_versions`: each change of its value is a new row, and
 * that row's id is the `priceVersion` an exchange must name (docs/protocol.md section 18).
 */
import type { PlatformSettings } from '../../contract/api/admin.js';
import { formatMoney, minor, parseMoney, type Minor } from '../../contract/money.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { insertPriceVersion, latestPriceVersion, lockPrice } from '../repositories/price.repository.js';
import { findSetting, setSetting } from '../repositories/settings.repository.js';
import { recordChange } from '../repositories/sync.repository.js';

const NEWCOMER_INCENTIVE = 'newcomer_incentive';

async function moneySetting(db: Executor, key: string): Promise<{ value: Minor; updatedAt: Date | null }> {
  const row = await findSetting(db, key);
  return row
    ? { value: parseMoney(row.value), updatedAt: row.updatedAt }
    : { value: minor(0n), updatedAt: null };
}

/** The RAB price as operators set it: USDT minor units per RAB, its version and when it was set. */
export interface RabPrice {
  value: Minor;
  /** The price version's id (null: never set, price 0). */
  version: number | null;
  updatedAt: Date | null;
}

/** The operator's current RAB price (0, version null, until one is set). Read-only. */
export async function rabPrice(db: Executor): Promise<RabPrice> {
  const row = await latestPriceVersion(db, 'RAB');
  return row
    ? { value: minor(row.price), version: row.id, updatedAt: row.createdAt }
    : { value: minor(0n), version: null, updatedAt: null };
}

/** The newcomer incentive in USDT minor units (0: none). */
export const newcomerIncentive = async (db: Executor) => (await moneySetting(db, NEWCOMER_INCENTIVE)).value;

export async function readSettings(db: Executor): Promise<PlatformSettings> {
  const price = await rabPrice(db);
  return {
    rabPriceUsdt: formatMoney(price.value),
    rabPriceVersion: price.version === null ? null : String(price.version),
    newcomerIncentive: formatMoney(await newcomerIncentive(db)),
  };
}

/**
 * Sets the given settings in `tx`, audited as `actor`. A RAB price other than the current one
 * is a new price version (exchanges quoted at the old one are then refused with 409); it waits
 * for exchanges filling at the old price to commit (`lockPrice`). Idempotent: setting the
 * current value again makes no new version and changes nothing else.
 */
export async function writeSettings(
  tx: Executor,
  clock: Clock,
  actor: string,
  change: { rabPriceUsdt?: string | undefined; newcomerIncentive?: string | undefined },
): Promise<PlatformSettings> {
  const now = clock.now();
  if (change.rabPriceUsdt !== undefined) {
    const price = parseMoney(change.rabPriceUsdt);
    await lockPrice(tx, 'RAB', 'exclusive');
    const current = await latestPriceVersion(tx, 'RAB');
    if (!current || current.price !== price) {
      await insertPriceVersion(tx, { asset: 'RAB', price, createdAt: now, createdBy: actor });
      await recordChange(tx, { collection: 'prices', scopeId: 0, recordId: 'RAB', deleted: false, at: now });
    }
  }
  if (change.newcomerIncentive !== undefined) {
    await setSetting(tx, {
      key: NEWCOMER_INCENTIVE,
      value: change.newcomerIncentive,
      updatedAt: now,
      updatedBy: actor,
    });
  }
  await appendAudit(tx, { actor, action: 'settings.update', target: null, detail: { ...change }, at: now });
  return readSettings(tx);
}
