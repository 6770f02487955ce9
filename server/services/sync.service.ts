/**
 * Pull by cursor (CONTRACT.md "Sync"): per collection, the records changed since the cursor and
 * the ids deleted since, in pages, scoped to what the caller may see. Cursors never skip a late
 * commit: only changes of transactions below the snapshot's horizon are delivered.
 */
import { BodyCode } from '../../contract/codes.js';
import {
  COLLECTION_NAMES,
  PULL_PAGE_SIZE,
  SYNC_COLLECTIONS,
  type PullData,
  type PullParams,
} from '../../contract/sync.js';
import type { Database, Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { BusinessError } from '../core/errors.js';
import type { RequestContext } from '../core/context.js';
import { changesAfter, pendingCollections } from '../repositories/sync.repository.js';
import { findOwnAccountId } from '../repositories/user.repository.js';
import { rowIdOf } from '../core/params.js';
import type { SyncCollections } from './sync-collection.js';

function parseCursor(cursor: string | undefined): { txid: number; seq: number } {
  if (!cursor) return { txid: 0, seq: 0 };
  const [txid = '0', seq = '0'] = cursor.split('.');
  return { txid: Number(txid), seq: Number(seq) };
}

export class SyncService {
  /** `collections`: every collection's reader (services/collections.ts), one per name of contract/sync.ts. */
  constructor(
    private readonly reads: ReadRouting,
    private readonly collections: SyncCollections,
  ) {}

  /**
   * One page of changes per collection the caller may read. Read-only; never throws for an old
   * cursor. Nothing new costs two queries: the account, then the horizon with the collections
   * that have changes (sync.repository.ts `pendingCollections`); only those are read.
   */
  async pull(ctx: RequestContext, params: PullParams): Promise<PullData> {
    return this.reads.read(ctx.caller, (db) => this.pullFrom(db, ctx, params));
  }

  /**
   * The pull on `db`: the primary, or a streaming replica that has replayed the caller's last
   * write (read-routing.ts). On a hot standby the horizon rule holds as on the primary: its
   * snapshot's xmin is the oldest transaction of the primary still running as far as replay has
   * seen, so every change below it is committed there (or aborted) for good.
   */
  private async pullFrom(db: Database, ctx: RequestContext, params: PullParams): Promise<PullData> {
    const userId = ctx.caller.kind === 'user' ? ctx.caller.userId : null;
    const accountId = await this.checkedAccount(db, userId, params.accountId);
    const probes = COLLECTION_NAMES.flatMap((collection) => {
      const scope = SYNC_COLLECTIONS[collection].scope;
      const scopeId = scope === 'public' ? 0 : scope === 'user' ? userId : accountId;
      if (scopeId === null) return [];
      const after = parseCursor(params.cursors[collection]);
      return [{ collection, scopeId, afterTxid: after.txid, afterSeq: after.seq }];
    });
    const { horizon, pending } = await pendingCollections(db, probes);
    const data: PullData = { changes: {}, cursors: {}, hasMore: false };
    for (const probe of probes) {
      const name = probe.collection;
      data.cursors[name] = `${probe.afterTxid}.${probe.afterSeq}`;
      if (!pending.has(name)) continue;
      const rows = await changesAfter(db, { ...probe, horizon, limit: PULL_PAGE_SIZE + 1 });
      const page = rows.slice(0, PULL_PAGE_SIZE);
      if (rows.length > PULL_PAGE_SIZE) data.hasMore = true;
      const last = page[page.length - 1];
      if (last) data.cursors[name] = `${last.txid}.${last.seq}`;
      if (page.length === 0) continue;
      // The newest change of each record wins; a record gone from its table is a delete.
      const latest = new Map(page.map((row) => [row.recordId, row.deleted]));
      const live = [...latest].filter(([, deleted]) => !deleted).map(([id]) => id);
      const upserts = live.length > 0 ? await this.collections[name](db, probe.scopeId, live) : [];
      const found = new Set(upserts.map((record) => record.id));
      const deletes = [...latest].filter(([id, deleted]) => deleted || !found.has(id)).map(([id]) => id);
      data.changes[name] = { upserts, deletes };
    }
    return data;
  }

  /** The account a pull names (or the caller's default, else first); 403 when it is not the caller's. One query. */
  private async checkedAccount(
    db: Executor,
    userId: number | null,
    requested: string | undefined,
  ): Promise<number | null> {
    if (userId === null) return null;
    const wanted = requested === undefined ? null : rowIdOf(requested);
    const accountId =
      wanted === null && requested !== undefined ? undefined : await findOwnAccountId(db, userId, wanted);
    if (accountId === undefined && requested !== undefined)
      throw new BusinessError(BodyCode.forbidden, 'server.forbidden', {}, { field: 'accountId' });
    return accountId ?? null;
  }
}
