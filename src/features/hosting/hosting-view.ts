/**
 * What the Hosting tab shows: a product's terms, the earnings preview of the amount
 * typed, and the figures of an increase, decrease or redeem, each computed with the server's own
 * integer rules (contract/hosting-interest.ts: floor(principal × rate) a day, the penalty
 * floor(amount × penaltyRate)), so the figure on screen is the figure the job and the ledger will
 * move; an order's progress to maturity; how statuses, change kinds and income types are named;
 * how a settled command reads. Pure: it imports only types and zod-free modules, so neither zod
 * nor IndexedDB.
 */
import type { HostingChangeKind, HostingOrderRecord, HostingProduct } from '../../../contract/api/hosting.js';
import type { IncomeStatus, IncomeType } from '../../../contract/api/income.js';
import {
  applyRate,
  isDailyRate,
  isRate,
  parseRate,
  termInterest,
  type Rate,
} from '../../../contract/hosting-interest.js';
import { formatMoney, type Minor, minor, moneyText } from '../../../contract/money.js';
import { AMOUNT_PATTERN } from '../../../contract/validation.js';
import { moneyOrNull, ratePercent, shownAmount } from '../../ui/amounts.js';

export { ratePercent, shownAmount };

/** Change records shown under an order before "all changes" is asked for. */
export const CHANGES_SHOWN = 5;

// A record (not an array) so the compiler fails when the contract gains an income type this
// page cannot name; the UI may not import the contract's INCOME_TYPES (zod stays out).
// The wallet records name the same six kinds (records-view spreads these).
export const INCOME_TYPES: Record<IncomeType, true> = {
  static: true,
  promotion: true,
  management: true,
  airdrop: true,
  dividend: true,
  mining_machine: true,
};

/** The six income types, in the contract's order (the filter's options). */
export const INCOME_TYPE_LIST = Object.keys(INCOME_TYPES) as IncomeType[]; // the keys of a Record<IncomeType, true>

/** True when `value` names an income type (a filter value read back from the page). */
export function isIncomeType(value: string): value is IncomeType {
  return Object.hasOwn(INCOME_TYPES, value);
}

/** The locale key naming an income type: the wallet records name the same six kinds. */
export function incomeTypeKey(type: IncomeType): `records.kind_${IncomeType}` {
  return `records.kind_${type}`;
}

export function incomeStatusKey(status: IncomeStatus): `hosting.income_${IncomeStatus}` {
  return `hosting.income_${status}`;
}

/** How an order's status reads: in progress, or how it ended (matured, redeemed). */
export function orderStatusKey(
  order: Pick<HostingOrderRecord, 'status' | 'closeReason'>,
): 'hosting.status_in_progress' | 'hosting.status_matured' | 'hosting.status_redeemed' {
  if (order.status === 'in_progress') return 'hosting.status_in_progress';
  return order.closeReason === 'redeemed' ? 'hosting.status_redeemed' : 'hosting.status_matured';
}

/** The locale key of a change record's kind (created, increased, decreased, redeemed, matured). */
export function changeKindKey(kind: HostingChangeKind): `hosting.change_${HostingChangeKind}` {
  return `hosting.change_${kind}`;
}

export function payoutKey(payout: HostingProduct['payout']): `hosting.payout_${HostingProduct['payout']}` {
  return `hosting.payout_${payout}`;
}

function rateOf(text: string): Rate | null {
  return isRate(text) ? parseRate(text) : null;
}

/** A product's or order's name in `locale`: the Simplified Chinese one, else the English one, else any. */
export function nameIn(names: Readonly<Record<string, string>>, locale: string): string {
  return names[locale] || names['zh-Hans'] || names['en'] || Object.values(names)[0] || '';
}

/** Why an amount typed is refused before anything is sent; the page words each one. */
export type AmountProblem =
  | { key: 'required' }
  | { key: 'not_number' }
  | { key: 'decimals' }
  | { key: 'not_positive' }
  | { key: 'below_minimum'; minimum: string; maximum: string }
  | { key: 'above_maximum'; minimum: string; maximum: string };

/**
 * The amount typed in minor units, or its problem as to form only: required, a number, at most
 * 2 decimals (spec section 5), above 0. Pure.
 */
export function typedAmount(text: string): { amount: Minor } | { problem: AmountProblem } {
  const value = text.trim();
  if (value === '') return { problem: { key: 'required' } };
  if (!/^[-+]?\d*\.?\d+$/.test(value)) return { problem: { key: 'not_number' } };
  if (/^[-+]/.test(value)) return { problem: { key: 'not_positive' } };
  if (/\.\d{3,}$/.test(value)) return { problem: { key: 'decimals' } };
  const amount = AMOUNT_PATTERN.test(value) ? moneyOrNull(value) : null;
  if (amount === null) return { problem: { key: 'not_number' } };
  if (amount <= 0n) return { problem: { key: 'not_positive' } };
  return { amount };
}

/** The terms a preview needs of a product (or of an order, which copied them). */
export type ProductTerms = Pick<HostingProduct, 'days' | 'dailyRate' | 'minimum' | 'maximum' | 'payout'>;

/**
 * The earnings preview of an order of the amount typed, as the daily job will pay it:
 * - `empty`: nothing typed; `invalid`: the amount's problem (form or the product's bounds);
 * - `ok`: `daily` = floor(amount × dailyRate) each interest day, `total` = days × daily over the
 *   term, `atMaturity` = the amount back with the total; `short` when it is more than the cash
 *   known (the server then answers 470; the synced cash may be older than the server's).
 * Pure.
 */
export type EarningsPreview =
  | { kind: 'empty' }
  | { kind: 'invalid'; problem: AmountProblem }
  | {
      kind: 'ok';
      amount: string;
      daily: string;
      total: string;
      atMaturity: string;
      days: number;
      short: boolean;
    };

export function earningsPreview(product: ProductTerms, text: string, cash: string | null): EarningsPreview {
  if (text.trim() === '') return { kind: 'empty' };
  const typed = typedAmount(text);
  if ('problem' in typed) return { kind: 'invalid', problem: typed.problem };
  const { amount } = typed;
  const minimum = moneyOrNull(product.minimum);
  const maximum = moneyOrNull(product.maximum);
  const bounds = { minimum: shownAmount(product.minimum), maximum: shownAmount(product.maximum) };
  if (minimum !== null && amount < minimum)
    return { kind: 'invalid', problem: { key: 'below_minimum', ...bounds } };
  if (maximum !== null && amount > maximum)
    return { kind: 'invalid', problem: { key: 'above_maximum', ...bounds } };
  if (!isDailyRate(product.dailyRate)) return { kind: 'empty' };
  const { daily, total } = termInterest(amount, parseRate(product.dailyRate), product.days);
  const available = cash === null ? null : moneyOrNull(cash);
  return {
    kind: 'ok',
    amount: formatMoney(amount),
    daily: formatMoney(daily),
    total: formatMoney(total),
    atMaturity: moneyText(amount + total),
    days: product.days,
    short: available !== null && amount > available,
  };
}

/** One day's interest of a principal at a rate, as the job pays a whole day. */
function dailyOf(principal: Minor, rate: Rate | null): string {
  return formatMoney(rate === null ? minor(0n) : applyRate(principal, rate));
}

export type ChangeKind = 'add' | 'sub' | 'redeem';

/** What an order needs for a change's figures. */
export type OrderTerms = Pick<
  HostingOrderRecord,
  'amount' | 'minimum' | 'maximum' | 'dailyRate' | 'earlyExit' | 'penaltyRate' | 'status' | 'endAt'
>;

/**
 * Why the server would refuse a change, known before sending, by the message key the server
 * refuses it with (and that message's values): the order ended, its maturity came (the job
 * returns the principal), the product allows no early exit, or the amount is above what the order
 * can take or holds.
 */
export type ChangeRefusal =
  | { key: 'server.hosting_order_ended' }
  | { key: 'server.hosting_order_matured' }
  | { key: 'server.hosting_early_exit_not_allowed' }
  | { key: 'server.hosting_add_above_maximum'; room: string; maximum: string }
  | { key: 'server.hosting_sub_too_much'; principal: string };

/**
 * The figures a confirmation states, exactly as the server will move them (docs/protocol.md
 * section 20):
 * - `add`: the principal after, and one day's interest before and after;
 * - `sub`: taken out, the penalty floor(amount × penaltyRate), what reaches cash, what remains;
 * - `redeem`: the whole principal, its penalty (none at maturity), what reaches cash;
 *   `becauseMinimum` when a decrease would leave less than the product's minimum, so the whole
 *   order is redeemed instead.
 */
export type ChangePreview =
  | { kind: 'empty' }
  | { kind: 'invalid'; problem: AmountProblem }
  | { kind: 'refused'; refusal: ChangeRefusal }
  | { kind: 'add'; amount: string; principalAfter: string; dailyBefore: string; dailyAfter: string }
  | {
      kind: 'sub';
      amount: string;
      penalty: string;
      penaltyRate: string;
      toCash: string;
      principalAfter: string;
      dailyAfter: string;
    }
  | {
      kind: 'redeem';
      principal: string;
      penalty: string;
      penaltyRate: string;
      toCash: string;
      atMaturity: boolean;
      becauseMinimum: string | null;
    };

/**
 * The figures of `kind` on `order` for the amount typed (`redeem` takes none) at `nowMs` on the
 * server's clock as best known. Pure.
 */
export function changePreview(
  order: OrderTerms,
  kind: ChangeKind,
  text: string,
  nowMs: number,
): ChangePreview {
  const principal = moneyOrNull(order.amount) ?? minor(0n);
  const rate = rateOf(order.dailyRate);
  const penaltyRate = rateOf(order.penaltyRate);
  const matured = nowMs >= Date.parse(order.endAt);
  if (order.status !== 'in_progress')
    return { kind: 'refused', refusal: { key: 'server.hosting_order_ended' } };

  const redeem = (becauseMinimum: string | null): ChangePreview => {
    const penalty = matured || penaltyRate === null ? minor(0n) : applyRate(principal, penaltyRate);
    return {
      kind: 'redeem',
      principal: formatMoney(principal),
      penalty: formatMoney(penalty),
      penaltyRate: ratePercent(order.penaltyRate),
      toCash: moneyText(principal - penalty),
      atMaturity: matured,
      becauseMinimum,
    };
  };
  if (kind === 'redeem') {
    if (matured) return redeem(null);
    return order.earlyExit
      ? redeem(null)
      : { kind: 'refused', refusal: { key: 'server.hosting_early_exit_not_allowed' } };
  }

  if (matured) return { kind: 'refused', refusal: { key: 'server.hosting_order_matured' } };
  if (kind === 'sub' && !order.earlyExit)
    return { kind: 'refused', refusal: { key: 'server.hosting_early_exit_not_allowed' } };
  if (text.trim() === '') return { kind: 'empty' };
  const typed = typedAmount(text);
  if ('problem' in typed) return { kind: 'invalid', problem: typed.problem };
  const { amount } = typed;

  if (kind === 'add') {
    const maximum = moneyOrNull(order.maximum) ?? principal;
    const room = maximum - principal;
    if (amount > room)
      return {
        kind: 'refused',
        refusal: {
          key: 'server.hosting_add_above_maximum',
          room: moneyText(room > 0n ? room : 0n),
          maximum: formatMoney(maximum),
        },
      };
    const after = minor(principal + amount);
    return {
      kind: 'add',
      amount: formatMoney(amount),
      principalAfter: formatMoney(after),
      dailyBefore: dailyOf(principal, rate),
      dailyAfter: dailyOf(after, rate),
    };
  }

  if (amount > principal)
    return {
      kind: 'refused',
      refusal: { key: 'server.hosting_sub_too_much', principal: formatMoney(principal) },
    };
  const remaining = minor(principal - amount);
  const minimum = moneyOrNull(order.minimum) ?? minor(0n);
  if (remaining < minimum) return redeem(formatMoney(minimum));
  const penalty = penaltyRate === null ? minor(0n) : applyRate(amount, penaltyRate);
  return {
    kind: 'sub',
    amount: formatMoney(amount),
    penalty: formatMoney(penalty),
    penaltyRate: ratePercent(order.penaltyRate),
    toCash: moneyText(amount - penalty),
    principalAfter: formatMoney(remaining),
    dailyAfter: dailyOf(remaining, rate),
  };
}

/** An order's way to maturity: how much of its term has passed, in interest days and as a share. */
export interface OrderProgress {
  /** 0 to 100, rounded down: the share of the time from its start to its maturity that passed. */
  percent: number;
  /** Interest days completed, 0 to `days`. */
  daysDone: number;
  days: number;
}

/**
 * The progress of `order` at `nowMs` (an ended order at the time it ended). Interest days are
 * counted from `interestFrom` in days of the term's average length, so a DST change moves no
 * count by a whole day. Pure.
 */
export function progressOf(
  order: Pick<
    HostingOrderRecord,
    'status' | 'closeReason' | 'startAt' | 'interestFrom' | 'endAt' | 'days' | 'closedAt'
  >,
  nowMs: number,
): OrderProgress {
  const start = Date.parse(order.startAt);
  const from = Date.parse(order.interestFrom);
  const end = Date.parse(order.endAt);
  const at =
    order.status === 'in_progress'
      ? nowMs
      : order.closeReason === 'matured'
        ? end
        : Date.parse(order.closedAt ?? order.endAt);
  const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);
  const percent = end > start ? Math.floor(clamp(((at - start) / (end - start)) * 100, 0, 100)) : 100;
  const dayMs = order.days > 0 ? (end - from) / order.days : 0;
  const daysDone = dayMs > 0 ? clamp(Math.floor((at - from) / dayMs), 0, order.days) : 0;
  return { percent, daysDone, days: order.days };
}

/** Orders as the tab lists them: in progress first (newest first), then ended ones (latest ended first). Pure. */
export function sortOrders<O extends Pick<HostingOrderRecord, 'status' | 'createdAt' | 'closedAt' | 'id'>>(
  orders: readonly O[],
): O[] {
  const endedAt = (order: O) => order.closedAt ?? order.createdAt;
  return [...orders].sort((a, b) => {
    if (a.status !== b.status) return a.status === 'in_progress' ? -1 : 1;
    const key =
      a.status === 'in_progress'
        ? b.createdAt.localeCompare(a.createdAt)
        : endedAt(b).localeCompare(endedAt(a));
    return key || Number(b.id) - Number(a.id);
  });
}

/** Whether the account counts as valid hosting (spec sections 5 and 9), and how much it lacks. */
export interface ValidHostingView {
  valid: boolean;
  threshold: string;
  /** What more must be hosted to count; null once it counts. */
  missing: string | null;
}

/** The valid-hosting standing of a hosting balance against the threshold; null when either is unknown. Pure. */
export function validHostingOf(hosting: string | null, threshold: string | null): ValidHostingView | null {
  const balance = hosting === null ? null : moneyOrNull(hosting);
  const line = threshold === null ? null : moneyOrNull(threshold);
  if (balance === null || line === null) return null;
  const valid = balance >= line;
  return { valid, threshold: formatMoney(line), missing: valid ? null : moneyText(line - balance) };
}

export { commandOutcome, type CommandOutcome } from '../outbox/command-outcome.js';
