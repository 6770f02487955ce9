/**
 * AI dividends (docs/protocol.md section 21).
 *
 * What stays true:
 * - a published total is exactly accounted for: the floored shares (dividend-shares.ts) plus the
 *   residue, which goes from incentive expense to the rounding book at publication (ledger key
 *   `dividend:<id>:residue`), add up to it; one dividend per local day;
 * - only accounts whose hosting balance at the day's end is valid (at least 500 USDT,
 *   `isValidHosting`) share, pro rata by that balance as the ledger held it;
 * - a record is paid once: a claim locks it, pays it only while it is to be claimed and not past
 *   its expiry, and writes its `dividend` income line (arrived), the transfer incentive expense ->
 *   cash (ledger key `dividend:release:<id>`) and the `claimed` status in one transaction, so a
 *   repeated or racing claim finds it claimed (409) and moves nothing;
 * - a record not claimed within COFFER_DIVIDEND_CLAIM_DAYS of its publication expires and is
 *   never paid (the `dividend-expiry` job writes the status; reads answer `expired` already).
 */
import { DateTime } from 'luxon';
import type {
  AdminDividendListData,
  AiIncomeData,
  AiInfoData,
  AiReceiveData,
  AiReceiveParams,
  Dividend,
  DividendPublishParams,
  DividendReleaseRecord,
  DividendReleaseStatus,
} from '../../contract/api/dividend.js';
import { BodyCode } from '../../contract/codes.js';
import { MIN_VALID_HOSTING_USD } from '../../contract/constants.js';
import { isValidHosting, parseRate } from '../../contract/hosting-interest.js';
import { minor, moneyText, parseMoney } from '../../contract/money.js';
import type { RequestContext } from '../core/context.js';
import { BusinessError, invalidField } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { customerBook, platformBook } from '../ledger/books.js';
import { transfer, type TransferInput } from '../ledger/ledger.js';
import {
  expireReleases,
  findDividendByDay,
  hostingBalancesAt,
  insertDividend,
  insertReleases,
  listDividends,
  listReleases,
  lockReleasesForClaim,
  markReleaseClaimed,
  releasesByIds,
  releaseTotals,
  type DividendReleaseRow,
  type DividendRow,
} from '../repositories/dividend.repository.js';
import { insertIncome } from '../repositories/income.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { shareByRate, shareTotal } from './dividend-shares.js';
import { actorOf } from './operator.service.js';
import { notYourAccount, ownAccount } from './own-account.js';
import { ownAccountPage, pageById, type AccountPageParams } from './paging.js';
import { CoreService, type ServiceCore } from './service-core.js';
import { accountRowIds } from './records.js';

const DAY_MS = 24 * 3600 * 1000;

/** A release record on the wire; `now` given, one past its expiry reads `expired` already. */
export function toReleaseRecord(row: DividendReleaseRow, now?: Date): DividendReleaseRecord {
  const stored = row.status as DividendReleaseStatus; // a CHECK keeps it to the statuses
  const status =
    stored === 'to_be_claimed' && now !== undefined && row.expiresAt.getTime() <= now.getTime()
      ? 'expired'
      : stored;
  return {
    ...accountRowIds(row),
    dividendId: String(row.dividendId),
    day: row.day,
    balance: moneyText(row.balance),
    amount: moneyText(row.amount),
    status,
    expiresAt: row.expiresAt.toISOString(),
    claimedAt: row.claimedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toDividend = (row: DividendRow): Dividend => ({
  id: String(row.id),
  day: row.day,
  mode: row.mode === 'rate' ? 'rate' : 'total', // a CHECK keeps it to total or rate
  total: moneyText(row.total),
  rate: row.rate,
  eligibleBalance: moneyText(row.eligibleBalance),
  accounts: row.accounts,
  distributed: moneyText(row.distributed),
  residue: moneyText(row.residue),
  claimDays: row.claimDays,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
});

/** The ledger key of the transfer paying one record (its income line carries the same key). */
export const releaseKey = (id: number) => `dividend:release:${id}`;

export class DividendService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly timeZone: string,
    private readonly claimDays: number,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
  ) {
    super(core);
  }

  /**
   * Publishes the dividend of `day`: 400 on `day` while it has not ended, 409 when the day has a
   * dividend already or no account held valid hosting at its end, 400 on `total` (or `rate`) too
   * small to give any account a minor unit. Audited; all or nothing.
   */
  publish(ctx: RequestContext, params: DividendPublishParams): Promise<Dividend> {
    return this.commands.run(ctx, (tx) => this.publishIn(tx, actorOf(ctx), params));
  }

  /** Published dividends, newest first, for operators. Read-only. */
  async adminList(params: {
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<AdminDividendListData> {
    return pageById(params, (beforeId, limit) => listDividends(this.db, { beforeId, limit }), toDividend);
  }

  /** The account's claimable and claimed sums and the rules. Read-only. */
  async info(ctx: RequestContext, params: { accountId?: string | undefined }): Promise<AiInfoData> {
    const { accountId } = await ownAccount(this.db, ctx, params.accountId);
    const now = this.clock.now();
    const totals = await releaseTotals(this.db, accountId, now);
    return {
      accountId: String(accountId),
      claimable: moneyText(totals.claimable),
      claimableCount: totals.claimableCount,
      claimed: moneyText(totals.claimed),
      expired: moneyText(totals.expired),
      nextExpiresAt: totals.nextExpiresAt?.toISOString() ?? null,
      rules: {
        validHostingThreshold: MIN_VALID_HOSTING_USD,
        claimDays: this.claimDays,
        timeZone: this.timeZone,
      },
      asOf: now.toISOString(),
    };
  }

  /** The account's release records, newest first, of one status (as it stands now) when given. Read-only. */
  async releases(
    ctx: RequestContext,
    params: AccountPageParams<DividendReleaseStatus>,
  ): Promise<AiIncomeData> {
    const now = this.clock.now();
    return this.reads.read(ctx.caller, (db) =>
      ownAccountPage(
        db,
        ctx,
        params,
        (db, page) => listReleases(db, { ...page, status: params.status, now }),
        (row) => toReleaseRecord(row, now),
      ),
    );
  }

  /**
   * Claims record `id` of the account, or every record of it still to be claimed: each paid to
   * the account's cash once. 403 naming `id` for a record not the account's (or none), 409 when
   * it was claimed already or expired, or when there is nothing to claim.
   */
  receive(ctx: RequestContext, params: AiReceiveParams): Promise<AiReceiveData> {
    return this.commands.run(ctx, async (tx) => {
      const { accountId, userId } = await ownAccount(tx, ctx, params.accountId);
      const now = this.clock.now();
      const id = params.id === undefined ? undefined : /^\d{1,15}$/.test(params.id) ? Number(params.id) : -1;
      const locked = id === -1 ? [] : await lockReleasesForClaim(tx, accountId, id);
      const open = (row: DividendReleaseRow) =>
        row.status === 'to_be_claimed' && row.expiresAt.getTime() > now.getTime();
      if (id !== undefined) {
        const [row] = locked;
        if (!row) throw notYourAccount('id');
        if (row.status === 'claimed')
          throw new BusinessError(BodyCode.conflict, 'server.dividend_already_claimed', {}, { field: 'id' });
        if (!open(row))
          throw new BusinessError(
            BodyCode.conflict,
            'server.dividend_expired',
            { expiresAt: row.expiresAt.toISOString() },
            { field: 'id', expiresAt: row.expiresAt.toISOString() },
          );
      }
      const claimable = locked.filter(open);
      if (claimable.length === 0)
        throw new BusinessError(BodyCode.conflict, 'server.dividend_nothing_to_claim');
      const arrivalDate = this.localDateOf(now);
      const legs: TransferInput[] = [];
      const incomeIds = new Map<number, number>();
      for (const row of claimable) {
        const key = releaseKey(row.id);
        const { row: line } = await insertIncome(tx, {
          accountId,
          userId,
          type: 'dividend',
          amount: row.amount,
          earningsDate: row.day,
          arrivalDate,
          status: 'arrived',
          key,
          transferKey: key,
          sourceTable: 'dividend_releases',
          sourceId: String(row.id),
          memo: null,
          arrivedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        incomeIds.set(row.id, line.id);
        legs.push({
          key,
          kind: 'dividend',
          asset: 'USDT',
          from: platformBook('incentive_expense'),
          to: customerBook(accountId, 'cash'),
          amount: minor(row.amount),
          ref: { table: 'dividend_releases', id: String(row.id) },
        });
      }
      await transfer(tx, legs, now);
      const items: DividendReleaseRecord[] = [];
      for (const row of claimable) {
        const claimed = await markReleaseClaimed(tx, {
          id: row.id,
          incomeId: incomeIds.get(row.id) ?? 0,
          at: now,
        });
        items.push(toReleaseRecord(claimed, now));
      }
      const amount = claimable.reduce((sum, row) => sum + row.amount, 0n);
      return { accountId: String(accountId), amount: moneyText(amount), items };
    });
  }

  /** The `dividend-expiry` job: every record past its expiry and still to be claimed becomes expired. */
  async expire(tx: Executor, now: Date): Promise<{ expired: number }> {
    return { expired: (await expireReleases(tx, now)).length };
  }

  /** A pull's loader of the `dividend_releases` collection (stored statuses). */
  static async recordsByIds(
    db: Executor,
    accountId: number,
    ids: number[],
  ): Promise<DividendReleaseRecord[]> {
    return (await releasesByIds(db, accountId, ids)).map((row) => toReleaseRecord(row));
  }

  private async publishIn(tx: Executor, actor: string, params: DividendPublishParams): Promise<Dividend> {
    const now = this.clock.now();
    const dayEnd = DateTime.fromISO(params.day, { zone: this.timeZone }).startOf('day').plus({ days: 1 });
    if (!dayEnd.isValid) throw invalidField('day');
    if (dayEnd.toMillis() > now.getTime())
      throw invalidField('day', 'server.dividend_day_not_over', { day: params.day, timeZone: this.timeZone });
    const dayPublished = () =>
      new BusinessError(
        BodyCode.conflict,
        'server.dividend_day_published',
        { day: params.day },
        { field: 'day' },
      );
    if (await findDividendByDay(tx, params.day)) throw dayPublished();
    const eligible = (await hostingBalancesAt(tx, dayEnd.toJSDate())).filter((account) =>
      isValidHosting(account.balance),
    );
    if (eligible.length === 0)
      throw new BusinessError(
        BodyCode.conflict,
        'server.dividend_no_eligible',
        { day: params.day },
        { field: 'day' },
      );
    const balances = eligible.map((account) => account.balance);
    const shares =
      params.rate !== undefined
        ? shareByRate(parseRate(params.rate), balances)
        : shareTotal(parseMoney(params.total ?? '0'), balances);
    if (shares.distributed === 0n)
      throw invalidField(params.rate !== undefined ? 'rate' : 'total', 'server.dividend_too_small');
    const expiresAt = new Date(now.getTime() + this.claimDays * DAY_MS);
    const row = await insertDividend(tx, {
      day: params.day,
      mode: params.rate !== undefined ? 'rate' : 'total',
      total: shares.total,
      rate: params.rate ?? null,
      eligibleBalance: balances.reduce((sum, balance) => sum + balance, 0n),
      accounts: shares.shares.filter((share) => share > 0n).length,
      distributed: shares.distributed,
      residue: shares.residue,
      claimDays: this.claimDays,
      expiresAt,
      createdAt: now,
      createdBy: actor,
    });
    if (!row) throw dayPublished(); // another publication of the day committed first
    if (shares.residue > 0n) {
      await transfer(
        tx,
        [
          {
            key: `dividend:${row.id}:residue`,
            kind: 'dividend',
            asset: 'USDT',
            from: platformBook('incentive_expense'),
            to: platformBook('rounding'),
            amount: minor(shares.residue),
            ref: { table: 'dividends', id: String(row.id) },
          },
        ],
        now,
      );
    }
    await insertReleases(
      tx,
      eligible.flatMap((account, index) => {
        const amount = shares.shares[index] ?? 0n;
        return amount > 0n
          ? [
              {
                dividendId: row.id,
                accountId: account.accountId,
                userId: account.userId,
                day: params.day,
                balance: account.balance,
                amount,
                status: 'to_be_claimed',
                expiresAt,
                createdAt: now,
                updatedAt: now,
              },
            ]
          : [];
      }),
      now,
    );
    const published = toDividend(row);
    await appendAudit(tx, {
      actor,
      action: 'dividend.publish',
      target: `dividends:${row.id}`,
      detail: {
        day: published.day,
        mode: published.mode,
        total: published.total,
        rate: published.rate,
        accounts: published.accounts,
        residue: published.residue,
      },
      at: now,
    });
    return published;
  }

  private localDateOf(at: Date): string {
    return DateTime.fromJSDate(at, { zone: this.timeZone }).toISODate() ?? '';
  }
}
