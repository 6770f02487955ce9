/** Database rows to the contract's synced records (one mapping each, used by pulls and list calls). */
import type {
  FeedbackRecord,
  NewsRecord,
  NoticeRecord,
  ProfileRecord,
  QuoteRecord,
} from '../../contract/api/content.js';
import type { FeedbackRow, NewsRow, NoticeRow, QuoteRow } from '../repositories/content.repository.js';
import type { UserRow } from '../repositories/user.repository.js';
import type { AccountRecord, BalanceRecord, PriceRecord, WalletRecord } from '../../contract/api/account.js';
import { formatMoney, type Minor, minor, moneyText } from '../../contract/money.js';
import type { accounts } from '../db/schema.js';
import type { AccountBalances } from '../ledger/ledger.js';
import type { TransferRow } from '../ledger/ledger.repository.js';
import type { SyncChange } from '../repositories/sync.repository.js';
import type { Executor } from '../db/database.js';
import type { DepositRecord, DepositStatus } from '../../contract/api/recharge.js';
import type { Chain } from '../../contract/constants.js';
import type { DepositRow } from '../repositories/recharge.repository.js';
import type { WithdrawalRecord, WithdrawalStage, WithdrawalStatus } from '../../contract/api/withdraw.js';
import type { WithdrawalRow } from '../repositories/withdraw.repository.js';

import type { ExchangeRecord } from '../../contract/api/exchange.js';
import type { ExchangeDirection } from '../../contract/exchange-quote.js';
import type { Asset } from '../../contract/api/account.js';
import type { ExchangeRow } from '../repositories/exchange.repository.js';
import type { DeliveryRecord } from '../../contract/api/delivery.js';
import type { DeliveryRow } from '../repositories/delivery.repository.js';
import { numericIds, type CollectionReader } from './sync-collection.js';

type AccountRow = typeof accounts.$inferSelect;

export const toNewsRecord = (row: NewsRow): NewsRecord => ({
  id: String(row.id),
  title: row.title,
  summary: row.summary,
  body: row.body,
  imageUrl: row.imageUrl,
  lang: row.lang,
  publishedAt: row.publishedAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toNoticeRecord = (row: NoticeRow): NoticeRecord => ({
  id: String(row.id),
  text: row.text,
  lang: row.lang,
  updatedAt: row.updatedAt.toISOString(),
});

export const toQuoteRecord = (row: QuoteRow): QuoteRecord => ({
  id: row.symbol,
  name: row.name,
  price: row.price,
  changePercent: row.changePercent,
  history: row.history,
  updatedAt: row.updatedAt.toISOString(),
});

export const toFeedbackRecord = (row: FeedbackRow): FeedbackRecord => ({
  id: String(row.id),
  title: row.title,
  content: row.content,
  images: row.images,
  status: row.status,
  reply: row.reply,
  repliedAt: row.repliedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toProfileRecord = (row: UserRow): ProfileRecord => ({
  id: String(row.id),
  email: row.email,
  nickname: row.nickname,
  avatar: row.avatar,
  inviteCode: row.inviteCode,
  updatedAt: row.updatedAt.toISOString(),
});

export const toAccountRecord = (row: AccountRow, defaultAccountId: number | null): AccountRecord => ({
  id: String(row.id),
  kind: row.kind,
  name: row.name,
  isDefault: row.id === defaultAccountId,
  createdAt: row.createdAt.toISOString(),
});

/** An account's balances as the wire's balance fields (a balance record's, the assets' answer). */
export const balanceFieldsOf = (balances: AccountBalances) => ({
  cash: formatMoney(balances.USDT.cash),
  hosting: formatMoney(balances.USDT.hosting),
  held: formatMoney(balances.USDT.held),
  rab: formatMoney(balances.RAB.cash),
  rabHeld: formatMoney(balances.RAB.held),
});

export const toBalanceRecord = (accountId: number, balances: AccountBalances, at: Date): BalanceRecord => ({
  id: String(accountId),
  ...balanceFieldsOf(balances),
  updatedAt: at.toISOString(),
});

/** One side of a transfer, seen from the Coffer account `owner` (the debit side when it paid). */
export function toWalletRecord(row: TransferRow, side: 'd' | 'c'): WalletRecord {
  const debit = side === 'd';
  const amount = minor(debit ? -row.amount : row.amount);
  const after = debit ? row.debitBalanceAfter : row.creditBalanceAfter;
  return {
    id: `${row.id}-${side}`,
    kind: row.kind as WalletRecord['kind'], // the ledger writes only RECORD_KINDS
    asset: row.asset as WalletRecord['asset'], // the ledger writes only ASSETS
    book: (debit ? row.debitBook : row.creditBook) as WalletRecord['book'], // a customer's side is one of BOOKS
    amount: formatMoney(amount),
    balanceAfter: moneyText(after ?? 0n),
    createdAt: row.createdAt.toISOString(),
    ref: { table: row.refTable, id: row.refId },
  };
}

export const toPriceRecord = (asset: string, usdt: Minor, version: number, updatedAt: Date): PriceRecord => ({
  id: asset,
  usdt: formatMoney(usdt),
  priceVersion: String(version),
  updatedAt: updatedAt.toISOString(),
});

export const toExchangeRecord = (row: ExchangeRow): ExchangeRecord => ({
  ...accountRowIds(row),
  direction: row.direction as ExchangeDirection, // a CHECK allows only the two directions
  amountIn: moneyText(row.amountIn),
  assetIn: row.assetIn as Asset, // written from ASSETS_OF only
  amountOut: moneyText(row.amountOut),
  assetOut: row.assetOut as Asset, // written from ASSETS_OF only
  fee: moneyText(row.fee),
  rounding: moneyText(row.rounding),
  price: moneyText(row.price),
  priceVersion: String(row.priceVersionId),
  feeRate: row.feeRate,
  createdAt: row.createdAt.toISOString(),
});

export const toDepositRecord = (row: DepositRow): DepositRecord => ({
  id: String(row.id),
  chain: row.chain as Chain, // the watcher writes only CHAINS
  amount: moneyText(row.amount),
  address: row.address,
  txHash: row.txHash,
  logIndex: row.logIndex,
  blockNumber: String(row.blockNumber),
  confirmations: row.confirmations,
  status: row.status as DepositStatus, // a CHECK keeps it to DEPOSIT_STATUSES
  detectedAt: row.detectedAt.toISOString(),
  heldAt: row.heldAt?.toISOString() ?? null,
  creditedAt: row.creditedAt?.toISOString() ?? null,
  reversedAt: row.reversedAt?.toISOString() ?? null,
  updatedAt: row.updatedAt.toISOString(),
});

export const toWithdrawalRecord = (row: WithdrawalRow): WithdrawalRecord => ({
  ...accountRowIds(row),
  kind: row.kind === 'bank' ? 'bank' : 'chain',
  network: row.network,
  address: row.address,
  bankName: row.bankName,
  cardNumber: row.cardNumber === null ? null : `•••• ${row.cardNumber.slice(-4)}`,
  amount: moneyText(row.amount),
  fee: moneyText(row.fee),
  total: moneyText(row.amount + row.fee),
  status: row.status as WithdrawalStatus, // a CHECK keeps it to WITHDRAWAL_STATUSES
  stage: row.stage as WithdrawalStage, // a CHECK keeps it to WITHDRAWAL_STAGES
  reason: row.reason,
  txHash: row.txHash,
  reference: row.reference,
  createdAt: row.createdAt.toISOString(),
  completedAt: row.completedAt?.toISOString() ?? null,
  updatedAt: row.updatedAt.toISOString(),
});

export const toDeliveryRecord = (row: DeliveryRow): DeliveryRecord => ({
  id: String(row.id),
  orderNo: row.orderNo,
  symbol: row.symbol,
  direction: row.direction === 'sell' ? 'sell' : 'buy', // a CHECK keeps it to buy or sell
  lots: row.lots,
  leverage: row.leverage,
  openPrice: row.openPrice,
  closePrice: row.closePrice,
  openTime: row.openTime.toISOString(),
  closeTime: row.closeTime.toISOString(),
  margin: moneyText(row.margin),
  spread: row.spread,
  profitLoss: moneyText(row.profitLoss),
  publishedAt: row.publishedAt.toISOString(),
});

/** The wire's ids of a row an account owns: its own and its account's, as decimal strings. */
export const accountRowIds = (row: { id: number; accountId: number }) => ({
  id: String(row.id),
  accountId: String(row.accountId),
});

/**
 * An account-scoped collection's reader (sync-collection.ts): the account's rows with the change
 * log's ids, each made a record.
 */
export const accountRecordsByIds =
  <Row, Item extends { id: string }>(
    byIds: (db: Executor, accountId: number, ids: readonly number[]) => Promise<Row[]>,
    toRecord: (row: Row) => Item,
  ): CollectionReader =>
  async (db, accountId, ids) =>
    (await byIds(db, accountId, numericIds(ids))).map((row) => toRecord(row));

/** The sync change of a saved row of an account's collection (its scope is the account). */
export const accountChange = (
  collection: string,
  row: { id: number; accountId: number },
  at: Date,
): SyncChange => ({ collection, scopeId: row.accountId, recordId: String(row.id), deleted: false, at });
