/**
 * The withdrawal methods page's cached list: the local `paymentMethods` table of `coffer-u{user}`
 * (`schema.ts`). The worker alone writes it, through `payment-list` (and after each add or
 * delete); the UI reads it live, so the page shows the list offline. Rows are parsed on the way
 * out (STYLE rule 5): a row of another shape is left out.
 */
import { paymentMethodSchema } from '../../contract/api/payment.js';
import { isoTimeSchema } from '../../contract/schema.js';
import type { PaymentMethodRecord } from '../schema.js';
import { userDbHandles } from './handles.js';

const paymentMethodRecordSchema = paymentMethodSchema.extend({ fetchedAt: isoTimeSchema });

export interface PaymentMethodStore {
  /** The user's cached methods, newest first; empty when none (or only unreadable rows) are stored. */
  all(userId: string): Promise<PaymentMethodRecord[]>;
  /** Replaces the whole cached list in one transaction. May throw a storage error. */
  replace(userId: string, records: readonly PaymentMethodRecord[]): Promise<void>;
}

/** Over IndexedDB, one handle on the user's database, replaced once Dexie closed it (logout deletes it). */
export class DexiePaymentMethodStore implements PaymentMethodStore {
  private readonly db = userDbHandles();

  async all(userId: string): Promise<PaymentMethodRecord[]> {
    const rows = await this.db(userId).paymentMethods.orderBy('createdAt').reverse().toArray();
    return rows.flatMap((row) => {
      const parsed = paymentMethodRecordSchema.safeParse(row);
      return parsed.success ? [parsed.data] : [];
    });
  }

  async replace(userId: string, records: readonly PaymentMethodRecord[]): Promise<void> {
    const db = this.db(userId);
    await db.transaction('rw', db.paymentMethods, async () => {
      await db.paymentMethods.clear();
      await db.paymentMethods.bulkPut([...records]);
    });
  }
}

export type { PaymentMethodRecord };
