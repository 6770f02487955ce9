/**
 * Hosting and income rows to the contract's records (one mapping each, for lists and pulls), the
 * synced collections' readers by id, and the sync changes a saved order or change records.
 */
import type {
  AdminHostingProduct,
  HostingChangeKind,
  HostingCloseReason,
  HostingChangeRecord,
  HostingOrderRecord,
  HostingOrderStatus,
  HostingPayout,
  HostingProduct,
  ProductStatus,
} from '../../../contract/api/hosting.js';
import {
  incomeSourceSchema,
  type IncomeRecord,
  type IncomeSource,
  type IncomeStatus,
  type IncomeType,
} from '../../../contract/api/income.js';
import { applyRate, parseRate } from '../../../contract/hosting-interest.js';
import type { Locale } from '../../../contract/locales.js';
import { minor, moneyText } from '../../../contract/money.js';
import {
  listProducts,
  type HostingChangeRow,
  type HostingOrderRow,
  type HostingProductRow,
} from '../../repositories/hosting.repository.js';
import type { IncomeRow } from '../../repositories/income.repository.js';
import type { SyncChange } from '../../repositories/sync.repository.js';
import { catalogueNames, type ItemNames } from '../catalogue.js';
import { accountChange, accountRowIds } from '../records.js';

/** The table an order's ledger transfers and income lines refer to. */
export const ORDERS = 'hosting_orders';

/** A product's name in `locale`, else Simplified Chinese, else English, else any. */
export function nameIn(names: ItemNames, locale: Locale): string {
  return names[locale] ?? names['zh-Hans'] ?? names['en'] ?? Object.values(names)[0] ?? '';
}

// The text columns below hold only the values their CHECK constraints allow.

/** A product's terms, as a product shows them and an order keeps them. */
export const termsOf = (row: HostingProductRow | HostingOrderRow) => ({
  days: row.days,
  dailyRate: row.dailyRate,
  minimum: moneyText(row.minimum),
  maximum: moneyText(row.maximum),
  payout: row.payout as HostingPayout,
  earlyExit: row.earlyExit,
  penaltyRate: row.penaltyRate,
});

export const toHostingProduct = (row: HostingProductRow, locale: Locale): HostingProduct => ({
  id: String(row.id),
  name: nameIn(row.names, locale),
  ...termsOf(row),
});

export const toAdminHostingProduct = (row: HostingProductRow, locale: Locale): AdminHostingProduct => ({
  ...toHostingProduct(row, locale),
  names: row.names,
  status: row.status as ProductStatus,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  updatedBy: row.updatedBy,
});

export const toHostingOrderRecord = (row: HostingOrderRow, names: ItemNames): HostingOrderRecord => ({
  ...accountRowIds(row),
  productId: String(row.productId),
  names,
  amount: moneyText(row.principal),
  initialAmount: moneyText(row.initialAmount),
  ...termsOf(row),
  status: row.status as HostingOrderStatus,
  closeReason: row.closeReason as HostingCloseReason | null,
  startAt: row.startAt.toISOString(),
  endAt: row.endAt.toISOString(),
  interestFrom: row.interestFrom.toISOString(),
  accruedInterest: moneyText(row.accrued),
  paidInterest: moneyText(row.paid),
  penalty: moneyText(row.penalty),
  dailyInterest: moneyText(applyRate(minor(row.principal), parseRate(row.dailyRate))),
  closedAt: row.closedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toHostingChangeRecord = (row: HostingChangeRow): HostingChangeRecord => ({
  id: String(row.id),
  orderId: String(row.orderId),
  accountId: String(row.accountId),
  kind: row.kind as HostingChangeKind,
  amount: moneyText(row.amount),
  penalty: moneyText(row.penalty),
  principalAfter: moneyText(row.principalAfter),
  createdAt: row.at.toISOString(),
});

export const toIncomeRecord = (row: IncomeRow): IncomeRecord => ({
  ...accountRowIds(row),
  type: row.type as IncomeType,
  amount: moneyText(row.amount),
  earningsDate: row.earningsDate,
  arrivalDate: row.arrivalDate,
  status: row.status as IncomeStatus,
  arrivedAt: row.arrivedAt?.toISOString() ?? null,
  ref: { table: row.sourceTable, id: row.sourceId },
  memo: row.memo,
  source: incomeSourceOf(row.source),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A stored team line's source, parsed (STYLE rule 5); null for other lines, or a row of another shape. */
function incomeSourceOf(stored: unknown): IncomeSource | null {
  if (stored === null || stored === undefined) return null;
  const parsed = incomeSourceSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Every product's names by id (disabled ones too). */
export const productNames = catalogueNames(listProducts);

/** The sync change of a saved order. */
export const orderChange = (order: HostingOrderRow, at: Date): SyncChange => accountChange(ORDERS, order, at);

/** The sync change of a saved order change. */
export const changeChange = (change: HostingChangeRow, at: Date): SyncChange =>
  accountChange('hosting_changes', change, at);
