/**
 * Platform settings operators set: the RAB price in USDT (`npm run admin -- price set RAB <usdt>`,
 * 0 until set) and the newcomer incentive (USDT paid once to each new user's main account, 0:
 * none). Both audited; the price reaches every client through the public `prices` collection.
 */
import type { PlatformSettings } from '../../contract/api/admin.js';
import { formatMoney, minor, parseMoney, type Minor } from '../../contract/money.js';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import { appendAudit } from '../repositories/operators.repository.js';
import { findSetting, setSetting } from '../repositories/settings.repository.js';
import { recordChange } from '../repositories/sync.repository.js';

const RAB_PRICE = 'price.RAB';
const NEWCOMER_INCENTIVE = 'newcomer_incentive';

async function moneySetting(db: Executor, key: string): Promise<{ value: Minor; updatedAt: Date | null }> {
  const row = await findSetting(db, key);
  return row
    ? { value: parseMoney(row.value), updatedAt: row.updatedAt }
    : { value: minor(0n), updatedAt: null };
}

/** The operator's RAB price in USDT minor units, and when it was set (null: never, price 0). */
export const rabPrice = (db: Executor) => moneySetting(db, RAB_PRICE);

/** The newcomer incentive in USDT minor units (0: none). */
export const newcomerIncentive = async (db: Executor) => (await moneySetting(db, NEWCOMER_INCENTIVE)).value;

export async function readSettings(db: Executor): Promise<PlatformSettings> {
  return {
    rabPriceUsdt: formatMoney((await rabPrice(db)).value),
    newcomerIncentive: formatMoney(await newcomerIncentive(db)),
  };
}

/** Sets the given settings in `tx`, audited as `actor`. Idempotent: setting a value again changes nothing else. */
export async function writeSettings(
  tx: Executor,
  clock: Clock,
  actor: string,
  change: { rabPriceUsdt?: string | undefined; newcomerIncentive?: string | undefined },
): Promise<PlatformSettings> {
  const now = clock.now();
  if (change.rabPriceUsdt !== undefined) {
    await setSetting(tx, { key: RAB_PRICE, value: change.rabPriceUsdt, updatedAt: now, updatedBy: actor });
    await recordChange(tx, { collection: 'prices', scopeId: 0, recordId: 'RAB', deleted: false, at: now });
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
