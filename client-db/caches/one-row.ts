/**
 * The worker's caches of one row a user (the Hosting tab's products, the kept proof of reserves):
 * one row of a table of `coffer-u{user}`, replaced whole, and parsed on the way out (STYLE rule
 * 5): a row of another shape counts as absent.
 */
import { userDbHandles } from './handles.js';

/** One cached row a user. */
export interface UserRowStore<R> {
  /** The user's cached row, or null when none (or an unreadable row) is stored. */
  get(userId: string): Promise<R | null>;
  /** Replaces the cached row. May throw a storage error. */
  put(userId: string, record: R): Promise<void>;
}

/** Over IndexedDB: the row `id` of `table`, read through `parse`; one handle per user database, replaced once Dexie closed it. */
export class DexieUserRowStore<R> implements UserRowStore<R> {
  private readonly db = userDbHandles();

  constructor(
    private readonly table: 'hostingConfig' | 'reservesProof',
    private readonly id: string,
    private readonly parse: (row: unknown) => R | null,
  ) {}

  async get(userId: string): Promise<R | null> {
    return this.parse(await this.db(userId).table(this.table).get(this.id));
  }

  async put(userId: string, record: R): Promise<void> {
    await this.db(userId).table(this.table).put(record);
  }
}
