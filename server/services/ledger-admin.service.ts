/**
 * Operators and the ledger: adjustments (kind `data_adjustment`, against the platform's
 * adjustments book), the four-eyes review of large ones, the invariant check, and platform
 * settings. Every action is audited in its own transaction.
 */
import type {
  Adjustment,
  LedgerAdjustParams,
  PlatformLimitsData,
  PlatformSettings,
} from '../../contract/api/admin.js';
import type { Asset } from '../../contract/api/account.js';
import { BodyCode } from '../../contract/codes.js';
import { type Minor, minor, moneyText, parseMoney, valueAt } from '../../contract/money.js';
import { recordJobRun } from '../repositories/job.repository.js';
import type { RequestContext } from '../core/context.js';
import { BusinessError, notFound } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { customerBook, platformBook } from '../ledger/books.js';
import { checkLedger, LEDGER_CHECK_JOB, type LedgerCheck } from '../ledger/invariants.js';
import { transfer } from '../ledger/ledger.js';
import { appendAudit } from '../repositories/operator.repository.js';
import {
  insertAdjustment,
  listAdjustments,
  lockAdjustment,
  reviewAdjustment,
  type AdjustmentRow,
} from '../repositories/settings.repository.js';
import { findAccount } from '../repositories/user.repository.js';
import { recentPriceVersions } from '../repositories/price.repository.js';
import { actorOf } from './operator.service.js';
import { pageById } from './paging.js';
import { rabPrice, readSettings, writeSettings } from './settings.service.js';
import { CoreService, type ServiceCore } from './service-core.js';
import { accountRowIds } from './records.js';

type SettingsChange = { rabPriceUsdt?: string | undefined; newcomerIncentive?: string | undefined };

const toAdjustment = (row: AdjustmentRow): Adjustment => ({
  ...accountRowIds(row),
  asset: row.asset as Asset, // the column holds only ASSETS
  amount: moneyText(row.amount),
  reason: row.reason,
  status: row.status,
  requestedBy: row.requestedBy,
  reviewedBy: row.reviewedBy,
  createdAt: row.createdAt.toISOString(),
  reviewedAt: row.reviewedAt?.toISOString() ?? null,
});

export class LedgerAdminService extends CoreService {
  readonly #reviewAbove: Minor;

  constructor(
    core: ServiceCore,
    reviewAbove: string,
    /** The fees and limits the server runs with, shown to operators as they are. */
    private readonly limits: PlatformLimitsData['limits'],
  ) {
    super(core);
    this.#reviewAbove = parseMoney(reviewAbove);
  }

  /**
   * Adjusts an account's cash by a signed amount with a reason. At or below the review
   * threshold (USDT; RAB valued at its price, or unit for unit while no price is set) it is
   * applied at once; above, it waits for a second finance operator (`pending_review`). A
   * negative amount larger than the available cash is 470.
   */
  adjust(ctx: RequestContext, params: LedgerAdjustParams) {
    return this.commands.run(ctx, (tx) => this.adjustIn(tx, actorOf(ctx), params));
  }

  private async adjustIn(tx: Executor, actor: string, params: LedgerAdjustParams) {
    const accountId = Number(params.accountId);
    if (!Number.isSafeInteger(accountId) || !(await findAccount(tx, accountId))) throw notFound();
    const amount = parseMoney(params.amount);
    const now = this.clock.now();
    const needsReview = (await this.valueInUsdt(tx, params.asset, amount)) > this.#reviewAbove;
    const row = await insertAdjustment(tx, {
      accountId,
      asset: params.asset,
      amount,
      reason: params.reason,
      status: needsReview ? 'pending_review' : 'applied',
      requestedBy: actor,
      reviewedBy: null,
      createdAt: now,
      reviewedAt: needsReview ? null : now,
    });
    if (!needsReview) await this.apply(tx, row, now);
    await appendAudit(tx, {
      actor,
      action: needsReview ? 'ledger.adjust.requested' : 'ledger.adjust.applied',
      target: `account:${accountId}`,
      detail: { adjustmentId: row.id, asset: params.asset, amount: params.amount, reason: params.reason },
      at: now,
    });
    return { id: String(row.id), status: row.status };
  }

  /** Applies a pending adjustment; only a finance operator other than the one who asked. */
  approve(ctx: RequestContext, params: { id: string }) {
    return this.commands.run(ctx, (tx) => this.reviewIn(tx, params.id, actorOf(ctx), 'applied'));
  }

  /** Rejects a pending adjustment (nothing moves); only a finance operator other than the one who asked. */
  reject(ctx: RequestContext, params: { id: string }) {
    return this.commands.run(ctx, (tx) => this.reviewIn(tx, params.id, actorOf(ctx), 'rejected'));
  }

  private async reviewIn(tx: Executor, id: string, actor: string, status: 'applied' | 'rejected') {
    const adjustmentId = Number(id);
    const row = Number.isSafeInteger(adjustmentId) ? await lockAdjustment(tx, adjustmentId) : undefined;
    if (!row) throw notFound();
    if (row.status !== 'pending_review')
      throw new BusinessError(BodyCode.conflict, 'server.adjust_not_pending');
    if (row.requestedBy === actor)
      throw new BusinessError(BodyCode.forbidden, 'server.adjust_second_operator');
    const now = this.clock.now();
    await reviewAdjustment(tx, row.id, { status, reviewedBy: actor, reviewedAt: now });
    if (status === 'applied') await this.apply(tx, row, now);
    await appendAudit(tx, {
      actor,
      action: status === 'applied' ? 'ledger.adjust.approved' : 'ledger.adjust.rejected',
      target: `account:${row.accountId}`,
      detail: { adjustmentId: row.id },
      at: now,
    });
    return { id: String(row.id), status };
  }

  /** Adjustments, newest first (the review queue with `status: pending_review`). */
  async list(params: {
    status?: AdjustmentRow['status'] | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  }) {
    return pageById(
      params,
      (beforeId, limit) => listAdjustments(this.db, { status: params.status, beforeId, limit }),
      toAdjustment,
    );
  }

  /** Checks the ledger now; the result is kept beside the job's runs, so the dashboard shows the latest. */
  async check(): Promise<LedgerCheck> {
    const now = this.clock.now();
    const result = await checkLedger(this.db, now);
    await recordJobRun(this.db, LEDGER_CHECK_JOB, `manual:${now.toISOString()}`, { ...result }, now);
    return result;
  }

  settings(): Promise<PlatformSettings> {
    return readSettings(this.db);
  }

  /** The RAB price's recent versions and the fees and limits the server runs with. */
  async limitsOverview(): Promise<PlatformLimitsData> {
    const versions = await recentPriceVersions(this.db, 'RAB', 20);
    return {
      rabPriceVersions: versions.map((row) => ({
        version: String(row.id),
        rabPriceUsdt: moneyText(row.price),
        at: row.createdAt.toISOString(),
      })),
      limits: this.limits,
    };
  }

  /** Sets the RAB price and/or the newcomer incentive, audited. */
  updateSettings(ctx: RequestContext, change: SettingsChange) {
    return this.commands.run(ctx, (tx) => writeSettings(tx, this.clock, actorOf(ctx), change));
  }

  private async apply(tx: Executor, row: AdjustmentRow, now: Date): Promise<void> {
    const amount = minor(row.amount < 0n ? -row.amount : row.amount);
    const account = customerBook(row.accountId, 'cash');
    const adjustments = platformBook('adjustments');
    await transfer(
      tx,
      [
        {
          key: `adjustment:${row.id}`,
          kind: 'data_adjustment',
          asset: row.asset as Asset, // the column holds only ASSETS
          from: row.amount > 0n ? adjustments : account,
          to: row.amount > 0n ? account : adjustments,
          amount,
          ref: { table: 'ledger_adjustments', id: String(row.id) },
        },
      ],
      now,
    );
  }

  private async valueInUsdt(db: Executor, asset: Asset, amount: Minor): Promise<Minor> {
    const magnitude = minor(amount < 0n ? -amount : amount);
    if (asset === 'USDT') return magnitude;
    const price = (await rabPrice(db)).value;
    return price === 0n ? magnitude : valueAt(magnitude, price);
  }
}
