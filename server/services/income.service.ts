/**
 * Income records (docs/protocol.md section 20): the lines a customer sees, each paid by
 * one ledger transfer into the account's cash when it arrives, and the operators' airdrops.
 *
 * What stays true:
 * - a line and its transfer are written in one transaction, both keyed by the cause: a repeated
 *   cause writes no second line and moves nothing (`creditIncome`);
 * - a pending line arrives once: the conditional update and the transfer commit together
 *   (`arrivePendingIncomeMany`), so of two racing callers one pays and the other finds it arrived;
 * - every write records the `income` collection's change in the same transaction.
 */
import type {
  AirdropData,
  AirdropParams,
  IncomeLogData,
  IncomeSource,
  IncomeStatus,
  IncomeType,
  IncomeTypeListData,
} from '../../contract/api/income.js';
import { INCOME_TYPES } from '../../contract/api/income.js';
import { type Minor, minor, moneyText, parseMoney } from '../../contract/money.js';
import type { RequestContext } from '../core/context.js';
import type { Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { customerBook, platformBook, type PlatformBook } from '../ledger/books.js';
import { creditMany, transfer } from '../ledger/ledger.js';
import type { Translator } from '../i18n/i18n.js';
import {
  incomeByIds,
  insertIncome,
  insertIncomeMany,
  listIncome,
  insertAirdrop,
  markIncomeArrived,
  type AirdropRow,
  type IncomeRow,
  type NewIncomeRow,
  type WrittenIncome,
} from '../repositories/income.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { localDateOf } from './hosting/days.js';
import { toIncomeRecord } from './hosting/records.js';
import { actorOf } from './operator.service.js';
import { namedAccounts } from './own-account.js';
import { ownAccountPage, type AccountPageParams } from './paging.js';
import { CoreService, type ServiceCore } from './service-core.js';

export interface IncomeLine {
  accountId: number;
  userId: number;
  type: IncomeType;
  amount: Minor;
  /** Local dates (YYYY-MM-DD, COFFER_TIMEZONE); for a pending line the arrival date is the expected one. */
  earningsDate: string;
  arrivalDate: string;
  status: IncomeStatus;
  /** Unique, derived from the cause (`hosting:12:interest:2026-01-06`, `airdrop:3:41`). */
  key: string;
  /** The ledger key of the transfer paying it (at once when arrived, later when pending). */
  transferKey: string;
  /** The platform book that pays it (interest expense, incentive expense ...). */
  from: PlatformBook;
  ref: { table: string; id: string };
  memo?: string | null;
  /** A team line's source: the member, generation, base and rate. */
  source?: IncomeSource | null;
}

/** The row of an income line, written at `now` (arrived at `arrivedAt`, null while pending). */
const rowOf = (line: IncomeLine, arrivedAt: Date | null, now: Date): NewIncomeRow => ({
  accountId: line.accountId,
  userId: line.userId,
  type: line.type,
  amount: line.amount,
  earningsDate: line.earningsDate,
  arrivalDate: line.arrivalDate,
  status: line.status,
  key: line.key,
  transferKey: line.transferKey,
  sourceTable: line.ref.table,
  sourceId: line.ref.id,
  memo: line.memo ?? null,
  source: line.source ?? null,
  arrivedAt,
  createdAt: now,
  updatedAt: now,
});

/**
 * Writes an income line and, when it arrives now, the transfer paying it (`from` -> the account's
 * cash, kind = the income type) in `tx`. Idempotent by `key`: a repeat returns the first line and
 * moves nothing. Throws what the ledger throws (never 470: a platform book pays).
 */
export async function creditIncome(tx: Executor, line: IncomeLine, now: Date): Promise<IncomeRow> {
  if (line.amount <= 0n) throw new Error(`income ${line.key}: an income line is above 0`);
  const arrived = line.status === 'arrived';
  const { row, created } = await insertIncome(tx, rowOf(line, arrived ? now : null, now));
  if (created && arrived) await payLine(tx, row, line.from, now);
  return row;
}

/** Lines `creditIncomeMany` writes per statement (one JSON parameter each: memory, not a limit). */
const LINES_PER_INSERT = 5000;

/**
 * `creditIncome` for many lines at once (a daily job's): each line and the transfer paying it
 * (`from` -> the account's cash, kind = its type) are written in `tx`, in a few statements per
 * five thousand lines however many there are. Every line arrives now, from one platform book.
 * Idempotent per key: a line whose key exists is neither written nor paid again. Answers the lines
 * written now. The caller is the only writer of these keys at a time (see `creditMany`).
 */
export async function creditIncomeMany(
  tx: Executor,
  from: PlatformBook,
  lines: readonly IncomeLine[],
  now: Date,
): Promise<WrittenIncome[]> {
  const written: WrittenIncome[] = [];
  for (let start = 0; start < lines.length; start += LINES_PER_INSERT) {
    const chunk = lines.slice(start, start + LINES_PER_INSERT);
    for (const line of chunk) {
      if (line.amount <= 0n) throw new Error(`income ${line.key}: an income line is above 0`);
      if (line.status !== 'arrived' || line.from !== from)
        throw new Error(`income ${line.key}: a batch pays arrived lines from ${from}`);
    }
    const created = await insertIncomeMany(
      tx,
      chunk.map((line) => rowOf(line, now, now)),
      now,
    );
    await payRows(tx, from, created, now);
    written.push(...created);
  }
  return written;
}

/**
 * Pays lines pending arrival from one platform book (an order's interest at its maturity), each
 * once: each line still pending is marked arrived on `arrivalDate`, and those marked now are
 * paid into their accounts' cash in a few statements with no lock per line (`creditMany`: the
 * conditional update makes this caller the only writer of their transfer keys). Answers the lines
 * that arrived now; a line that had arrived already moves nothing.
 */
export async function arrivePendingIncomeMany(
  tx: Executor,
  lines: readonly IncomeRow[],
  from: PlatformBook,
  arrivalDate: string,
  now: Date,
): Promise<IncomeRow[]> {
  const arrived: IncomeRow[] = [];
  for (const line of lines) {
    const row = await markIncomeArrived(tx, { id: line.id, arrivedAt: now, arrivalDate });
    if (row) arrived.push(row);
  }
  await payRows(tx, from, arrived, now);
  return arrived;
}

/**
 * Pays written lines into their accounts' cash from `from` in a few statements with no lock per
 * line (`creditMany`); the caller is the only writer of their transfer keys.
 */
async function payRows(
  tx: Executor,
  from: PlatformBook,
  rows: readonly Pick<
    WrittenIncome,
    'transferKey' | 'type' | 'accountId' | 'amount' | 'sourceTable' | 'sourceId'
  >[],
  now: Date,
): Promise<void> {
  await creditMany(
    tx,
    platformBook(from),
    'cash',
    'USDT',
    rows.map((row) => ({
      key: row.transferKey,
      kind: row.type as IncomeType, // the column holds only income types, which are record kinds
      accountId: row.accountId,
      amount: minor(row.amount),
      ref: { table: row.sourceTable, id: row.sourceId },
    })),
    now,
  );
}

async function payLine(tx: Executor, row: IncomeRow, from: PlatformBook, now: Date): Promise<void> {
  await transfer(
    tx,
    [
      {
        key: row.transferKey,
        kind: row.type as IncomeType, // the column holds only income types, which are record kinds
        asset: 'USDT',
        from: platformBook(from),
        to: customerBook(row.accountId, 'cash'),
        amount: minor(row.amount),
        ref: { table: row.sourceTable, id: row.sourceId },
      },
    ],
    now,
  );
}

const toAirdropData = (row: AirdropRow): AirdropData => ({
  id: String(row.id),
  amount: moneyText(row.amount),
  reason: row.reason,
  accountIds: row.accountIds.map(String),
  total: moneyText(row.amount * BigInt(row.accountIds.length)),
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

export class IncomeService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly translator: Translator,
    private readonly timezone: string,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
  ) {
    super(core);
  }

  /** The six income types, each named in the request's language. Read-only. */
  typeList(ctx: RequestContext): IncomeTypeListData {
    return {
      items: INCOME_TYPES.map((type) => ({
        type,
        name: this.translator.t(ctx.locale, `server.income_type_${type}`),
      })),
    };
  }

  /** The account's income lines, newest first, of one type when given. 403 for an account not the caller's. */
  async log(
    ctx: RequestContext,
    params: AccountPageParams & { type?: IncomeType | undefined },
  ): Promise<IncomeLogData> {
    return this.reads.read(ctx.caller, (db) =>
      ownAccountPage(
        db,
        ctx,
        params,
        (db, page) => listIncome(db, { ...page, type: params.type }),
        toIncomeRecord,
      ),
    );
  }

  /** The account's lines with these ids, for a pull. */
  static async byIds(db: Executor, accountId: number, ids: readonly number[]) {
    return (await incomeByIds(db, accountId, ids)).map(toIncomeRecord);
  }

  /**
   * Pays `amount` to each account named, from incentive expense (kind and income type `airdrop`,
   * ledger keys `airdrop:<id>:<accountId>`), with the reason as the lines' memo; audited. 400 on
   * `accountIds` naming an account that does not exist. All accounts or none.
   */
  airdrop(ctx: RequestContext, params: AirdropParams): Promise<AirdropData> {
    return this.commands.run(ctx, (tx) => this.airdropIn(tx, actorOf(ctx), params));
  }

  private async airdropIn(tx: Executor, actor: string, params: AirdropParams): Promise<AirdropData> {
    const now = this.clock.now();
    const amount = parseMoney(params.amount);
    const found = await namedAccounts(tx, params.accountIds);
    const row = await insertAirdrop(tx, {
      amount,
      reason: params.reason,
      accountIds: params.accountIds,
      createdBy: actor,
      createdAt: now,
    });
    const today = localDateOf(now, this.timezone);
    for (const account of found) {
      const key = `airdrop:${row.id}:${account.id}`;
      await creditIncome(
        tx,
        {
          accountId: account.id,
          userId: account.userId,
          type: 'airdrop',
          amount,
          earningsDate: today,
          arrivalDate: today,
          status: 'arrived',
          key,
          transferKey: key,
          from: 'incentive_expense',
          ref: { table: 'airdrops', id: String(row.id) },
          memo: params.reason,
        },
        now,
      );
    }
    await appendAudit(tx, {
      actor,
      action: 'income.airdrop',
      target: String(row.id),
      detail: params,
      at: now,
    });
    return toAirdropData(row);
  }
}
