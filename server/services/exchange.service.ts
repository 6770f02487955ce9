/**
 * The RAB/USDT exchange (docs/protocol.md section 18): "no surprise fills".
 *
 * What stays true:
 * - a submit fills only at the price version it names, and only while that version is the
 *   newest: the version is read after taking the price's shared lock (price.repository.ts),
 *   which a price change takes exclusively, so a change racing a submit either waits for the
 *   fill to commit or makes it answer 409 with the new price;
 * - the exchange row and its ledger transfers (keys `exchange:<id>:in|out|fee|rounding`) are
 *   written in one transaction, all or nothing, against the exchange inventory; the fee goes to
 *   fee revenue and the rounding residue to the rounding book (contract/exchange-quote.ts), so
 *   every minor unit is accounted for;
 * - exactly once per Idempotency-Key (CommandRunner): a repeat replays the first answer.
 */
import type { Asset } from '../../contract/api/account.js';
import type {
  AdminExchangeListData,
  ExchangeIndexData,
  ExchangeListData,
  ExchangeRecord,
  ExchangeSubmitParams,
  StalePriceData,
} from '../../contract/api/exchange.js';
import { BodyCode } from '../../contract/codes.js';
import { parseFeeRate, quoteExchange, type ExchangeQuote } from '../../contract/exchange-quote.js';
import { formatMoney, minor, parseMoney, type Minor } from '../../contract/money.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField } from '../core/errors.js';
import { customerBook, platformBook, type BookRef } from '../ledger/books.js';
import { transfer, type TransferInput } from '../ledger/ledger.js';
import { insertExchange, listExchanges, type ExchangeRow } from '../repositories/exchange.repository.js';
import { lockPrice } from '../repositories/price.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import { ownAccount, ownBalances } from './own-account.js';
import { ownAccountPage, pageById, type AccountPageParams } from './paging.js';
import { toExchangeRecord } from './records.js';
import { CustomerService } from './customer-service.js';
import { rabPrice, type RabPrice } from './settings.service.js';

export interface ExchangeSettings {
  /** The fee as an exact decimal fraction of the USDT side ("0.002"). */
  feeRate: string;
  /** Bounds of an amount, in the asset given, as wire decimals. */
  minimum: string;
  maximum: string;
}

/** 409 while no price is set (or it was set to 0): the exchange is closed. */
const exchangeClosed = (price: RabPrice) =>
  new BusinessError(
    BodyCode.conflict,
    'server.exchange_closed',
    {},
    { price: '0', priceVersion: price.version === null ? null : String(price.version) },
  );

/** 409 with the current price: the customer confirmed another price version. */
const stalePrice = (price: Minor, version: number) => {
  const data: StalePriceData = { price: formatMoney(price), priceVersion: String(version) };
  return new BusinessError(BodyCode.conflict, 'server.exchange_price_changed', { price: data.price }, data);
};

export class ExchangeService extends CustomerService<ExchangeSettings> {
  private readonly rate = parseFeeRate(this.settings.feeRate);
  private readonly minimum = parseMoney(this.settings.minimum);
  private readonly maximum = parseMoney(this.settings.maximum);

  /** What an exchange from the account can do now: its balances, the price and its version, the fee and bounds. Read-only. */
  async index(ctx: RequestContext, params: { accountId?: string | undefined }): Promise<ExchangeIndexData> {
    const { accountId, own, price } = await ownBalances(this.db, ctx, params.accountId);
    return {
      accountId: String(accountId),
      rab: formatMoney(own.RAB.cash),
      rabHeld: formatMoney(own.RAB.held),
      usdt: formatMoney(own.USDT.cash),
      price: formatMoney(price.value),
      priceVersion: price.version === null ? null : String(price.version),
      priceUpdatedAt: price.updatedAt?.toISOString() ?? null,
      open: price.value > 0n,
      feeRate: this.settings.feeRate,
      minimum: this.settings.minimum,
      maximum: this.settings.maximum,
      asOf: this.clock.now().toISOString(),
    };
  }

  /**
   * Exchanges `amount` of the caller's account at the price version named, or refuses: 403 for
   * an account not the caller's, 400 on `amount` outside the bounds or too small to receive a
   * minor unit, 409 while closed or when `priceVersion` is not the current one (with the current
   * price in `data`), then the trade password (300, 400, 423), then 470 when the available
   * balance is short. Nothing moves unless everything passes.
   */
  submit(ctx: RequestContext, params: ExchangeSubmitParams): Promise<ExchangeRecord> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      const amount = parseMoney(params.amount);
      const assetIn: Asset = params.direction === 'rab_to_usdt' ? 'RAB' : 'USDT';
      if (amount < this.minimum || amount > this.maximum) {
        throw invalidField('amount', 'server.exchange_amount_range', {
          minimum: this.settings.minimum,
          maximum: this.settings.maximum,
          asset: assetIn,
        });
      }
      await lockPrice(tx, 'RAB', 'shared');
      const price = await rabPrice(tx);
      if (price.version === null || price.value <= 0n) throw exchangeClosed(price);
      if (params.priceVersion !== String(price.version)) throw stalePrice(price.value, price.version);
      const quote = quoteExchange(params.direction, amount, price.value, this.rate);
      if (quote === null) throw invalidField('amount', 'server.exchange_amount_too_large');
      if (quote.amountOut <= 0n) throw invalidField('amount', 'server.exchange_amount_too_small');
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      const now = this.clock.now();
      const row = await insertExchange(tx, {
        userId,
        accountId,
        direction: quote.direction,
        assetIn: quote.assetIn,
        amountIn: quote.amountIn,
        assetOut: quote.assetOut,
        amountOut: quote.amountOut,
        fee: quote.fee,
        rounding: quote.rounding,
        price: price.value,
        priceVersionId: price.version,
        feeRate: this.settings.feeRate,
        createdAt: now,
      });
      await transfer(tx, legsOf(row, quote), now);
      await recordChange(tx, {
        collection: 'exchanges',
        scopeId: accountId,
        recordId: String(row.id),
        deleted: false,
        at: now,
      });
      return toExchangeRecord(row);
    });
  }

  /** The account's exchanges, newest first, paged by id. Read-only. */
  list(ctx: RequestContext, params: AccountPageParams): Promise<ExchangeListData> {
    return this.reads.read(ctx.caller, (db) =>
      ownAccountPage(db, ctx, params, listExchanges, toExchangeRecord),
    );
  }

  /** Every exchange (or one account's) for finance operators, newest first. Read-only. */
  adminList(params: AccountPageParams): Promise<AdminExchangeListData> {
    const accountId = params.accountId ? Number(params.accountId) : undefined;
    return pageById(
      params,
      (beforeId, limit) => listExchanges(this.db, { accountId, beforeId, limit }),
      (row) => ({ ...toExchangeRecord(row), userId: String(row.userId) }),
    );
  }
}

/**
 * The ledger transfers settling one exchange against the exchange inventory (zero legs
 * omitted: the ledger moves only amounts above 0).
 * rab_to_usdt: the customer's RAB to the inventory; the inventory's USDT to the customer (net),
 * to fee revenue (fee) and to the rounding book (residue).
 * usdt_to_rab: the customer's USDT to the inventory (what the RAB costs at the price), to fee
 * revenue (fee) and to the rounding book (residue); the inventory's RAB to the customer.
 */
function legsOf(row: ExchangeRow, quote: ExchangeQuote): TransferInput[] {
  const customer = customerBook(row.accountId, 'cash');
  const inventory = platformBook('exchange_inventory');
  const ref = { table: 'exchanges', id: String(row.id) };
  const leg = (
    name: 'in' | 'out' | 'fee' | 'rounding',
    asset: Asset,
    from: BookRef,
    to: BookRef,
    amount: Minor,
  ): TransferInput[] =>
    amount > 0n
      ? [
          {
            key: `exchange:${row.id}:${name}`,
            kind: name === 'fee' ? 'fee' : 'exchange',
            asset,
            from,
            to,
            amount: minor(amount),
            ref,
          },
        ]
      : [];
  const usdtPayer = quote.direction === 'rab_to_usdt' ? inventory : customer;
  return [
    ...leg(
      'in',
      quote.assetIn,
      customer,
      inventory,
      quote.direction === 'rab_to_usdt' ? quote.amountIn : quote.usdtLeg,
    ),
    ...leg('out', quote.assetOut, inventory, customer, quote.amountOut),
    ...leg('fee', 'USDT', usdtPayer, platformBook('fee_revenue'), quote.fee),
    ...leg('rounding', 'USDT', usdtPayer, platformBook('rounding'), quote.rounding),
  ];
}
