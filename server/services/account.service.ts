/**
 * A customer's Coffer accounts (CONTRACT.md "Identity and accounts"): the main account made at
 * registration, up to 10 sub-accounts, the default shown first, transfers between one's own
 * accounts, balances and wallet records, all read from the ledger.
 */
import type { SessionService } from './session.service.js';
import type {
  AccountListData,
  AccountRecord,
  AccountTransferData,
  AccountTransferParams,
  AssetsData,
  WalletRecord,
  WalletRecordsData,
} from '../../contract/api/account.js';
import { BodyCode } from '../../contract/codes.js';
import { SUB_ACCOUNTS_MAX } from '../../contract/constants.js';
import { formatMoney, type Minor, minor, moneyText, parseMoney, valueAt } from '../../contract/money.js';
import { idempotencyOwnerOf, userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notLoggedIn } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { customerBook, platformBook } from '../ledger/books.js';
import { openAccountBooks, transfer, type AccountBalances } from '../ledger/ledger.js';
import { transfersOfSide } from '../ledger/ledger.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import {
  findUserById,
  insertAccount,
  listAccounts,
  lockUser,
  setDefaultAccount,
} from '../repositories/user.repository.js';
import { notYourAccount, ownAccount, ownBalances } from './own-account.js';
import { balanceFieldsOf, toAccountRecord, toWalletRecord } from './records.js';
import { newcomerIncentive } from './settings.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

const RECORDS_PAGE = 20;

/** Total in USDT: every USDT book plus every RAB book valued at the operator's price. */
export function totalUsdt(balances: AccountBalances, price: Minor): Minor {
  const { USDT, RAB } = balances;
  const rab = minor(RAB.cash + RAB.hosting + RAB.held);
  return minor(USDT.cash + USDT.hosting + USDT.held + valueAt(rab, price));
}

/** A new Coffer account with its ledger books, synced to the user's devices, in `tx`. */
async function openAccount(tx: Executor, account: Parameters<typeof insertAccount>[1]) {
  const row = await insertAccount(tx, account);
  await openAccountBooks(tx, row.id);
  await recordChange(tx, {
    collection: 'accounts',
    scopeId: row.userId,
    recordId: String(row.id),
    deleted: false,
    at: row.createdAt,
  });
  return row;
}

export class AccountService extends CoreService {
  constructor(
    core: ServiceCore,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
    /** Told of every change to a user's accounts, which user/info shows (its cache). */
    private readonly sessions: SessionService,
  ) {
    super(core);
  }

  /**
   * Opens a new user's main account in the registration's transaction, makes it the default
   * and pays the newcomer incentive once (its key is the user's id) when an operator set one.
   */
  async openMainAccount(tx: Executor, userId: number, now: Date): Promise<number> {
    const account = await openAccount(tx, { userId, kind: 'main', name: 'main', createdAt: now });
    await setDefaultAccount(tx, userId, account.id);
    const incentive = await newcomerIncentive(tx);
    if (incentive > 0n) {
      await transfer(
        tx,
        [
          {
            key: `newcomer_incentive:${userId}`,
            kind: 'newcomer_incentive',
            asset: 'USDT',
            from: platformBook('incentive_expense'),
            to: customerBook(account.id, 'cash'),
            amount: incentive,
            ref: { table: 'users', id: String(userId) },
          },
        ],
        now,
      );
    }
    return account.id;
  }

  /** The caller's accounts: main first, then sub-accounts by creation. */
  async list(ctx: RequestContext): Promise<AccountListData> {
    const userId = userIdOf(ctx);
    const [user, rows] = await Promise.all([findUserById(this.db, userId), listAccounts(this.db, userId)]);
    if (!user) throw notLoggedIn();
    const ordered = [...rows].sort((a, b) => (a.kind === b.kind ? a.id - b.id : a.kind === 'main' ? -1 : 1));
    return { items: ordered.map((row) => toAccountRecord(row, user.defaultAccountId)) };
  }

  /** Opens a sub-account (name 1-20 characters; at most 10 per user, also when creations race). */
  async createSubAccount(ctx: RequestContext, params: { name: string }): Promise<AccountRecord> {
    const userId = userIdOf(ctx);
    const created = await this.commands.run(ctx, async (tx) => {
      const { user, accounts: existing } = await lockedUserAccounts(tx, userId);
      if (existing.filter((account) => account.kind === 'sub').length >= SUB_ACCOUNTS_MAX) {
        throw new BusinessError(BodyCode.conflict, 'server.sub_account_limit', { max: SUB_ACCOUNTS_MAX });
      }
      const now = this.clock.now();
      const account = await openAccount(tx, { userId, kind: 'sub', name: params.name, createdAt: now });
      return toAccountRecord(account, user.defaultAccountId);
    });
    await this.sessions.forgetUsers([userId]);
    return created;
  }

  /** Makes one of the caller's accounts the default shown first; changes nothing else. */
  async switch(ctx: RequestContext, params: { accountId: string }): Promise<AccountRecord> {
    const userId = userIdOf(ctx);
    const switched = await this.commands.run(ctx, async (tx) => {
      const { user, accounts } = await lockedUserAccounts(tx, userId);
      const account = accounts.find((candidate) => String(candidate.id) === params.accountId);
      if (!account) throw notYourAccount('accountId');
      const now = this.clock.now();
      await setDefaultAccount(tx, userId, account.id);
      for (const id of new Set([user.defaultAccountId, account.id])) {
        if (id === null) continue;
        await recordChange(tx, {
          collection: 'accounts',
          scopeId: userId,
          recordId: String(id),
          deleted: false,
          at: now,
        });
      }
      return toAccountRecord(account, account.id);
    });
    await this.sessions.forgetUsers([userId]);
    return switched;
  }

  /**
   * Moves available money between two of the caller's accounts (kind `account_transfer`), one
   * ledger transfer whose key derives from the command's Idempotency-Key: a repeat moves nothing
   * and gets the first answer. 470 when the source's available amount is short; 403 for an
   * account not the caller's.
   */
  transfer(ctx: RequestContext, params: AccountTransferParams): Promise<AccountTransferData> {
    const userId = userIdOf(ctx);
    if (params.fromAccountId === params.toAccountId) throw invalidField('toAccountId', 'server.same_account');
    return this.commands.run(ctx, async (tx) => {
      const accounts = await listAccounts(tx, userId);
      const from = accounts.find((account) => String(account.id) === params.fromAccountId);
      if (!from) throw notYourAccount('fromAccountId');
      const to = accounts.find((account) => String(account.id) === params.toAccountId);
      if (!to) throw notYourAccount('toAccountId');
      const cause = ctx.idempotency
        ? `${idempotencyOwnerOf(ctx.caller)}:${ctx.idempotency.key}`
        : globalThis.crypto.randomUUID();
      const [outcome] = await transfer(
        tx,
        [
          {
            key: `account_transfer:${cause}`,
            kind: 'account_transfer',
            asset: params.asset,
            from: customerBook(from.id, 'cash'),
            to: customerBook(to.id, 'cash'),
            amount: parseMoney(params.amount),
            ref: { table: 'account_transfer', id: cause },
          },
        ],
        this.clock.now(),
      );
      if (!outcome) throw new Error('account transfer wrote no ledger transfer');
      return {
        id: String(outcome.transfer.id),
        fromAccountId: String(from.id),
        toAccountId: String(to.id),
        asset: params.asset,
        amount: moneyText(outcome.transfer.amount),
        createdAt: outcome.transfer.createdAt.toISOString(),
      };
    });
  }

  /** The account's balances from the ledger, RAB valued at the operator's price. Read-only. */
  async assets(ctx: RequestContext, params: { accountId?: string | undefined }): Promise<AssetsData> {
    const { accountId, own, price } = await ownBalances(this.db, ctx, params.accountId);
    return {
      accountId: String(accountId),
      ...balanceFieldsOf(own),
      rabPriceUsdt: formatMoney(price.value),
      totalUsdt: formatMoney(totalUsdt(own, price.value)),
      asOf: this.clock.now().toISOString(),
    };
  }

  /**
   * The account's wallet records, newest first: each side of a transfer the account is on,
   * signed from its side, with the book's balance after it. Pages by transfer id (both sides of
   * a transfer within one account stay on one page).
   */
  async records(
    ctx: RequestContext,
    params: {
      accountId?: string | undefined;
      kind?: WalletRecord['kind'] | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<WalletRecordsData> {
    return this.reads.read(ctx.caller, (db) => this.recordsFrom(db, ctx, params));
  }

  private async recordsFrom(
    db: Executor,
    ctx: RequestContext,
    params: Parameters<AccountService['records']>[1],
  ): Promise<WalletRecordsData> {
    const accountId = (await ownAccount(db, ctx, params.accountId)).accountId;
    const limit = params.limit ?? RECORDS_PAGE;
    const query = {
      owner: accountId,
      beforeId: params.cursor ? Number(params.cursor) : null,
      kind: params.kind ?? null,
      limit: limit + 1,
    };
    const [debits, credits] = await Promise.all([
      transfersOfSide(db, { ...query, side: 'debit' }),
      transfersOfSide(db, { ...query, side: 'credit' }),
    ]);
    const sides = [
      ...debits.map((row) => ({ row, side: 'd' as const })),
      ...credits.map((row) => ({ row, side: 'c' as const })),
    ].sort((a, b) => b.row.id - a.row.id || (a.side < b.side ? 1 : -1));
    const page = sides.slice(0, limit);
    const last = page[page.length - 1];
    // The other side of the last transfer (a move within the account) belongs on this page too.
    const next = sides[limit];
    if (last && next && next.row.id === last.row.id) page.push(next);
    const hasMore = sides.length > page.length;
    return {
      items: page.map(({ row, side }) => toWalletRecord(row, side)),
      nextCursor: hasMore && last ? String(last.row.id) : null,
    };
  }
}

/** The caller's user row, locked until the transaction ends (401 when it is gone), and its accounts. */
async function lockedUserAccounts(tx: Executor, userId: number) {
  const user = await lockUser(tx, userId);
  if (!user) throw notLoggedIn();
  return { user, accounts: await listAccounts(tx, userId) };
}
