/**
 * The recharge page's cached deposit addresses: the local `depositAddresses` table of
 * `coffer-u{user}-a{account}` (`schema.ts`). The worker alone writes it, through
 * `recharge-address`; the UI reads it live, so the page shows an address fetched once even
 * offline. Rows are parsed on the way out (STYLE rule 5): a row of another shape counts as absent.
 */
import { rechargeAddressDataSchema } from '../../contract/api/recharge.js';
import type { Chain } from '../../contract/constants.js';
import { isoTimeSchema } from '../../contract/schema.js';
import type { DepositAddressRecord } from '../schema.js';
import { accountDbHandles } from './handles.js';

const depositAddressRecordSchema = rechargeAddressDataSchema.extend({ fetchedAt: isoTimeSchema });

export interface DepositAddressStore {
  /** The account's cached address on `chain`, or null when none (or an unreadable row) is stored. */
  get(userId: string, accountId: string, chain: Chain): Promise<DepositAddressRecord | null>;
  /** Replaces the cached address of `record.accountId` on `record.chain`. May throw a storage error. */
  put(userId: string, record: DepositAddressRecord): Promise<void>;
}

/** Over IndexedDB, one handle per account database, replaced once Dexie closed it (logout deletes them). */
export class DexieDepositAddressStore implements DepositAddressStore {
  private readonly db = accountDbHandles();

  async get(userId: string, accountId: string, chain: Chain): Promise<DepositAddressRecord | null> {
    const parsed = depositAddressRecordSchema.safeParse(
      await this.db(userId, accountId).depositAddresses.get(chain),
    );
    return parsed.success && parsed.data.accountId === accountId ? parsed.data : null;
  }

  async put(userId: string, record: DepositAddressRecord): Promise<void> {
    await this.db(userId, record.accountId).depositAddresses.put(record);
  }
}

export type { DepositAddressRecord };
