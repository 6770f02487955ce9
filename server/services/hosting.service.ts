/**
 * Hosting (issue 12, docs/protocol.md section 20): products, orders and their daily interest.
 *
 * What stays true:
 * - an order's principal is in the account's `hosting` book: every change of it (create, add,
 *   sub, redeem, maturity) is a row of the operator-log and ledger transfers keyed by that change
 *   (`hosting:<order>:create`, `:add:<change>`, `:sub:<change>`, `:redeem`, `:maturity`, each
 *   early exit's `...:penalty`), all in one transaction with the order row;
 * - every change locks the order row first, so two redeems, or a decrease racing a redeem, are
 *   decided one after the other: the second finds the order ended (409) and moves nothing;
 * - interest for an (order, local day) is accrued once (hosting_accruals' primary key), paid by
 *   a transfer keyed `hosting:<order>:interest:<day>` with its income line, in the job's
 *   transaction: a re-run, or a run killed half-way (which commits nothing), never pays twice;
 *   every day not yet accrued is caught up, oldest first, on the next run;
 * - interest is paid in batches with no lock per line (the job's lines due at once through
 *   `creditIncomeMany`, a maturing order's pending lines through `arrivePendingIncomeMany`), so
 *   the locks the job's one transaction holds do not grow with the orders accruing (a day of
 *   10 000 orders paid one transfer at a time would fill PostgreSQL's lock table); only each
 *   maturity's principal is one transfer with its own lock;
 * - exactly once per Idempotency-Key for customers' commands (CommandRunner).
 */
import type {
  HostingChangeParams,
  HostingCommandData,
  HostingConfigData,
  HostingCreateParams,
  HostingOperatorLogData,
  HostingOrderListData,
  HostingOrderRecord,
  HostingOrderStatus,
  HostingRedeemParams,
  HostingChangeRecord,
  AdminHostingProduct,
  AdminHostingProductListData,
  ProductAddParams,
  ProductUpdateParams,
} from '../../contract/api/hosting.js';
import { productNamesOf } from '../../contract/api/hosting.js';
import { BodyCode } from '../../contract/codes.js';
import { MIN_VALID_HOSTING_USD } from '../../contract/constants.js';
import { applyRate, dayInterest, parseRate, principalMinutesOf } from '../../contract/hosting-interest.js';
import { formatMoney, minor, parseMoney, type Minor } from '../../contract/money.js';
import type { Clock } from '../clock.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField } from '../core/errors.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database, Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { customerBook, platformBook } from '../ledger/books.js';
import { transfer, type TransferInput } from '../ledger/ledger.js';
import {
  changesByIds,
  changesOfOrder,
  findOrder,
  findProduct,
  insertAccrual,
  insertChange,
  insertOrder,
  insertProduct,
  listChanges,
  listOrders,
  listProducts,
  lockOrder,
  lockOrdersDue,
  ordersByIds,
  setAccrualIncome,
  setAccrualIncomeMany,
  updateOrder,
  updateProduct,
  type HostingChangeRow,
  type HostingOrderRow,
  type HostingProductRow,
} from '../repositories/hosting.repository.js';
import { findIncomeByKey, pendingIncomeOf } from '../repositories/income.repository.js';
import { appendAudit } from '../repositories/operators.repository.js';
import { recordChanges } from '../repositories/sync.repository.js';
import { localDateOf, localDayOf, minuteOf, spansOf, startOfLocalDay, termOf } from './hosting-days.js';
import {
  toAdminHostingProduct,
  toHostingChangeRecord,
  toHostingOrderRecord,
  toHostingProduct,
} from './hosting-records.js';
import {
  arrivePendingIncomeMany,
  creditIncome,
  creditIncomeMany,
  type IncomeLine,
} from './income.service.js';
import { actorOf } from './operators.service.js';
import { notYourAccount, ownAccount } from './own-account.js';
import { pageById } from './paging.js';
import type { SecurityService } from './security.service.js';

/**
 * Orders the job locks at a time, within its one transaction. Every due order is locked before
 * the first transfer, so a customer's command (which locks its order, then ledger rows) can never
 * wait on the job in a cycle; only beyond this many due orders in one run would a second batch
 * lock orders after the first batch's transfers (PostgreSQL would then abort one side as a
 * deadlock, and the job runs again a minute later).
 */
const JOB_BATCH = 100_000;

/**
 * Interest lines the job collects before paying them in one batch (`creditIncomeMany`): memory,
 * not a limit (a batch takes no lock per line).
 */
const LINES_PER_PAYMENT = 5000;

const ORDERS = 'hosting_orders';

/** A wire id as a row id, or null when it cannot be one (letters, too long). */
const rowId = (id: string): number | null => (/^\d{1,15}$/.test(id) ? Number(id) : null);

const orderEnded = () => new BusinessError(BodyCode.conflict, 'server.hosting_order_ended');
const orderMatured = () => new BusinessError(BodyCode.conflict, 'server.hosting_order_matured');
const earlyExitRefused = () => new BusinessError(BodyCode.conflict, 'server.hosting_early_exit_not_allowed');
const productUnknown = () =>
  new BusinessError(BodyCode.notFound, 'server.hosting_product_unknown', {}, { field: 'productId' });

/** Test hooks inside a run (tests kill the job half-way with them). */
export interface AccrualHooks {
  /** Called after each order's work, inside the run's transaction. */
  afterOrder?(orderId: number): void | Promise<void>;
}

/** An interest line the job pays at once, and the accrual it pays. */
interface DueLine {
  line: IncomeLine;
  orderId: number;
  day: string;
}

/** What one run of the accrual job did (job_runs.detail). */
export interface AccrualReport {
  orders: number;
  days: number;
  /** Interest paid into cash now (daily payout, or lines of ended orders). */
  paid: string;
  /** Interest accrued as pending income (paid at maturity). */
  pending: string;
  matured: number;
}

export class HostingService {
  constructor(
    private readonly db: Database,
    private readonly commands: CommandRunner,
    private readonly clock: Clock,
    private readonly security: SecurityService,
    private readonly timezone: string,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
  ) {}

  // ---- customers ----

  /** The active products (names in the request's language) and the valid-hosting threshold. Read-only. */
  async config(ctx: RequestContext): Promise<HostingConfigData> {
    const products = await listProducts(this.db, true);
    return {
      products: products.map((row) => toHostingProduct(row, ctx.locale)),
      validHostingThreshold: MIN_VALID_HOSTING_USD,
      timeZone: this.timezone,
    };
  }

  /**
   * Hosts `amount` of the account's cash under an active product: 403 for an account not the
   * caller's, 404 for no such (active) product, 400 on `amount` outside the product's bounds,
   * then the trade password (300, 400, 423), then 470 when the cash is short. Cash -> hosting
   * (`trust_deposit`), a new order `in_progress`.
   */
  create(ctx: RequestContext, params: HostingCreateParams): Promise<HostingCommandData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      const productId = rowId(params.productId);
      const product = productId === null ? undefined : await findProduct(tx, productId);
      if (!product || product.status !== 'active') throw productUnknown();
      const amount = parseMoney(params.amount);
      if (amount < product.minimum || amount > product.maximum) {
        throw invalidField('amount', 'server.hosting_amount_range', {
          minimum: formatMoney(minor(product.minimum)),
          maximum: formatMoney(minor(product.maximum)),
        });
      }
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      const now = this.clock.now();
      const { interestFrom, endAt } = termOf(now, product.days, this.timezone);
      const order = await insertOrder(tx, {
        userId,
        accountId,
        productId: product.id,
        days: product.days,
        dailyRate: product.dailyRate,
        minimum: product.minimum,
        maximum: product.maximum,
        payout: product.payout,
        earlyExit: product.earlyExit,
        penaltyRate: product.penaltyRate,
        principal: amount,
        initialAmount: amount,
        status: 'in_progress',
        startAt: now,
        endAt,
        interestFrom,
        interestUntil: endAt,
        accruedUntil: interestFrom,
        createdAt: now,
        updatedAt: now,
      });
      const change = await insertChange(tx, {
        orderId: order.id,
        accountId,
        kind: 'create',
        amount,
        principalAfter: amount,
        at: now,
      });
      await transfer(
        tx,
        [
          {
            key: `hosting:${order.id}:create`,
            kind: 'trust_deposit',
            asset: 'USDT',
            from: customerBook(accountId, 'cash'),
            to: customerBook(accountId, 'hosting'),
            amount,
            ref: { table: ORDERS, id: String(order.id) },
          },
        ],
        now,
      );
      return this.answer(tx, order, change, now);
    });
  }

  /**
   * Adds `amount` of the account's cash to an order in progress (before maturity): 403 for
   * another user's order, 409 when it ended or matured, 400 when it would pass the product's
   * maximum, 470 when the cash is short. The added amount earns from the minute it was added.
   */
  add(ctx: RequestContext, params: HostingChangeParams): Promise<HostingCommandData> {
    return this.commands.run(ctx, async (tx) => {
      const order = await this.ownOrder(tx, ctx, params.orderId);
      const now = this.clock.now();
      assertOpen(order, now);
      const amount = parseMoney(params.amount);
      const room = order.maximum - order.principal;
      if (amount > room) {
        throw invalidField('amount', 'server.hosting_add_above_maximum', {
          maximum: formatMoney(minor(order.maximum)),
          room: formatMoney(minor(room > 0n ? room : 0n)),
        });
      }
      const principal = minor(order.principal + amount);
      const change = await insertChange(tx, {
        orderId: order.id,
        accountId: order.accountId,
        kind: 'add',
        amount,
        principalAfter: principal,
        at: now,
      });
      await transfer(
        tx,
        [
          {
            key: `hosting:${order.id}:add:${change.id}`,
            kind: 'trust_deposit',
            asset: 'USDT',
            from: customerBook(order.accountId, 'cash'),
            to: customerBook(order.accountId, 'hosting'),
            amount,
            ref: { table: ORDERS, id: String(order.id) },
          },
        ],
        now,
      );
      const saved = await updateOrder(tx, order.id, { principal, updatedAt: now });
      return this.answer(tx, saved, change, now);
    });
  }

  /**
   * Takes `amount` out of an order before maturity (an early exit): 409 when the product allows
   * none, or the order ended or matured; 400 when `amount` is above the principal. A penalty of
   * floor(amount × penaltyRate) goes to fee revenue, the rest to cash. When what would remain is
   * below the product's minimum, the whole order is redeemed instead (the change is a `redeem`).
   */
  sub(ctx: RequestContext, params: HostingChangeParams): Promise<HostingCommandData> {
    return this.commands.run(ctx, async (tx) => {
      const order = await this.ownOrder(tx, ctx, params.orderId);
      const now = this.clock.now();
      assertOpen(order, now);
      if (!order.earlyExit) throw earlyExitRefused();
      const amount = parseMoney(params.amount);
      if (amount > order.principal) {
        throw invalidField('amount', 'server.hosting_sub_too_much', {
          principal: formatMoney(minor(order.principal)),
        });
      }
      const remaining = minor(order.principal - amount);
      if (remaining < order.minimum) return this.close(tx, order, 'redeem', now);
      const penalty = applyRate(amount, parseRate(order.penaltyRate));
      const change = await insertChange(tx, {
        orderId: order.id,
        accountId: order.accountId,
        kind: 'sub',
        amount: minor(-amount),
        penalty,
        principalAfter: remaining,
        at: now,
      });
      await transfer(tx, exitLegs(order, `hosting:${order.id}:sub:${change.id}`, amount, penalty), now);
      const saved = await updateOrder(tx, order.id, {
        principal: remaining,
        penalty: order.penalty + penalty,
        updatedAt: now,
      });
      return this.answer(tx, saved, change, now);
    });
  }

  /**
   * Returns an order's whole principal to cash: before maturity an early exit (409 when the
   * product allows none; the penalty as for `sub`), at or after it the maturity itself (no
   * penalty). 409 when the order already ended. Interest pending arrival is paid now.
   */
  redeem(ctx: RequestContext, params: HostingRedeemParams): Promise<HostingCommandData> {
    return this.commands.run(ctx, async (tx) => {
      const order = await this.ownOrder(tx, ctx, params.orderId);
      const now = this.clock.now();
      if (order.status !== 'in_progress') throw orderEnded();
      if (now >= order.endAt) return this.close(tx, order, 'maturity', now);
      if (!order.earlyExit) throw earlyExitRefused();
      return this.close(tx, order, 'redeem', now);
    });
  }

  /** The account's orders, newest first, of one status when given. 403 for an account not the caller's. */
  async orders(
    ctx: RequestContext,
    params: {
      accountId?: string | undefined;
      status?: HostingOrderStatus | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<HostingOrderListData> {
    return this.reads.read(ctx.caller, async (db) => {
      const { accountId } = await ownAccount(db, ctx, params.accountId);
      const names = await productNames(db);
      return pageById(
        params,
        (beforeId, limit) => listOrders(db, { accountId, status: params.status, beforeId, limit }),
        (row) => toHostingOrderRecord(row, names.get(row.productId) ?? {}),
      );
    });
  }

  /**
   * The operator-log: changes of one order (`orderId`, 403 when not the caller's) or of an
   * account (`accountId`, default the default account), newest first.
   */
  async operatorLog(
    ctx: RequestContext,
    params: {
      orderId?: string | undefined;
      accountId?: string | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<HostingOperatorLogData> {
    return this.reads.read(ctx.caller, async (db) => {
      let accountId: number;
      let orderId: number | undefined;
      if (params.orderId !== undefined) {
        const order = await this.ownOrder(db, ctx, params.orderId, false);
        if (params.accountId !== undefined && params.accountId !== String(order.accountId))
          throw notYourAccount('orderId');
        accountId = order.accountId;
        orderId = order.id;
      } else {
        accountId = (await ownAccount(db, ctx, params.accountId)).accountId;
      }
      return pageById(
        params,
        (beforeId, limit) => listChanges(db, { accountId, orderId, beforeId, limit }),
        toHostingChangeRecord,
      );
    });
  }

  // ---- pulls ----

  /** The account's orders with these ids, as synced records. */
  static async orderRecordsByIds(
    db: Executor,
    accountId: number,
    ids: readonly number[],
  ): Promise<HostingOrderRecord[]> {
    const rows = await ordersByIds(db, accountId, ids);
    if (rows.length === 0) return [];
    const names = await productNames(db);
    return rows.map((row) => toHostingOrderRecord(row, names.get(row.productId) ?? {}));
  }

  /** The account's order changes with these ids, as synced records. */
  static async changeRecordsByIds(
    db: Executor,
    accountId: number,
    ids: readonly number[],
  ): Promise<HostingChangeRecord[]> {
    return (await changesByIds(db, accountId, ids)).map(toHostingChangeRecord);
  }

  // ---- operators ----

  async productList(ctx: RequestContext): Promise<AdminHostingProductListData> {
    return {
      items: (await listProducts(this.db, false)).map((row) => toAdminHostingProduct(row, ctx.locale)),
    };
  }

  /** Adds a product (audited). 400 on `name` naming no language, `maximum` below `minimum`. */
  addProduct(ctx: RequestContext, params: ProductAddParams): Promise<AdminHostingProduct> {
    return this.commands.run(ctx, (tx) => this.addProductIn(tx, actorOf(ctx), params, ctx));
  }

  /** Changes the fields given of a product (audited); orders already made keep their terms. 404 for no such product. */
  updateProduct(ctx: RequestContext, params: ProductUpdateParams): Promise<AdminHostingProduct> {
    return this.commands.run(ctx, (tx) => this.updateProductIn(tx, actorOf(ctx), params, ctx));
  }

  /** Stops offering a product (audited); its orders run on to maturity. 404 for no such product. */
  disableProduct(ctx: RequestContext, params: { id: string }): Promise<AdminHostingProduct> {
    return this.commands.run(ctx, (tx) =>
      this.updateProductIn(tx, actorOf(ctx), { id: params.id, status: 'disabled' }, ctx),
    );
  }

  /** `npm run admin -- hosting product add ...`, audited as `cli`. */
  addProductFromCli(params: ProductAddParams): Promise<AdminHostingProduct> {
    return this.db.transaction((tx) => this.addProductIn(tx, 'cli', params, null));
  }

  /** `npm run admin -- hosting product update|disable --id I ...`, audited as `cli`. */
  updateProductFromCli(params: ProductUpdateParams): Promise<AdminHostingProduct> {
    return this.db.transaction((tx) => this.updateProductIn(tx, 'cli', params, null));
  }

  /** Every product for the CLI's list. */
  async productsForCli(): Promise<AdminHostingProduct[]> {
    return (await listProducts(this.db, false)).map((row) => toAdminHostingProduct(row, 'en'));
  }

  private async addProductIn(
    tx: Executor,
    actor: string,
    params: ProductAddParams,
    ctx: RequestContext | null,
  ): Promise<AdminHostingProduct> {
    const names = productNamesOf(params.name);
    if (!names) throw invalidField('name', 'server.field_required');
    const minimum = parseMoney(params.minimum);
    const maximum = parseMoney(params.maximum);
    if (maximum < minimum) throw invalidField('maximum', 'server.hosting_bounds_invalid');
    const now = this.clock.now();
    const row = await insertProduct(tx, {
      names,
      days: params.days,
      dailyRate: params.dailyRate,
      minimum,
      maximum,
      payout: params.payout,
      earlyExit: params.earlyExit,
      penaltyRate: params.earlyExit ? (params.penaltyRate ?? '0') : '0',
      status: 'active',
      createdAt: now,
      updatedAt: now,
      updatedBy: actor,
    });
    await this.auditProduct(tx, actor, 'hosting.product_add', row, now);
    return toAdminHostingProduct(row, ctx?.locale ?? 'en');
  }

  private async updateProductIn(
    tx: Executor,
    actor: string,
    params: ProductUpdateParams,
    ctx: RequestContext | null,
  ): Promise<AdminHostingProduct> {
    const id = rowId(params.id);
    const current = id === null ? undefined : await findProduct(tx, id);
    if (!current) throw new BusinessError(BodyCode.notFound, 'server.not_found', {}, { field: 'id' });
    const names = params.name === undefined ? current.names : productNamesOf(params.name);
    if (!names) throw invalidField('name', 'server.field_required');
    const minimum = params.minimum === undefined ? current.minimum : parseMoney(params.minimum);
    const maximum = params.maximum === undefined ? current.maximum : parseMoney(params.maximum);
    if (maximum < minimum) throw invalidField('maximum', 'server.hosting_bounds_invalid');
    const earlyExit = params.earlyExit ?? current.earlyExit;
    const now = this.clock.now();
    const row = await updateProduct(tx, current.id, {
      names,
      days: params.days ?? current.days,
      dailyRate: params.dailyRate ?? current.dailyRate,
      minimum,
      maximum,
      payout: params.payout ?? current.payout,
      earlyExit,
      penaltyRate: earlyExit ? (params.penaltyRate ?? current.penaltyRate) : '0',
      status: params.status ?? current.status,
      updatedAt: now,
      updatedBy: actor,
    });
    if (!row) throw new Error(`hosting_products: product ${current.id} vanished`);
    const action = params.status === 'disabled' && Object.keys(params).length === 2 ? 'disable' : 'update';
    await this.auditProduct(tx, actor, `hosting.product_${action}`, row, now);
    return toAdminHostingProduct(row, ctx?.locale ?? 'en');
  }

  private async auditProduct(tx: Executor, actor: string, action: string, row: HostingProductRow, now: Date) {
    await appendAudit(tx, {
      actor,
      action,
      target: String(row.id),
      detail: {
        names: row.names,
        days: row.days,
        dailyRate: row.dailyRate,
        minimum: formatMoney(minor(row.minimum)),
        maximum: formatMoney(minor(row.maximum)),
        payout: row.payout,
        earlyExit: row.earlyExit,
        penaltyRate: row.penaltyRate,
        status: row.status,
      },
      at: now,
    });
  }

  // ---- the daily job ----

  /**
   * The accrual job's work at `now`, in `tx`: every order with a whole local day of interest not
   * yet accrued gets each such day, oldest first (a day missed while the server was down is
   * caught up); then each order in progress whose maturity has come returns its principal and
   * any interest pending arrival. Idempotent: what is done is never done again. Interest paid at
   * once goes out in batches of up to LINES_PER_PAYMENT lines, all in `tx`.
   */
  async runAccrual(tx: Executor, now: Date, hooks: AccrualHooks = {}): Promise<AccrualReport> {
    const dayStart = startOfLocalDay(now, this.timezone);
    const report = { orders: 0, days: 0, paid: 0n, pending: 0n, matured: 0 };
    const seen = new Set<number>();
    const due: DueLine[] = [];
    for (;;) {
      const locked = await lockOrdersDue(tx, { dayStart, now, limit: JOB_BATCH });
      const fresh = locked.filter((order) => !seen.has(order.id));
      if (fresh.length === 0) {
        if (locked.length > 0)
          throw new Error(`hosting accrual: orders ${locked.map((o) => o.id).join(', ')} stay due`);
        break;
      }
      for (const order of fresh) {
        seen.add(order.id);
        report.orders += 1;
        let current = await this.accrue(tx, order, dayStart, now, report, due);
        if (current.status === 'in_progress' && current.endAt <= now) {
          current = (await this.closeOrder(tx, current, 'maturity', now)).order;
          report.matured += 1;
        }
        if (due.length >= LINES_PER_PAYMENT) await payInterest(tx, due.splice(0), now);
        await hooks.afterOrder?.(order.id);
      }
    }
    await payInterest(tx, due.splice(0), now);
    return {
      orders: report.orders,
      days: report.days,
      paid: formatMoney(minor(report.paid)),
      pending: formatMoney(minor(report.pending)),
      matured: report.matured,
    };
  }

  /**
   * Accrues each whole local day of `order` before `dayStart` not yet accrued: a line pending
   * arrival is written now, a line paid at once is added to `due` (the caller pays it in `tx`).
   */
  private async accrue(
    tx: Executor,
    order: HostingOrderRow,
    dayStart: Date,
    now: Date,
    report: { days: number; paid: bigint; pending: bigint },
    due: DueLine[],
  ): Promise<HostingOrderRow> {
    if (!(order.accruedUntil < order.interestUntil && order.accruedUntil < dayStart)) return order;
    const steps = (await changesOfOrder(tx, order.id)).map((change) => ({
      at: change.at,
      principalAfter: change.principalAfter,
    }));
    const rate = parseRate(order.dailyRate);
    const ended = order.status !== 'in_progress';
    const today = localDateOf(now, this.timezone);
    let { accruedUntil, accrued, paid } = order;
    while (accruedUntil < order.interestUntil && accruedUntil < dayStart) {
      const day = localDayOf(accruedUntil, this.timezone);
      const until = day.end < order.interestUntil ? day.end : order.interestUntil;
      const principalMinutes = principalMinutesOf(spansOf(steps, day.start, until));
      const amount = dayInterest(principalMinutes, day.minutes, rate);
      const first = await insertAccrual(tx, {
        orderId: order.id,
        day: day.date,
        accountId: order.accountId,
        principalMinutes: principalMinutes.toString(),
        minutesOfDay: day.minutes,
        dailyRate: order.dailyRate,
        amount,
        createdAt: now,
      });
      accruedUntil = day.end;
      if (!first) continue; // accrued before: never twice
      report.days += 1;
      if (amount === 0n) continue;
      // Paid at once for a daily payout, and for an order that already ended (redeemed early).
      const payNow = order.payout === 'daily' || ended;
      const key = `hosting:${order.id}:interest:${day.date}`;
      const line: IncomeLine = {
        accountId: order.accountId,
        userId: order.userId,
        type: 'static',
        amount,
        earningsDate: day.date,
        arrivalDate: payNow ? today : localDateOf(order.endAt, this.timezone),
        status: payNow ? 'arrived' : 'pending_arrival',
        key,
        transferKey: key,
        from: 'interest_expense',
        ref: { table: ORDERS, id: String(order.id) },
      };
      accrued += amount;
      if (payNow) {
        due.push({ line, orderId: order.id, day: day.date });
        paid += amount;
        report.paid += amount;
      } else {
        // A pending line moves no money now (no transfer, no lock): written at once, so that a
        // maturity later in this run finds it.
        const written = await creditIncome(tx, line, now);
        await setAccrualIncome(tx, order.id, day.date, written.id);
        report.pending += amount;
      }
    }
    const saved = await updateOrder(tx, order.id, { accruedUntil, accrued, paid, updatedAt: now });
    await recordChanges(tx, [orderChange(saved, now)]);
    return saved;
  }

  // ---- inside ----

  /**
   * The order named by `orderId` when it is the caller's, locked when `lock` (every change locks
   * it first); 403 naming `orderId` otherwise (the same answer whether it is another user's or
   * does not exist, as for accounts).
   */
  private async ownOrder(
    db: Executor,
    ctx: RequestContext,
    orderId: string,
    lock = true,
  ): Promise<HostingOrderRow> {
    const userId = userIdOf(ctx);
    const id = rowId(orderId);
    const order = id === null ? undefined : lock ? await lockOrder(db, id) : await findOrder(db, id);
    if (!order || order.userId !== userId) throw notYourAccount('orderId');
    return order;
  }

  /** A customer's redeem or decrease-to-redeem: closes the order and answers the command. */
  private async close(
    tx: Executor,
    order: HostingOrderRow,
    kind: 'redeem' | 'maturity',
    now: Date,
  ): Promise<HostingCommandData> {
    const { order: saved, change } = await this.closeOrder(tx, order, kind, now);
    const product = await findProduct(tx, saved.productId);
    return {
      order: toHostingOrderRecord(saved, product?.names ?? {}),
      change: toHostingChangeRecord(change),
    };
  }

  /**
   * Ends an order (locked by the caller): the whole principal back to cash, less the penalty of
   * an early `redeem`; interest pending arrival paid now; status `expired`. Interest runs until
   * the maturity, or the redeem's minute (that day's part is accrued by the next run).
   */
  private async closeOrder(
    tx: Executor,
    order: HostingOrderRow,
    kind: 'redeem' | 'maturity',
    now: Date,
  ): Promise<{ order: HostingOrderRow; change: HostingChangeRow }> {
    const principal = minor(order.principal);
    const penalty = kind === 'redeem' ? applyRate(principal, parseRate(order.penaltyRate)) : minor(0n);
    const change = await insertChange(tx, {
      orderId: order.id,
      accountId: order.accountId,
      kind,
      amount: minor(-principal),
      penalty,
      principalAfter: 0n,
      at: now,
    });
    await transfer(tx, exitLegs(order, `hosting:${order.id}:${kind}`, principal, penalty), now);
    let paid = order.paid;
    const today = localDateOf(now, this.timezone);
    // Its lines pending arrival are paid in one batch: no lock per line (an order of a long term
    // paid at maturity has one line a day).
    const pending = await pendingIncomeOf(tx, { table: ORDERS, id: String(order.id) });
    for (const line of await arrivePendingIncomeMany(tx, pending, 'interest_expense', today, now))
      paid += line.amount;
    const saved = await updateOrder(tx, order.id, {
      principal: 0n,
      status: 'expired',
      closeReason: kind === 'redeem' ? 'redeemed' : 'matured',
      interestUntil: kind === 'redeem' ? minuteOf(now) : order.endAt,
      penalty: order.penalty + penalty,
      paid,
      closedAt: now,
      updatedAt: now,
    });
    await recordChanges(tx, [orderChange(saved, now), changeChange(change, now)]);
    return { order: saved, change };
  }

  /** Records the sync changes of an order and its change, and answers the command. */
  private async answer(
    tx: Executor,
    order: HostingOrderRow,
    change: HostingChangeRow,
    now: Date,
  ): Promise<HostingCommandData> {
    await recordChanges(tx, [orderChange(order, now), changeChange(change, now)]);
    const product = await findProduct(tx, order.productId);
    return {
      order: toHostingOrderRecord(order, product?.names ?? {}),
      change: toHostingChangeRecord(change),
    };
  }
}

/**
 * Pays the job's interest lines due at once, in `tx`: each line and its transfer (interest
 * expense -> the account's cash) in a few statements per batch, with no lock per line; then names
 * each accrual's line. A line whose key exists already (written before its accrual, which the
 * job never does) is named as it is, and not paid again.
 */
async function payInterest(tx: Executor, due: readonly DueLine[], now: Date): Promise<void> {
  if (due.length === 0) return;
  const written = await creditIncomeMany(
    tx,
    'interest_expense',
    due.map(({ line }) => line),
    now,
  );
  const ids = new Map(written.map((row) => [row.transferKey, row.id]));
  const named: { orderId: number; day: string; incomeId: number }[] = [];
  for (const { line, orderId, day } of due) {
    const id = ids.get(line.transferKey) ?? (await findIncomeByKey(tx, line.key))?.id;
    if (id === undefined) throw new Error(`hosting accrual: income ${line.key} vanished`);
    named.push({ orderId, day, incomeId: id });
  }
  await setAccrualIncomeMany(tx, named);
}

/** Refuses a change of an order that ended (409) or reached its maturity (409: the job returns it). */
function assertOpen(order: HostingOrderRow, now: Date): void {
  if (order.status !== 'in_progress') throw orderEnded();
  if (now >= order.endAt) throw orderMatured();
}

/** The legs of principal leaving an order: the penalty to fee revenue, the rest to cash. */
function exitLegs(order: HostingOrderRow, key: string, amount: Minor, penalty: Minor): TransferInput[] {
  const ref = { table: ORDERS, id: String(order.id) };
  const hosting = customerBook(order.accountId, 'hosting');
  const legs: TransferInput[] = [];
  if (penalty > 0n) {
    legs.push({
      key: `${key}:penalty`,
      kind: 'fee',
      asset: 'USDT',
      from: hosting,
      to: platformBook('fee_revenue'),
      amount: penalty,
      ref,
    });
  }
  if (amount - penalty > 0n) {
    legs.push({
      key,
      kind: 'trust_withdrawal',
      asset: 'USDT',
      from: hosting,
      to: customerBook(order.accountId, 'cash'),
      amount: minor(amount - penalty),
      ref,
    });
  }
  return legs;
}

const orderChange = (order: HostingOrderRow, at: Date) => ({
  collection: 'hosting_orders',
  scopeId: order.accountId,
  recordId: String(order.id),
  deleted: false,
  at,
});

const changeChange = (change: HostingChangeRow, at: Date) => ({
  collection: 'hosting_changes',
  scopeId: change.accountId,
  recordId: String(change.id),
  deleted: false,
  at,
});

/** Every product's names by id (a small table: operators' products). */
async function productNames(db: Executor): Promise<Map<number, Record<string, string>>> {
  return new Map((await listProducts(db, false)).map((row) => [row.id, row.names]));
}
