/**
 * A customer's hosting orders (docs/protocol.md section 20): the products on offer, create, add,
 * sub, redeem, and the lists of orders and their changes.
 *
 * What stays true:
 * - an order's principal is in the account's `hosting` book: every change of it (create, add,
 *   sub, redeem, maturity) is a row of the operator-log and ledger transfers keyed by that change
 *   (`hosting:<order>:create`, `:add:<change>`, `:sub:<change>`, `:redeem`, `:maturity`, each
 *   early exit's `...:penalty`), all in one transaction with the order row;
 * - every change locks the order row first, so two redeems, or a decrease racing a redeem, are
 *   decided one after the other: the second finds the order ended (409) and moves nothing;
 * - exactly once per Idempotency-Key (CommandRunner).
 */
import type {
  HostingChangeParams,
  HostingCommandData,
  HostingConfigData,
  HostingCreateParams,
  HostingOperatorLogData,
  HostingOrderListData,
  HostingOrderStatus,
  HostingRedeemParams,
} from '../../../contract/api/hosting.js';
import { BodyCode } from '../../../contract/codes.js';
import { MIN_VALID_HOSTING_USD } from '../../../contract/constants.js';
import { applyRate, parseRate } from '../../../contract/hosting-interest.js';
import { type Minor, minor, moneyText, parseMoney } from '../../../contract/money.js';
import { userIdOf, type RequestContext } from '../../core/context.js';
import { BusinessError, invalidField } from '../../core/errors.js';
import { rowIdOf } from '../../core/params.js';
import type { Executor } from '../../db/database.js';
import { customerBook } from '../../ledger/books.js';
import { transfer } from '../../ledger/ledger.js';
import {
  findOrder,
  findProduct,
  insertChange,
  insertOrder,
  listChanges,
  listOrders,
  listProducts,
  lockOrder,
  updateOrder,
  type HostingChangeRow,
  type HostingOrderRow,
} from '../../repositories/hosting.repository.js';
import { recordChanges } from '../../repositories/sync.repository.js';
import { CustomerService, type OrderSettings } from '../customer-service.js';
import { notYourAccount, ownAccount } from '../own-account.js';
import { ownAccountPage, pageById, type AccountPageParams } from '../paging.js';
import { closeOrder, exitLegs } from './close.js';
import { termOf } from './days.js';
import {
  changeChange,
  orderChange,
  ORDERS,
  productNames,
  toHostingChangeRecord,
  toHostingOrderRecord,
  toHostingProduct,
} from './records.js';

const orderEnded = () => new BusinessError(BodyCode.conflict, 'server.hosting_order_ended');
const orderMatured = () => new BusinessError(BodyCode.conflict, 'server.hosting_order_matured');
const earlyExitRefused = () => new BusinessError(BodyCode.conflict, 'server.hosting_early_exit_not_allowed');
const productUnknown = () =>
  new BusinessError(BodyCode.notFound, 'server.hosting_product_unknown', {}, { field: 'productId' });

export class HostingOrderService extends CustomerService<OrderSettings> {
  /** The active products (names in the request's language) and the valid-hosting threshold. Read-only. */
  async config(ctx: RequestContext): Promise<HostingConfigData> {
    const products = await listProducts(this.db, true);
    return {
      products: products.map((row) => toHostingProduct(row, ctx.locale)),
      validHostingThreshold: MIN_VALID_HOSTING_USD,
      timeZone: this.settings.timezone,
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
      const productId = rowIdOf(params.productId);
      const product = productId === null ? undefined : await findProduct(tx, productId);
      if (!product || product.status !== 'active') throw productUnknown();
      const amount = parseMoney(params.amount);
      if (amount < product.minimum || amount > product.maximum) {
        throw invalidField('amount', 'server.hosting_amount_range', {
          minimum: moneyText(product.minimum),
          maximum: moneyText(product.maximum),
        });
      }
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      const now = this.clock.now();
      const { interestFrom, endAt } = termOf(now, product.days, this.settings.timezone);
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
      const change = await deposit(tx, order, 'create', amount, now);
      return this.answer(tx, order, change, now);
    });
  }

  /**
   * Adds `amount` of the account's cash to an order in progress (before maturity): 403 for
   * another user's order, 409 when it ended or matured, 400 when it would pass the product's
   * maximum, 470 when the cash is short. The added amount earns from the minute it was added.
   */
  add(ctx: RequestContext, params: HostingChangeParams): Promise<HostingCommandData> {
    return this.changeOpen(ctx, params.orderId, async (tx, order, now) => {
      const amount = parseMoney(params.amount);
      const room = order.maximum - order.principal;
      if (amount > room) {
        throw invalidField('amount', 'server.hosting_add_above_maximum', {
          maximum: moneyText(order.maximum),
          room: moneyText(room > 0n ? room : 0n),
        });
      }
      const principal = minor(order.principal + amount);
      const change = await deposit(tx, order, 'add', amount, now);
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
    return this.changeOpen(ctx, params.orderId, async (tx, order, now) => {
      if (!order.earlyExit) throw earlyExitRefused();
      const amount = parseMoney(params.amount);
      if (amount > order.principal) {
        throw invalidField('amount', 'server.hosting_sub_too_much', {
          principal: moneyText(order.principal),
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
    params: AccountPageParams<HostingOrderStatus>,
  ): Promise<HostingOrderListData> {
    return this.reads.read(ctx.caller, async (db) => {
      const names = await productNames(db);
      return ownAccountPage(
        db,
        ctx,
        params,
        (db, page) => listOrders(db, { ...page, status: params.status }),
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
    params: AccountPageParams & { orderId?: string | undefined },
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

  /**
   * Runs a change of an order's principal (`add`, `sub`) in one command: on the caller's own order,
   * locked, still in progress and before its maturity (403, 409 otherwise).
   */
  private changeOpen(
    ctx: RequestContext,
    orderId: string,
    change: (tx: Executor, order: HostingOrderRow, now: Date) => Promise<HostingCommandData>,
  ): Promise<HostingCommandData> {
    return this.commands.run(ctx, async (tx) => {
      const order = await this.ownOrder(tx, ctx, orderId);
      const now = this.clock.now();
      assertOpen(order, now);
      return change(tx, order, now);
    });
  }

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
    const id = rowIdOf(orderId);
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
    const { order: saved, change } = await closeOrder(tx, order, kind, now, this.settings.timezone);
    return answerOf(tx, saved, change);
  }

  /** Records the sync changes of an order and its change, and answers the command. */
  private async answer(
    tx: Executor,
    order: HostingOrderRow,
    change: HostingChangeRow,
    now: Date,
  ): Promise<HostingCommandData> {
    await recordChanges(tx, [orderChange(order, now), changeChange(change, now)]);
    return answerOf(tx, order, change);
  }
}

/** A customer's command's answer: the order as saved, named by its product, and its change. */
async function answerOf(
  tx: Executor,
  order: HostingOrderRow,
  change: HostingChangeRow,
): Promise<HostingCommandData> {
  const product = await findProduct(tx, order.productId);
  return {
    order: toHostingOrderRecord(order, product?.names ?? {}),
    change: toHostingChangeRecord(change),
  };
}

/**
 * Moves `amount` of the account's cash into the order's `hosting` book (`trust_deposit`, keyed
 * `hosting:<order>:create` or `:add:<change>`) and writes the change: a new order's first, or an
 * addition to `order` (its row not yet updated). Answers the change.
 */
async function deposit(
  tx: Executor,
  order: HostingOrderRow,
  kind: 'create' | 'add',
  amount: Minor,
  now: Date,
): Promise<HostingChangeRow> {
  const { accountId } = order;
  const principalAfter = kind === 'create' ? amount : minor(order.principal + amount);
  const change = await insertChange(tx, {
    orderId: order.id,
    accountId,
    kind,
    amount,
    principalAfter,
    at: now,
  });
  const key = kind === 'create' ? `hosting:${order.id}:create` : `hosting:${order.id}:add:${change.id}`;
  const ref = { table: ORDERS, id: String(order.id) };
  const [from, to] = [customerBook(accountId, 'cash'), customerBook(accountId, 'hosting')];
  await transfer(tx, [{ key, kind: 'trust_deposit', asset: 'USDT', from, to, amount, ref }], now);
  return change;
}

/** Refuses a change of an order that ended (409) or reached its maturity (409: the job returns it). */
function assertOpen(order: HostingOrderRow, now: Date): void {
  if (order.status !== 'in_progress') throw orderEnded();
  if (now >= order.endAt) throw orderMatured();
}
