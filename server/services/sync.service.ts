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
  type CollectionName,
  type PullData,
  type PullParams,
} from '../../contract/sync.js';
import type { Database, Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { BusinessError } from '../core/errors.js';
import type { RequestContext } from '../core/context.js';
import {
  feedbackByIds,
  newsByIds,
  noticesByIds,
  quotesBySymbols,
} from '../repositories/content.repository.js';
import { changesAfter, pendingCollections } from '../repositories/sync.repository.js';
import { findOwnAccountId, findUserById, listAccounts } from '../repositories/users.repository.js';
import { rowIdOf } from '../core/params.js';
import {
  toAccountRecord,
  toBalanceRecord,
  toDeliveryRecord,
  toDepositRecord,
  toExchangeRecord,
  toFeedbackRecord,
  toNewsRecord,
  toNoticeRecord,
  toPriceRecord,
  toWithdrawalRecord,
  toProfileRecord,
  toQuoteRecord,
  toWalletRecord,
} from './records.js';
import { accountBalances } from '../ledger/ledger.js';
import { latestTransferAt, transfersOfOwnerByIds } from '../ledger/ledger.repository.js';
import { rabPrice } from './settings.service.js';
import { depositsByIds } from '../repositories/deposits.repository.js';
import { withdrawalsByIds } from '../repositories/withdrawals.repository.js';
import { exchangesByIds } from '../repositories/exchanges.repository.js';
import { deliveryRecordsByIds } from '../repositories/delivery.repository.js';
import { DividendService } from './dividend.service.js';

import { changeRecordsByIds, orderRecordsByIds } from './hosting/records.js';
import { IncomeService } from './income.service.js';
import { machineRecordsByIds, ownedRecordsByIds, ticketRecordsByIds } from './machine/records.js';
import { OtcService } from './otc.service.js';

type Loader = (db: Executor, scopeId: number, ids: string[]) => Promise<Array<{ id: string }>>;
const numericIds = (ids: string[]) => ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);

/** How each collection's current records are read, by id, within its scope. */
const LOADERS: Record<CollectionName, Loader> = {
  news: async (db, _scope, ids) => (await newsByIds(db, numericIds(ids))).map(toNewsRecord),
  notices: async (db, _scope, ids) => (await noticesByIds(db, numericIds(ids))).map(toNoticeRecord),
  quotes: async (db, _scope, ids) => (await quotesBySymbols(db, ids)).map(toQuoteRecord),
  profile: async (db, userId, ids) => {
    if (!ids.includes(String(userId))) return [];
    const user = await findUserById(db, userId);
    return user ? [toProfileRecord(user)] : [];
  },
  feedback: async (db, userId, ids) =>
    (await feedbackByIds(db, userId, numericIds(ids))).map(toFeedbackRecord),
  prices: async (db, _scope, ids) => {
    if (!ids.includes('RAB')) return [];
    const price = await rabPrice(db);
    return price.version !== null && price.updatedAt
      ? [toPriceRecord('RAB', price.value, price.version, price.updatedAt)]
      : [];
  },
  accounts: async (db, userId, ids) => {
    const [user, rows] = await Promise.all([findUserById(db, userId), listAccounts(db, userId)]);
    const wanted = new Set(ids);
    return rows
      .filter((row) => wanted.has(String(row.id)))
      .map((row) => toAccountRecord(row, user?.defaultAccountId ?? null));
  },
  balances: async (db, accountId, ids) => {
    if (!ids.includes(String(accountId))) return [];
    const balances = (await accountBalances(db, [accountId])).get(accountId);
    const latest = await latestTransferAt(db, accountId);
    return balances ? [toBalanceRecord(accountId, balances, latest ?? new Date(0))] : [];
  },
  deposits: async (db, accountId, ids) =>
    (await depositsByIds(db, accountId, numericIds(ids))).map(toDepositRecord),
  delivery: async (db, _scope, ids) =>
    (await deliveryRecordsByIds(db, numericIds(ids))).map(toDeliveryRecord),
  dividend_releases: (db, accountId, ids) => DividendService.recordsByIds(db, accountId, numericIds(ids)),
  exchanges: async (db, accountId, ids) =>
    (await exchangesByIds(db, accountId, numericIds(ids))).map(toExchangeRecord),
  hosting_orders: (db, accountId, ids) => orderRecordsByIds(db, accountId, numericIds(ids)),
  hosting_changes: (db, accountId, ids) => changeRecordsByIds(db, accountId, numericIds(ids)),
  income: (db, accountId, ids) => IncomeService.byIds(db, accountId, numericIds(ids)),
  machines: (db, _scope, ids) => machineRecordsByIds(db, numericIds(ids)),
  owned_machines: (db, accountId, ids) => ownedRecordsByIds(db, accountId, numericIds(ids)),
  tickets: (db, accountId, ids) => ticketRecordsByIds(db, accountId, numericIds(ids)),
  otc_orders: (db, accountId, ids) => OtcService.orderRecordsByIds(db, accountId, numericIds(ids)),
  otc_book: (db, _scope, ids) => OtcService.bookRecordsByIds(db, numericIds(ids)),
  withdrawals: async (db, accountId, ids) =>
    (await withdrawalsByIds(db, accountId, numericIds(ids))).map(toWithdrawalRecord),
  records: async (db, accountId, ids) => {
    const sides = new Map<number, Set<string>>();
    for (const id of ids) {
      const match = /^(\d{1,15})-([dc])$/.exec(id);
      if (!match?.[1] || !match[2]) continue;
      const transferId = Number(match[1]);
      sides.set(transferId, (sides.get(transferId) ?? new Set()).add(match[2]));
    }
    const rows = await transfersOfOwnerByIds(db, accountId, [...sides.keys()]);
    return rows.flatMap((row) =>
      (['d', 'c'] as const)
        .filter(
          (side) =>
            sides.get(row.id)?.has(side) && (side === 'd' ? row.debitOwner : row.creditOwner) === accountId,
        )
        .map((side) => toWalletRecord(row, side)),
    );
  },
};

function parseCursor(cursor: string | undefined): { txid: number; seq: number } {
  if (!cursor) return { txid: 0, seq: 0 };
  const [txid = '0', seq = '0'] = cursor.split('.');
  return { txid: Number(txid), seq: Number(seq) };
}

export class SyncService {
  constructor(private readonly reads: ReadRouting) {}

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
      const upserts = live.length > 0 ? await LOADERS[name](db, probe.scopeId, live) : [];
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
