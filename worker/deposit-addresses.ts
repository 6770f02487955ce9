/**
 * The recharge page's cached deposit addresses: the local `depositAddresses` table of
 * `coffer-u{user}-a{account}` (sync/databases.ts). The worker alone writes it, through
 * `recharge-address`; the UI reads it live, so the page shows an address fetched once even
 * offline. Rows are parsed on the way out (STYLE rule 5): a row of another shape counts as absent.
 */
import { rechargeAddressDataSchema } from '../contract/api/recharge.js';
import type { Chain } from '../contract/constants.js';
import { isoTimeSchema } from '../contract/schema.js';
import {
  accountDbName,
  openAccountDb,
  type AccountDb,
  type DepositAddressRecord,
} from '../sync/databases.js';

const depositAddressRecordSchema = rechargeAddressDataSchema.extend({ fetchedAt: isoTimeSchema });

export interface DepositAddressStore {
  /** The account's cached address on `chain`, or null when none (or an unreadable row) is stored. */
  get(userId: string, accountId: string, chain: Chain): Promise<DepositAddressRecord | null>;
  /** Replaces the cached address of `record.accountId` on `record.chain`. May throw a storage error. */
  put(userId: string, record: DepositAddressRecord): Promise<void>;
}

/** Over IndexedDB, one handle per account database, replaced once Dexie closed it (logout deletes them). */
export class DexieDepositAddressStore implements DepositAddressStore {
  private readonly handles = new Map<string, AccountDb>();

  private db(userId: string, accountId: string): AccountDb {
    const name = accountDbName(userId, accountId);
    let db = this.handles.get(name);
    if (db === undefined || db.hasBeenClosed()) {
      db = openAccountDb(userId, accountId);
      this.handles.set(name, db);
    }
    return db;
  }

  async get(userId: string, accountId: string, chain: Chain): Promise<DepositAddressRecord | null> {
    const parsed = depositAddressRecordSchema.safeParse(
      await this.db(userId, accountId).depositAddresses.get(chain),
    );
    return parsed.success && parsed.data.accountId === accountId ? parsed.data : null;
  }

  async put(userId: string, record: DepositAddressRecord): Promise<void> {
    await this.db(userId, record.accountId).depositAddresses.put(record);
  }

  /** Closes every handle this store opened (a later use opens them again). */
  close(): void {
    for (const db of this.handles.values()) db.close();
    this.handles.clear();
  }
}

export type { DepositAddressRecord };
