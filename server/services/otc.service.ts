/**
 * The OTC market (docs/protocol.md section 24): customers list buy and sell orders for
 * RAB priced in USDT and take each other's orders.
 *
 * What stays true:
 * - an order's escrow is one ledger hold (`otc:order:<id>`, kind otc_list_buy of USDT or
 *   otc_list_sell of RAB) listed in the order's own transaction; every fill posts its part of the
 *   hold and moves the taker's side in one transaction; a cancel voids what the hold still holds
 *   (`otc:order:<id>:cancel`, kind otc_cancel). So for every order, held + released + posted =
 *   escrow, and nothing is released twice;
 * - every take and cancel locks the order's row first (SELECT ... FOR UPDATE): they run one at a
 *   time per order, and each sees what the one before it left (a take of the last unit answers
 *   409 to the second taker; a cancel after the last fill answers 409 and releases nothing);
 * - the figures are exact integers (contract/otc-quote.ts): the fills of an order add up to the
 *   USDT of its volume floored, and the maker's fee on it, to the minor unit;
 * - a listing's price lies in the band around the guide price, read under the price's shared
 *   lock (as exchanges do), so a price change racing a listing is decided before or after it;
 * - exactly once per Idempotency-Key (CommandRunner).
 */
import type { Asset, RecordKind } from '../../contract/api/account.js';
import type {
  OtcBookData,
  OtcBookOrder,
  OtcBookRecord,
  OtcInfoData,
  OtcListParams,
  OtcMyListData,
  OtcOrder,
  OtcTakeData,
  OtcTakeParams,
} from '../../contract/api/otc.js';
import { BodyCode } from '../../contract/codes.js';
import { parseFeeRate } from '../../contract/exchange-quote.js';
import { formatMoney, type Minor, minor, moneyText, parseMoney } from '../../contract/money.js';
import {
  bandOf,
  completionRate,
  escrowOf,
  fillOf,
  OTC_LEG_MAX,
  withinBand,
  type OtcSide,
  type OtcStatus,
} from '../../contract/otc-quote.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notFound } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { customerBook, platformBook, type BookRef } from '../ledger/books.js';
import { hold, postHold, transfer, voidHold, type TransferInput } from '../ledger/ledger.js';
import {
  findOtcOrder,
  insertOtcFill,
  insertOtcOrder,
  listAccountOtcOrders,
  listOpenOtcOrders,
  lockOtcOrder,
  lockOtcSettlement,
  openOtcOrdersByIds,
  otcOrdersByIds,
  updateOtcOrder,
  type OtcOrderRow,
} from '../repositories/otc.repository.js';
import { lockPrice } from '../repositories/price.repository.js';
import { recordChanges } from '../repositories/sync.repository.js';
import { ownAccount, ownBalances } from './own-account.js';
import { DEFAULT_PAGE_SIZE, ownAccountPage, type AccountPageParams } from './paging.js';
import { CustomerService } from './customer-service.js';
import { rabPrice } from './settings.service.js';
import { accountRowIds } from './records.js';

export interface OtcSettings {
  /** The band around the guide price as an exact decimal fraction ("0.1" = +/-10 %). */
  priceBand: string;
  /** Fees as exact decimal fractions of the USDT side. */
  makerFeeRate: string;
  takerFeeRate: string;
  /** The least RAB an order lists and a take takes (unless it takes the rest), a wire decimal. */
  minimum: string;
}

const SAFE_ID = /^\d{1,15}$/;

/** 409 with the order's current state: it changed since the customer saw it. */
const orderChanged = (order: OtcBookOrder) =>
  new BusinessError(BodyCode.conflict, 'server.otc_order_changed', { status: order.status }, order);

/** 409 while no guide price is set: the market is closed. */
const marketClosed = () => new BusinessError(BodyCode.conflict, 'server.otc_closed');

/** 403 naming `orderId`: the order is the caller's own (take) or someone else's (cancel). */
const orderRefused = (key: string) => new BusinessError(BodyCode.forbidden, key, {}, { field: 'orderId' });

/** What an order's escrow still holds: escrow minus what the fills posted while open, else nothing. */
const heldOf = (row: OtcOrderRow): bigint =>
  row.status !== 'pending_match'
    ? 0n
    : row.escrow - (row.side === 'buy' ? row.usdtFilled + row.makerFeeFilled : row.filled);

/** Records the order's change for sync: its maker's `otc_orders` and the public `otc_book`. */
const changed = (tx: Executor, row: OtcOrderRow, now: Date) =>
  recordChanges(tx, [
    { collection: 'otc_orders', scopeId: row.accountId, recordId: String(row.id), deleted: false, at: now },
    {
      collection: 'otc_book',
      scopeId: 0,
      recordId: String(row.id),
      deleted: row.status !== 'pending_match',
      at: now,
    },
  ]);

export class OtcService extends CustomerService<OtcSettings> {
  private readonly band = parseFeeRate(this.settings.priceBand);
  private readonly makerRate = parseFeeRate(this.settings.makerFeeRate);
  private readonly takerRate = parseFeeRate(this.settings.takerFeeRate);
  private readonly minimum = parseMoney(this.settings.minimum);

  /** The guide price and its band, the fees, the minimum and the account's available money. Read-only. */
  async info(ctx: RequestContext, params: { accountId?: string | undefined }): Promise<OtcInfoData> {
    const { accountId, own, price } = await ownBalances(this.db, ctx, params.accountId);
    const { low, high } = bandOf(price.value, this.band);
    return {
      accountId: String(accountId),
      guidePrice: formatMoney(price.value),
      priceBand: this.settings.priceBand,
      minPrice: formatMoney(low),
      maxPrice: formatMoney(high),
      makerFeeRate: this.settings.makerFeeRate,
      takerFeeRate: this.settings.takerFeeRate,
      minimum: this.settings.minimum,
      usdt: formatMoney(own.USDT.cash),
      rab: formatMoney(own.RAB.cash),
      asOf: this.clock.now().toISOString(),
    };
  }

  /**
   * Lists an order of `side` from the caller's account and holds its escrow, or refuses: 403 for
   * an account not the caller's; 400 naming `volume` (below the minimum, or too large) or `price`
   * (outside the band); 409 while no guide price is set; the trade password (300, 400, 423);
   * 470 when the available USDT (buy) or RAB (sell) is short. Nothing moves unless all pass.
   */
  list(ctx: RequestContext, side: OtcSide, params: OtcListParams): Promise<OtcOrder> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      const volume = parseMoney(params.volume);
      const price = parseMoney(params.price);
      if (volume < this.minimum) {
        throw invalidField('volume', 'server.otc_volume_minimum', { minimum: this.settings.minimum });
      }
      if (price <= 0n) throw invalidField('price', 'server.otc_price_band', this.bandVars(0n));
      if (volume > OTC_LEG_MAX || (volume * price) / 10n ** 6n > OTC_LEG_MAX) {
        throw invalidField('volume', 'server.otc_volume_too_large');
      }
      await lockPrice(tx, 'RAB', 'shared');
      const guide = await rabPrice(tx);
      if (guide.value <= 0n) throw marketClosed();
      if (!withinBand(price, guide.value, this.band)) {
        throw invalidField('price', 'server.otc_price_band', this.bandVars(guide.value));
      }
      const escrow = escrowOf(side, volume, price, this.makerRate);
      if (escrow <= 0n) throw invalidField('volume', 'server.otc_volume_too_small');
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      const now = this.clock.now();
      const order = await insertOtcOrder(tx, {
        userId,
        accountId,
        side,
        price,
        volume,
        splittable: params.splittable,
        filled: 0n,
        usdtFilled: 0n,
        makerFeeFilled: 0n,
        makerFeeRate: this.settings.makerFeeRate,
        takerFeeRate: this.settings.takerFeeRate,
        escrow,
        holdId: null,
        status: 'pending_match',
        createdAt: now,
        updatedAt: now,
      });
      const held = await hold(
        tx,
        {
          key: `otc:order:${order.id}`,
          accountId,
          asset: side === 'buy' ? 'USDT' : 'RAB',
          kind: side === 'buy' ? 'otc_list_buy' : 'otc_list_sell',
          amount: escrow,
          ref: { table: 'otc_orders', id: String(order.id) },
        },
        now,
      );
      const saved = await updateOtcOrder(tx, order.id, { holdId: held.id });
      await changed(tx, saved, now);
      return toOtcOrder(saved, held.amount);
    });
  }

  /** One order as the book shows it (404 when there is none). Read-only. */
  async pendingInfo(ctx: RequestContext, params: { orderId: string }): Promise<OtcBookOrder> {
    const order = SAFE_ID.test(params.orderId)
      ? await findOtcOrder(this.db, Number(params.orderId))
      : undefined;
    if (!order) throw notFound();
    return toBookOrder(order, userIdOf(ctx));
  }

  /**
   * Takes `volume` of another customer's open order at the price the customer was shown, or
   * refuses: 403 for an account not the caller's or an order of their own; 404 for no such
   * order; 409 with the order's state when it is no longer open, its price is not the one sent
   * or less remains than asked; 400 naming `volume` for a part of a non-splittable order, a part
   * below the minimum (unless it takes the rest) or one worth no USDT; the trade password (300,
   * 400, 423); 470 when the taker's available RAB (into a buy) or USDT (from a sell) is short.
   * The fill and all its transfers commit together, or nothing does.
   */
  take(ctx: RequestContext, params: OtcTakeParams): Promise<OtcTakeData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      if (!SAFE_ID.test(params.orderId)) throw notFound();
      const orderId = Number(params.orderId);
      const volume = parseMoney(params.volume);
      const price = parseMoney(params.price);
      // The checks run on the order as read, then the trade password (slow by design: scrypt) is
      // verified without holding the order's row, then the checks run again under its lock.
      this.checkTake(await findOtcOrder(tx, orderId), userId, volume, price);
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      const { order, figures } = this.checkTake(await lockOtcOrder(tx, orderId), userId, volume, price);
      // A fill writes several ledger events (the hold's posts and the taker's transfers), each
      // locking its balance rows in the global order, but not all of them before the first: two
      // fills of different orders could otherwise cross (customer rows, platform fee slots).
      await lockOtcSettlement(tx);
      const now = this.clock.now();
      const fill = await insertOtcFill(tx, {
        orderId: order.id,
        makerAccountId: order.accountId,
        takerUserId: userId,
        takerAccountId: accountId,
        volume: figures.volume,
        usdt: figures.usdt,
        makerFee: figures.makerFee,
        takerFee: figures.takerFee,
        createdAt: now,
      });
      if (order.holdId === null) throw new Error(`otc order ${order.id} has no hold`);
      const ref = { table: 'otc_fills', id: String(fill.id) };
      const key = (leg: string) => `otc:${order.id}:fill:${fill.id}:${leg}`;
      const leg = (
        name: string,
        kind: RecordKind,
        asset: Asset,
        from: BookRef,
        to: BookRef,
        amount: bigint,
      ): TransferInput[] =>
        amount > 0n ? [{ key: key(name), kind, asset, from, to, amount: minor(amount), ref }] : [];
      const taker = customerBook(accountId, 'cash');
      const maker = customerBook(order.accountId, 'cash');
      const fees = platformBook('fee_revenue');
      const kind: 'otc_sell' | 'otc_buy' = order.side === 'buy' ? 'otc_sell' : 'otc_buy';
      if (order.side === 'buy') {
        // The taker sells RAB into a buy order: their RAB to the maker; the maker's escrowed USDT
        // to the taker and the maker's fee to revenue; the taker's fee from what they received.
        await transfer(tx, leg('rab', kind, 'RAB', taker, maker, figures.volume), now);
        await postHold(
          tx,
          { holdId: order.holdId, key: key('usdt'), to: taker, kind, amount: figures.usdt, ref },
          now,
        );
        if (figures.makerFee > 0n) {
          await postHold(
            tx,
            {
              holdId: order.holdId,
              key: key('maker_fee'),
              to: fees,
              kind: 'fee',
              amount: figures.makerFee,
              ref,
            },
            now,
          );
        }
        await transfer(tx, leg('taker_fee', 'fee', 'USDT', taker, fees, figures.takerFee), now);
      } else {
        // The taker buys from a sell order: their USDT to the maker and their fee to revenue; the
        // maker's escrowed RAB to the taker; the maker's fee from the USDT they received.
        await transfer(
          tx,
          [
            ...leg('usdt', kind, 'USDT', taker, maker, figures.usdt),
            ...leg('taker_fee', 'fee', 'USDT', taker, fees, figures.takerFee),
            ...leg('maker_fee', 'fee', 'USDT', maker, fees, figures.makerFee),
          ],
          now,
        );
        await postHold(
          tx,
          { holdId: order.holdId, key: key('rab'), to: taker, kind, amount: figures.volume, ref },
          now,
        );
      }
      const status: OtcStatus = figures.filledAfter === order.volume ? 'completed' : 'pending_match';
      const updated = await updateOtcOrder(tx, order.id, {
        filled: figures.filledAfter,
        usdtFilled: figures.usdtFilledAfter,
        makerFeeFilled: figures.makerFeeFilledAfter,
        status,
        updatedAt: now,
      });
      await changed(tx, updated, now);
      const usdtSide =
        order.side === 'buy' ? figures.usdt - figures.takerFee : figures.usdt + figures.takerFee;
      return {
        id: String(fill.id),
        orderId: String(order.id),
        accountId: String(accountId),
        kind,
        volume: formatMoney(figures.volume),
        price: moneyText(order.price),
        usdt: formatMoney(figures.usdt),
        takerFee: formatMoney(figures.takerFee),
        paid: moneyText(order.side === 'buy' ? figures.volume : usdtSide),
        paidAsset: order.side === 'buy' ? 'RAB' : 'USDT',
        received: moneyText(order.side === 'buy' ? usdtSide : figures.volume),
        receivedAsset: order.side === 'buy' ? 'USDT' : 'RAB',
        order: toBookOrder(updated, userId),
        createdAt: now.toISOString(),
      };
    });
  }

  /** The refusals of a take of `volume` at `price` from `order` (in the documented order), and its figures. */
  private checkTake(order: OtcOrderRow | undefined, userId: number, volume: Minor, price: Minor) {
    if (!order) throw notFound();
    if (order.userId === userId) throw orderRefused('server.otc_own_order');
    const remaining = order.volume - order.filled;
    if (order.status !== 'pending_match' || price !== order.price || volume > remaining) {
      throw orderChanged(toBookOrder(order, userId));
    }
    if (!order.splittable && volume !== remaining) {
      throw invalidField('volume', 'server.otc_not_splittable', { volume: moneyText(remaining) });
    }
    if (volume < this.minimum && volume !== remaining) {
      throw invalidField('volume', 'server.otc_volume_minimum', { minimum: this.settings.minimum });
    }
    const figures = fillOf(order, volume, parseFeeRate(order.makerFeeRate), parseFeeRate(order.takerFeeRate));
    if (figures.usdt <= 0n) throw invalidField('volume', 'server.otc_volume_too_small');
    return { order, figures };
  }

  /**
   * Cancels the caller's open order: what its escrow still holds goes back to the maker's cash
   * (otc_cancel); the order ends `cancelled`, or `match_ended` when partly filled. 404 for no
   * such order, 403 for another customer's, 409 with its state when it is no longer open.
   */
  cancel(ctx: RequestContext, params: { orderId: string }): Promise<OtcOrder> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const order = SAFE_ID.test(params.orderId) ? await lockOtcOrder(tx, Number(params.orderId)) : undefined;
      if (!order) throw notFound();
      if (order.userId !== userId) throw orderRefused('server.forbidden');
      if (order.status !== 'pending_match') throw orderChanged(toBookOrder(order, userId));
      if (order.holdId === null) throw new Error(`otc order ${order.id} has no hold`);
      const now = this.clock.now();
      await voidHold(
        tx,
        {
          holdId: order.holdId,
          key: `otc:order:${order.id}:cancel`,
          kind: 'otc_cancel',
          ref: { table: 'otc_orders', id: String(order.id) },
        },
        now,
      );
      const updated = await updateOtcOrder(tx, order.id, {
        status: order.filled > 0n ? 'match_ended' : 'cancelled',
        updatedAt: now,
      });
      await changed(tx, updated, now);
      return toOtcOrder(updated, 0n);
    });
  }

  /** The `otc_orders` records of `ids` listed from the account (sync). Read-only. */
  static async orderRecordsByIds(db: Executor, accountId: number, ids: number[]): Promise<OtcOrder[]> {
    return (await otcOrdersByIds(db, accountId, ids)).map((row) => toOtcOrder(row, heldOf(row)));
  }

  /** The `otc_book` records of `ids` still open (sync; the others are deletes). Read-only. */
  static async bookRecordsByIds(db: Executor, ids: number[]): Promise<OtcBookRecord[]> {
    return (await openOtcOrdersByIds(db, ids)).map((row) => {
      const { mine: _mine, ...record } = toBookOrder(row, null);
      return record;
    });
  }

  /** The open orders of one side: `newest` first or best `price` first, paged by position. Read-only. */
  async book(
    ctx: RequestContext,
    side: OtcSide,
    params: {
      sort?: 'newest' | 'price' | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<OtcBookData> {
    const limit = params.limit ?? DEFAULT_PAGE_SIZE;
    const offset = params.cursor ? Number(params.cursor) : 0;
    const rows = await listOpenOtcOrders(this.db, {
      side,
      sort: params.sort ?? 'newest',
      offset,
      limit: limit + 1,
    });
    const userId = userIdOf(ctx);
    return {
      items: rows.slice(0, limit).map((row) => toBookOrder(row, userId)),
      nextCursor: rows.length > limit ? String(offset + limit) : null,
    };
  }

  /** The account's orders of one side, newest first. Read-only. */
  async mine(
    ctx: RequestContext,
    side: OtcSide,
    params: AccountPageParams<OtcStatus>,
  ): Promise<OtcMyListData> {
    return this.reads.read(ctx.caller, (db) =>
      ownAccountPage(
        db,
        ctx,
        params,
        (db, page) => listAccountOtcOrders(db, { ...page, side, status: params.status }),
        (row) => toOtcOrder(row, heldOf(row)),
      ),
    );
  }

  private bandVars(guide: bigint) {
    const { low, high } = bandOf(guide, this.band);
    return { minPrice: formatMoney(low), maxPrice: formatMoney(high) };
  }
}

/** The terms and progress of an order, the same in the book and in the owner's list. */
function orderTerms(row: OtcOrderRow) {
  return {
    side: row.side as OtcSide, // a CHECK allows only the two sides
    price: moneyText(row.price),
    volume: moneyText(row.volume),
    filled: moneyText(row.filled),
    remaining: moneyText(row.volume - row.filled),
    completionRate: completionRate(row.filled, row.volume),
    splittable: row.splittable,
    status: row.status as OtcStatus, // a CHECK allows only the four statuses
  };
}

function toBookOrder(row: OtcOrderRow, userId: number | null): OtcBookOrder {
  return {
    id: String(row.id),
    ...orderTerms(row),
    takerFeeRate: row.takerFeeRate,
    mine: row.userId === userId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toOtcOrder(row: OtcOrderRow, held: bigint): OtcOrder {
  return {
    ...accountRowIds(row),
    ...orderTerms(row),
    usdtFilled: moneyText(row.usdtFilled),
    makerFeeFilled: moneyText(row.makerFeeFilled),
    escrow: moneyText(row.escrow),
    held: moneyText(held),
    makerFeeRate: row.makerFeeRate,
    takerFeeRate: row.takerFeeRate,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
