/**
 * Withdrawals: a customer's request, the operators' review, and how one ends.
 *
 * Rules that must stay true:
 * - `create` checks, in this order and before anything else: a trade password is set (300), an
 *   authenticator is bound (4900), the user has a withdrawal method (4901). Then the window (471
 *   with `data.nextOpen`), the 24-hour lock after a security change (403), the account and the
 *   method are the caller's, the method's cooldown, the minimum, the daily limit, the trade
 *   password, the one-time code (472), and last the hold of amount + fee (470).
 * - The user's row is locked first, so two withdrawals of one user are decided one after the
 *   other: the daily limit and the balance can never both be spent twice.
 * - Every withdrawal's `amount + fee` is held from its request until it ends: posted (the amount
 *   to the chain's omnibus or to bank payouts, the fee to fee revenue) on success, voided back to
 *   cash (`withdrawal_reversal`) when rejected or failed. Keys derive from the withdrawal's id.
 * - Every withdrawal is approved by a finance operator; above the review threshold by two
 *   different ones. A USDT one on a chain with a hot wallet is then sent by the send job
 *   (withdrawal-sender.ts); others are marked paid by an operator with a reference.
 */
import { DateTime } from 'luxon';
import {
  withdrawCreateParamsSchema,
  type AdminWithdrawal,
  type WithdrawIndexData,
  type WithdrawListData,
  type WithdrawalRecord,
  type WithdrawalStage,
  type WithdrawalStatus,
} from '../../contract/api/withdraw.js';
import type { Chain } from '../../contract/constants.js';
import { WITHDRAWAL_WINDOW } from '../../contract/constants.js';
import { BodyCode } from '../../contract/codes.js';
import { formatMoney, type Minor, minor, moneyText, parseMoney } from '../../contract/money.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notFound, notLoggedIn } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { parseParams, rowIdOf } from '../core/params.js';
import { omnibusOf, platformBook, type BookRef } from '../ledger/books.js';
import { accountBalances, hold, postHold, voidHold } from '../ledger/ledger.js';
import { appendAudit, operatorEmails } from '../repositories/operator.repository.js';
import { findPaymentMethod, paymentMethodsOf } from '../repositories/payment.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import { findUserById, lockUser } from '../repositories/user.repository.js';
import {
  insertWithdrawal,
  listWithdrawals,
  lockWithdrawal,
  updateWithdrawal,
  withdrawalsOfAccount,
  withdrawnOn,
  type WithdrawalRow,
} from '../repositories/withdraw.repository.js';
import { loadWorkCalendar } from './calendar.service.js';
import { actorOf, operatorIdOfActor } from './operator.service.js';
import { ownAccount } from './own-account.js';
import { ownAccountPage, pageById, type AccountPageParams } from './paging.js';
import { toWithdrawalRecord } from './records.js';
import { isRealNameApproved } from './identity.service.js';
import {
  authenticatorNotBound,
  tradePasswordNotSet,
  withdrawalsLockedError,
  type SecurityService,
} from './security.service.js';
import { withdrawalWindow } from './withdrawal-window.js';
import { silentNotifier, type UserNotifier } from './user-notifier.js';
import { CoreService, type ServiceCore } from './service-core.js';

export interface WithdrawSettings {
  fee: string;
  minimum: string;
  dailyLimit: string;
  reviewAbove: string;
  unverifiedDaily: string;
}

/** 601: past what a user without an approved real name may withdraw in a business day. */
const realNameRequired = (limit: Minor, used: bigint) =>
  new BusinessError(BodyCode.realNameRequired, 'server.real_name_required', {
    limit: formatMoney(limit),
    remaining: moneyText(used >= limit ? 0n : limit - used),
  });

const noMethod = () => new BusinessError(BodyCode.noWithdrawalMethod, 'server.no_withdrawal_method');
const notAwaiting = () => new BusinessError(BodyCode.conflict, 'server.withdraw_not_open_for_this');

/** 471 with the next opening, in the business time zone for the message and in UTC in `data`. */
function windowClosed(nextOpen: Date | null, timeZone: string): BusinessError {
  const time = nextOpen
    ? DateTime.fromJSDate(nextOpen, { zone: timeZone }).toFormat('yyyy-MM-dd HH:mm')
    : '-';
  return new BusinessError(
    BodyCode.outsideWithdrawalWindow,
    'server.withdraw_window_closed',
    { time, zone: timeZone, opens: WITHDRAWAL_WINDOW.opens, closes: WITHDRAWAL_WINDOW.closes },
    { nextOpen: nextOpen?.toISOString() ?? null },
  );
}

const changeOf = (row: WithdrawalRow, at: Date) => ({
  collection: 'withdrawals',
  scopeId: row.accountId,
  recordId: String(row.id),
  deleted: false,
  at,
});

/** The operators' e-mails by id, and the confirmations each chain's send job waits for. */
export interface AdminWithdrawalContext {
  emails: ReadonlyMap<number, string>;
  sentByJob: ReadonlyMap<string, number>;
}

/** The operator ids among a withdrawal's approvers (for their e-mails). */
const approverIdsOf = (rows: WithdrawalRow[]): number[] => [
  ...new Set(
    rows
      .flatMap((row) => [row.firstApprovedBy, row.secondApprovedBy])
      .map((actor) => (actor === null ? null : operatorIdOfActor(actor)))
      .filter((id) => id !== null),
  ),
];

export function toAdminWithdrawal(row: WithdrawalRow, context: AdminWithdrawalContext): AdminWithdrawal {
  const approvedBy = [row.firstApprovedBy, row.secondApprovedBy].filter((name) => name !== null);
  const required = row.network === null ? undefined : context.sentByJob.get(row.network);
  // Only the send job records `sentAt` with the hash; it settles a withdrawal only at `required`.
  const sent = row.sentAt !== null && row.txHash !== null && required !== undefined;
  return {
    ...toWithdrawalRecord(row),
    cardNumber: row.cardNumber,
    userId: String(row.userId),
    holderName: row.holderName,
    branch: row.branch,
    approvalsNeeded: row.approvalsNeeded,
    approvedBy,
    approvals: approvedBy.map((by) => {
      const id = operatorIdOfActor(by);
      return { by, email: id === null ? null : (context.emails.get(id) ?? null) };
    }),
    confirmations: sent
      ? { required, reached: row.stage === 'paid' || row.stage === 'failed', seen: row.confirmations }
      : null,
    reviewedBy: row.reviewedBy,
    nonce: row.nonce,
  };
}

/** Where a withdrawal's amount goes when it is paid: the chain's omnibus, or bank payouts. */
export function payoutBookOf(row: WithdrawalRow): BookRef {
  return row.kind === 'bank' ? platformBook('bank_payouts') : omnibusOf(row.network as Chain); // a CHECK keeps network to CHAINS for chain rows
}

/**
 * Ends a pending withdrawal as paid in `tx`: the held amount goes to `payoutBookOf`, the fee to
 * fee revenue, and the row becomes `success`. Idempotent per withdrawal (the keys say so).
 */
export async function settleWithdrawal(
  tx: Executor,
  row: WithdrawalRow,
  change: { reference?: string | null; reviewedBy?: string },
  now: Date,
): Promise<WithdrawalRow> {
  if (row.holdId === null) throw new Error(`withdrawal ${row.id} has no hold`);
  const ref = { table: 'withdrawals', id: String(row.id) };
  await postHold(
    tx,
    {
      holdId: row.holdId,
      key: `withdrawal:${row.id}:paid`,
      to: payoutBookOf(row),
      kind: 'withdrawal',
      amount: minor(row.amount),
      ref,
    },
    now,
  );
  if (row.fee > 0n) {
    await postHold(
      tx,
      {
        holdId: row.holdId,
        key: `withdrawal:${row.id}:fee`,
        to: platformBook('fee_revenue'),
        kind: 'fee',
        amount: minor(row.fee),
        ref,
      },
      now,
    );
  }
  return endWithdrawal(tx, row, { status: 'success', stage: 'paid', ...change }, now);
}

/** Ends a pending withdrawal as failed or rejected in `tx`: the hold goes back to cash. */
export async function releaseWithdrawal(
  tx: Executor,
  row: WithdrawalRow,
  change: { stage: 'rejected' | 'failed'; reason: string; reviewedBy?: string },
  now: Date,
): Promise<WithdrawalRow> {
  if (row.holdId === null) throw new Error(`withdrawal ${row.id} has no hold`);
  await voidHold(
    tx,
    {
      holdId: row.holdId,
      key: `withdrawal:${row.id}:reversal`,
      kind: 'withdrawal_reversal',
      ref: { table: 'withdrawals', id: String(row.id) },
    },
    now,
  );
  return endWithdrawal(tx, row, { status: 'failed', ...change }, now);
}

/** Writes a withdrawal's end (`change`, completed at `now`) in `tx` and records it for sync. */
async function endWithdrawal(
  tx: Executor,
  row: WithdrawalRow,
  change: Partial<WithdrawalRow>,
  now: Date,
): Promise<WithdrawalRow> {
  const saved = await updateWithdrawal(tx, row.id, { ...change, completedAt: now, updatedAt: now });
  await recordChange(tx, changeOf(saved, now));
  return saved;
}

export class WithdrawService extends CoreService {
  readonly #fee: Minor;
  readonly #minimum: Minor;
  readonly #dailyLimit: Minor;
  readonly #reviewAbove: Minor;
  readonly #unverifiedDaily: Minor;

  constructor(
    core: ServiceCore,
    private readonly security: SecurityService,
    private readonly timeZone: string,
    settings: WithdrawSettings,
    /**
     * Networks whose approved withdrawals the send job sends, each with the confirmations it
     * waits for; others are paid by an operator.
     */
    private readonly sentByJob: ReadonlyMap<string, number>,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
    /** Tells the customer, after commit, that an operator paid or rejected their withdrawal. */
    private readonly notifier: UserNotifier = silentNotifier,
  ) {
    super(core);
    this.#fee = parseMoney(settings.fee);
    this.#minimum = parseMoney(settings.minimum);
    this.#dailyLimit = parseMoney(settings.dailyLimit);
    this.#reviewAbove = parseMoney(settings.reviewAbove);
    this.#unverifiedDaily = parseMoney(settings.unverifiedDaily);
  }

  /** The local date in the business time zone (the daily limit counts per date). */
  #businessDate(now: Date): string {
    return DateTime.fromJSDate(now, { zone: this.timeZone }).toISODate() ?? '';
  }

  async #window(db: Executor, now: Date) {
    return withdrawalWindow(now, this.timeZone, await loadWorkCalendar(db));
  }

  /** What a withdrawal from the account would cost and allow now. Read-only. */
  async index(
    ctx: RequestContext,
    params: { accountId?: string | undefined; methodId?: string | undefined },
  ): Promise<WithdrawIndexData> {
    const now = this.clock.now();
    const { accountId, userId } = await ownAccount(this.db, ctx, params.accountId);
    const [balances, used, window, lockedUntil, user, methods, realNameApproved] = await Promise.all([
      accountBalances(this.db, [accountId]),
      withdrawnOn(this.db, userId, this.#businessDate(now)),
      this.#window(this.db, now),
      this.security.withdrawalsLockedUntil(this.db, userId),
      findUserById(this.db, userId),
      paymentMethodsOf(this.db, userId),
      isRealNameApproved(this.db, userId),
    ]);
    const available = balances.get(accountId)?.USDT.cash ?? minor(0n);
    const remaining = used >= this.#dailyLimit ? 0n : this.#dailyLimit - used;
    const spendable = available > this.#fee ? available - this.#fee : 0n;
    const method = methods.find((candidate) => String(candidate.id) === params.methodId);
    // Another user's method is refused as in `create`; one deleted or unknown is shown as none.
    if (!method && params.methodId !== undefined) await refuseOthersMethod(this.db, params.methodId);
    return {
      accountId: String(accountId),
      asset: 'USDT',
      available: formatMoney(available),
      fee: formatMoney(this.#fee),
      minimum: formatMoney(this.#minimum),
      dailyLimit: formatMoney(this.#dailyLimit),
      dailyRemaining: moneyText(remaining),
      realNameApproved,
      unverifiedDailyLimit: formatMoney(this.#unverifiedDaily),
      maximum: moneyText(spendable < remaining ? spendable : remaining),
      reviewAbove: formatMoney(this.#reviewAbove),
      window: {
        opens: WITHDRAWAL_WINDOW.opens,
        closes: WITHDRAWAL_WINDOW.closes,
        timeZone: this.timeZone,
        open: window.open,
        nextOpen: window.nextOpen?.toISOString() ?? null,
        closesAt: window.closesAt?.toISOString() ?? null,
      },
      lockedUntil: lockedUntil !== null && lockedUntil > now ? lockedUntil.toISOString() : null,
      tradePasswordSet: (user?.tradePasswordHash ?? null) !== null,
      authenticatorBound: (user?.authenticatorSecret ?? null) !== null,
      method: method
        ? { id: String(method.id), usable: method.usableAt <= now, usableAt: method.usableAt.toISOString() }
        : null,
      serverTime: now.toISOString(),
    };
  }

  /** A customer's withdrawal request (the checks and their order: see the file's comment). */
  create(ctx: RequestContext, raw: Record<string, unknown>): Promise<WithdrawalRecord> {
    return this.commands.run(ctx, async (tx) => {
      const userId = userIdOf(ctx);
      const user = await lockUser(tx, userId);
      if (!user) throw notLoggedIn();
      if (user.tradePasswordHash === null) throw tradePasswordNotSet();
      if (user.authenticatorSecret === null) throw authenticatorNotBound();
      const methods = await paymentMethodsOf(tx, userId);
      if (methods.length === 0) throw noMethod();

      const params = parseParams(withdrawCreateParamsSchema, raw);
      const now = this.clock.now();
      const window = await this.#window(tx, now);
      if (!window.open) throw windowClosed(window.nextOpen, this.timeZone);
      const lockedUntil = await this.security.withdrawalsLockedUntil(tx, userId);
      if (lockedUntil !== null && lockedUntil > now) throw withdrawalsLockedError(lockedUntil, this.timeZone);
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      const method = methods.find((candidate) => String(candidate.id) === params.methodId);
      if (!method) {
        await refuseOthersMethod(tx, params.methodId);
        throw invalidField('methodId', 'server.method_unknown');
      }
      if (method.usableAt > now) {
        const time = DateTime.fromJSDate(method.usableAt, { zone: this.timeZone }).toFormat(
          'yyyy-MM-dd HH:mm',
        );
        throw invalidField('methodId', 'server.method_cooling_down', { time, zone: this.timeZone });
      }
      const amount = parseMoney(params.amount);
      if (amount < this.#minimum)
        throw invalidField('amount', 'server.withdraw_below_minimum', {
          minimum: formatMoney(this.#minimum),
        });
      const businessDate = this.#businessDate(now);
      const used = await withdrawnOn(tx, userId, businessDate);
      if (used + amount > this.#dailyLimit) {
        const remaining = used >= this.#dailyLimit ? 0n : this.#dailyLimit - used;
        throw invalidField('amount', 'server.withdraw_daily_limit', {
          limit: formatMoney(this.#dailyLimit),
          remaining: moneyText(remaining),
        });
      }
      if (used + amount > this.#unverifiedDaily && !(await isRealNameApproved(tx, userId)))
        throw realNameRequired(this.#unverifiedDaily, used);
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      await this.security.verifyAuthenticatorCode(tx, userId, params.googleCode);

      const row = await insertWithdrawal(tx, {
        userId,
        accountId,
        methodId: method.id,
        kind: method.kind === 'bank' ? 'bank' : 'chain',
        network: method.network,
        address: method.address,
        bankName: method.bankName,
        cardNumber: method.cardNumber,
        holderName: method.holderName,
        branch: method.branch,
        amount,
        fee: this.#fee,
        status: 'pending',
        stage: 'awaiting_review',
        approvalsNeeded: amount > this.#reviewAbove ? 2 : 1,
        businessDate,
        createdAt: now,
        updatedAt: now,
      });
      const held = await hold(
        tx,
        {
          key: `withdrawal:${row.id}`,
          accountId,
          asset: 'USDT',
          kind: 'withdrawal',
          amount: minor(amount + this.#fee),
          ref: { table: 'withdrawals', id: String(row.id) },
        },
        now,
      );
      const saved = await updateWithdrawal(tx, row.id, { holdId: held.id });
      await recordChange(tx, changeOf(saved, now));
      return toWithdrawalRecord(saved);
    });
  }

  /** The account's withdrawals, newest first. */
  list(ctx: RequestContext, params: AccountPageParams): Promise<WithdrawListData> {
    return this.reads.read(ctx.caller, (db) =>
      ownAccountPage(db, ctx, params, withdrawalsOfAccount, toWithdrawalRecord),
    );
  }

  // ---- operators ----

  /** Every withdrawal, newest first; `stage: awaiting_review` is the review queue. */
  async adminList(params: {
    status?: WithdrawalStatus | undefined;
    stage?: WithdrawalStage | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<{ items: AdminWithdrawal[]; nextCursor: string | null }> {
    let context: AdminWithdrawalContext = { emails: new Map(), sentByJob: this.sentByJob };
    return pageById(
      params,
      async (beforeId, limit) => {
        const rows = await listWithdrawals(this.db, {
          status: params.status,
          stage: params.stage,
          beforeId,
          limit,
        });
        context = { ...context, emails: await operatorEmails(this.db, approverIdsOf(rows)) };
        return rows;
      },
      (row) => toAdminWithdrawal(row, context),
    );
  }

  approve(ctx: RequestContext, params: { id: string }): Promise<AdminWithdrawal> {
    return this.commands.run(ctx, (tx) => this.approveIn(tx, actorOf(ctx), params.id));
  }

  /** Rejects a pending withdrawal (the hold returns); the customer is told once it committed. */
  reject(ctx: RequestContext, params: { id: string; reason: string }): Promise<AdminWithdrawal> {
    return this.#closeAndTell(ctx, params.id, 'withdrawal_failed', (tx, row, actor) =>
      this.rejectIn(tx, row, actor, params.reason),
    );
  }

  /** Marks an approved withdrawal paid by hand; the customer is told once it committed. */
  paid(ctx: RequestContext, params: { id: string; reference: string }): Promise<AdminWithdrawal> {
    return this.#closeAndTell(ctx, params.id, 'withdrawal_succeeded', (tx, row, actor) =>
      this.paidIn(tx, row, actor, params.reference),
    );
  }

  /**
   * Runs an operator's closing decision on withdrawal `id` (locked first) in one command, then
   * tells the customer its outcome once it committed.
   */
  async #closeAndTell(
    ctx: RequestContext,
    id: string,
    kind: 'withdrawal_failed' | 'withdrawal_succeeded',
    close: (tx: Executor, row: WithdrawalRow, actor: string) => Promise<AdminWithdrawal>,
  ): Promise<AdminWithdrawal> {
    const saved = await this.commands.run(ctx, async (tx) =>
      close(tx, await this.#locked(tx, id), actorOf(ctx)),
    );
    this.notifier.notify(Number(saved.userId), { kind, amount: saved.amount });
    return saved;
  }

  async #locked(tx: Executor, id: string): Promise<WithdrawalRow> {
    const numeric = Number(id);
    const row = Number.isSafeInteger(numeric) ? await lockWithdrawal(tx, numeric) : undefined;
    if (!row) throw notFound();
    return row;
  }

  /** Audits an operator's decision on a withdrawal, in its transaction, and answers the saved row. */
  async #decided(
    tx: Executor,
    actor: string,
    action: string,
    saved: WithdrawalRow,
    detail: Record<string, unknown>,
    at: Date,
  ): Promise<AdminWithdrawal> {
    await appendAudit(tx, { actor, action, target: `withdrawal:${saved.id}`, detail, at });
    const emails = await operatorEmails(tx, approverIdsOf([saved]));
    return toAdminWithdrawal(saved, { emails, sentByJob: this.sentByJob });
  }

  private async approveIn(tx: Executor, actor: string, id: string): Promise<AdminWithdrawal> {
    const row = await this.#locked(tx, id);
    if (row.status !== 'pending' || row.stage !== 'awaiting_review') throw notAwaiting();
    if (row.firstApprovedBy === actor)
      throw new BusinessError(BodyCode.forbidden, 'server.withdraw_second_operator');
    const now = this.clock.now();
    const first = row.firstApprovedBy === null;
    const complete = (first ? 1 : 2) >= row.approvalsNeeded;
    const saved = await updateWithdrawal(tx, row.id, {
      ...(first ? { firstApprovedBy: actor } : { secondApprovedBy: actor }),
      ...(complete ? { stage: 'approved', approvedAt: now } : {}),
      updatedAt: now,
    });
    await recordChange(tx, changeOf(saved, now));
    const detail = { amount: moneyText(row.amount), approvalsNeeded: row.approvalsNeeded };
    return this.#decided(
      tx,
      actor,
      complete ? 'withdraw.approved' : 'withdraw.first_approval',
      saved,
      detail,
      now,
    );
  }

  private async rejectIn(
    tx: Executor,
    row: WithdrawalRow,
    actor: string,
    given: string,
  ): Promise<AdminWithdrawal> {
    if (row.status !== 'pending' || (row.stage !== 'awaiting_review' && row.stage !== 'approved'))
      throw notAwaiting();
    const reason = given.trim();
    if (reason === '') throw invalidField('reason', 'server.field_required');
    const now = this.clock.now();
    const saved = await releaseWithdrawal(tx, row, { stage: 'rejected', reason, reviewedBy: actor }, now);
    return this.#decided(tx, actor, 'withdraw.rejected', saved, { reason }, now);
  }

  /** A bank-card withdrawal (or a USDT one on a chain the job does not send) paid by hand. */
  private async paidIn(
    tx: Executor,
    row: WithdrawalRow,
    actor: string,
    given: string,
  ): Promise<AdminWithdrawal> {
    if (row.status !== 'pending' || row.stage !== 'approved') throw notAwaiting();
    if (row.kind === 'chain' && row.network !== null && this.sentByJob.has(row.network))
      throw new BusinessError(BodyCode.conflict, 'server.withdraw_sent_by_job');
    const reference = given.trim();
    if (reference === '') throw invalidField('reference', 'server.field_required');
    const now = this.clock.now();
    const saved = await settleWithdrawal(tx, row, { reference, reviewedBy: actor }, now);
    return this.#decided(tx, actor, 'withdraw.paid', saved, { reference }, now);
  }
}

/**
 * 403 naming `methodId` when it is another user's live withdrawal method (never told apart from
 * one of the caller's by anything else); returns when it names no live method at all.
 * @throws BusinessError forbidden.
 */
async function refuseOthersMethod(db: Executor, methodId: string): Promise<void> {
  const rowId = rowIdOf(methodId);
  const other = rowId === null ? undefined : await findPaymentMethod(db, rowId);
  if (other && other.deletedAt === null)
    throw new BusinessError(BodyCode.forbidden, 'server.forbidden', {}, { field: 'methodId' });
}
