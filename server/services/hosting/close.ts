/**
 * Ending a hosting order, shared by a customer's redeem (orders.service.ts) and the daily job's
 * maturity (accrual.service.ts), and the ledger legs of principal leaving an order.
 *
 * What stays true: the order is locked by the caller; its principal leaves the `hosting` book by
 * transfers keyed `hosting:<order>:<kind>` (and `...:penalty`), its interest pending arrival is
 * paid in one batch with no lock per line, and the order, its change and their sync changes are
 * written in the caller's transaction.
 */
import { applyRate, parseRate } from '../../../contract/hosting-interest.js';
import { minor, type Minor } from '../../../contract/money.js';
import type { Executor } from '../../db/database.js';
import { customerBook, platformBook } from '../../ledger/books.js';
import { transfer, type TransferInput } from '../../ledger/ledger.js';
import {
  insertChange,
  updateOrder,
  type HostingChangeRow,
  type HostingOrderRow,
} from '../../repositories/hosting.repository.js';
import { pendingIncomeOf } from '../../repositories/income.repository.js';
import { recordChanges } from '../../repositories/sync.repository.js';
import { arrivePendingIncomeMany } from '../income.service.js';
import { localDateOf, minuteOf } from './days.js';
import { changeChange, orderChange, ORDERS } from './records.js';

/**
 * Ends an order (locked by the caller): the whole principal back to cash, less the penalty of
 * an early `redeem`; interest pending arrival paid now; status `expired`. Interest runs until
 * the maturity, or the redeem's minute (that day's part is accrued by the next run).
 */
export async function closeOrder(
  tx: Executor,
  order: HostingOrderRow,
  kind: 'redeem' | 'maturity',
  now: Date,
  timezone: string,
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
  const today = localDateOf(now, timezone);
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

/** The legs of principal leaving an order: the penalty to fee revenue, the rest to cash. */
export function exitLegs(
  order: HostingOrderRow,
  key: string,
  amount: Minor,
  penalty: Minor,
): TransferInput[] {
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
