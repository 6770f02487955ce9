/**
 * Pure logic of the withdrawal pages: the amount's checks and the fee, total and maximum worked
 * out in minor units (contract/money.ts, never a float), the withdrawal window in the user's
 * time zone and the business one, whether a method may be used yet, and how a withdrawal record
 * is named and labelled. It imports only types and zod-free modules, so neither zod nor IndexedDB.
 */
import { partsLine } from '../../ui/parts-line.js';
import type { PaymentMethod } from '../../../contract/api/payment.js';
import type {
  WithdrawIndexData,
  WithdrawalRecord,
  WithdrawalStage,
  WithdrawalStatus,
  WithdrawalWindow,
} from '../../../contract/api/withdraw.js';
import { formatMoney, type Minor, minor, moneyText } from '../../../contract/money.js';
import { AMOUNT_PATTERN } from '../../../contract/validation.js';
import { shortAddress } from '../payment/payment-view.js';
import { moneyOrNull } from '../../ui/amounts.js';

/** The figures of /api/v1/withdraw/index the amount is checked against. */
export type Terms = Pick<
  WithdrawIndexData,
  'available' | 'fee' | 'minimum' | 'dailyLimit' | 'dailyRemaining' | 'maximum'
>;

/** One cent in minor units: amounts the user types have at most 2 decimals (spec section 5). */
const CENT = 10_000n;

function atLeastZero(value: bigint): Minor {
  return minor(value < 0n ? 0n : value);
}

/**
 * The largest amount the user can type now: the server's `maximum`, never more than the available
 * cash less the fee nor today's remaining limit, rounded DOWN to the cent (typed amounts have at
 * most 2 decimals, and rounding up would ask for more than is there). Never below 0.
 */
export function withdrawableMaximum(terms: Terms): Minor {
  const candidates = [terms.maximum, terms.dailyRemaining].map(moneyOrNull);
  const available = moneyOrNull(terms.available);
  const fee = moneyOrNull(terms.fee);
  if (available !== null && fee !== null) candidates.push(minor(available - fee));
  let maximum: bigint | null = null;
  for (const candidate of candidates) {
    if (candidate !== null && (maximum === null || candidate < maximum)) maximum = candidate;
  }
  const floored = atLeastZero(maximum ?? 0n);
  return minor(floored - (floored % CENT));
}

/** What the amount field shows when "Max" is pressed. */
export function maximumText(terms: Terms): string {
  return formatMoney(withdrawableMaximum(terms));
}

/** The amount typed, in minor units, when it is a valid amount above 0; null otherwise. */
export function typedAmount(text: string): Minor | null {
  const value = text.trim();
  if (!AMOUNT_PATTERN.test(value)) return null;
  const amount = moneyOrNull(value);
  return amount !== null && amount > 0n ? amount : null;
}

/** What a withdrawal of `amount` comes to: the amount arrives, the fee is added, the total leaves the account. */
export interface Breakdown {
  receive: string;
  fee: string;
  total: string;
}

/** The breakdown of the typed amount, or null while it is not a valid amount (or the fee is unknown). */
export function breakdownOf(text: string, fee: string): Breakdown | null {
  const amount = typedAmount(text);
  const feeMinor = moneyOrNull(fee);
  if (amount === null || feeMinor === null) return null;
  return {
    receive: formatMoney(amount),
    fee: formatMoney(feeMinor),
    total: moneyText(amount + feeMinor),
  };
}

/** Why an amount is refused before anything is sent; the page words each one. */
export type AmountProblem =
  | { key: 'required' }
  | { key: 'not_number' }
  | { key: 'not_positive' }
  | { key: 'decimals' }
  | { key: 'below_minimum'; amount: string }
  | { key: 'above_available'; amount: string; fee: string }
  | { key: 'above_daily'; amount: string }
  | { key: 'above_maximum'; amount: string };

/**
 * The amount's problem, or null when it may be sent: required, a number, above 0, at most 2
 * decimals, at least the minimum, and with the fee no more than the available cash, within
 * today's remaining limit and the server's maximum. Without terms (not loaded) only the form
 * is checked: the server checks the rest.
 */
export function checkWithdrawAmount(text: string, terms: Terms | null): AmountProblem | null {
  const value = text.trim();
  if (value === '') return { key: 'required' };
  if (/^-\s*\d*\.?\d*$/.test(value) && /\d/.test(value)) return { key: 'not_positive' };
  if (!/^\d*\.?\d+$/.test(value)) return { key: 'not_number' };
  if (/\.\d{3,}$/.test(value)) return { key: 'decimals' };
  if (!AMOUNT_PATTERN.test(value)) return { key: 'not_number' };
  const amount = typedAmount(value);
  if (amount === null) return { key: 'not_positive' };
  if (terms === null) return null;
  const minimum = moneyOrNull(terms.minimum);
  if (minimum !== null && amount < minimum) return { key: 'below_minimum', amount: formatMoney(minimum) };
  const available = moneyOrNull(terms.available);
  const fee = moneyOrNull(terms.fee);
  if (available !== null && fee !== null && amount + fee > available)
    return {
      key: 'above_available',
      amount: formatMoney(atLeastZero(available - fee)),
      fee: formatMoney(fee),
    };
  const remaining = moneyOrNull(terms.dailyRemaining);
  if (remaining !== null && amount > remaining) return { key: 'above_daily', amount: formatMoney(remaining) };
  const maximum = moneyOrNull(terms.maximum);
  if (maximum !== null && amount > maximum) return { key: 'above_maximum', amount: formatMoney(maximum) };
  return null;
}

/**
 * A time written for `language` in `timeZone`, with the weekday (a window opening "Mon 09:00"
 * is read by its day) and the zone's offset ("GMT+8"), so the two times never look alike.
 */
export function zonedTime(at: string, language: string, timeZone: string): string {
  return new Intl.DateTimeFormat(language, {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'shortOffset',
  }).format(new Date(at));
}

/** A time in the user's zone and, when it differs, in the business zone. */
export interface TwoZoneTime {
  local: string;
  /** Null when the user's zone shows the same clock time as the business zone. */
  business: string | null;
}

/** `at` in the user's zone (`localZone`) and in the business zone. */
export function twoZoneTime(
  at: string,
  language: string,
  localZone: string,
  businessZone: string,
): TwoZoneTime {
  const local = zonedTime(at, language, localZone);
  const business = zonedTime(at, language, businessZone);
  return { local, business: business === local ? null : business };
}

/** What the window card says: open until a time, or closed until the next opening. */
export type WindowView =
  | { open: true; until: TwoZoneTime | null; hours: WindowHours }
  | { open: false; next: TwoZoneTime | null; hours: WindowHours };

/** The window's daily hours as the business zone counts them. */
export interface WindowHours {
  opens: string;
  closes: string;
  timeZone: string;
}

/** The window of the index answer for the page, its times in the user's zone and the business one. */
export function windowView(window: WithdrawalWindow, language: string, localZone: string): WindowView {
  const hours = { opens: window.opens, closes: window.closes, timeZone: window.timeZone };
  const at = (time: string | null) =>
    time === null ? null : twoZoneTime(time, language, localZone, window.timeZone);
  return window.open
    ? { open: true, until: at(window.closesAt), hours }
    : { open: false, next: at(window.nextOpen), hours };
}

/** The withdrawal lock after a security change, while it still holds at `nowMs`; null otherwise. */
export function activeLock(lockedUntil: string | null, nowMs: number): string | null {
  return lockedUntil !== null && Date.parse(lockedUntil) > nowMs ? lockedUntil : null;
}

/** Whether a method can be chosen now, and from when. */
export interface Usability {
  usable: boolean;
  usableAt: string;
}

/**
 * Whether `method` may be used for a withdrawal at `nowMs`: the server's word when the index was
 * asked about this very method, else its cooldown end as stored on the device.
 */
export function methodUsability(
  method: Pick<PaymentMethod, 'id' | 'usableAt'>,
  nowMs: number,
  asked: WithdrawIndexData['method'] | undefined,
): Usability {
  if (asked != null && asked.id === method.id) return { usable: asked.usable, usableAt: asked.usableAt };
  return { usable: Date.parse(method.usableAt) <= nowMs, usableAt: method.usableAt };
}

/**
 * Where a withdrawal goes, in words that need no translation: the network and the shortened
 * address ("BEP20 · 0x2c75…5c23"), or the bank and the card's last four ("Bank · •••• 1234").
 */
export function destinationOf(
  record: Pick<PaymentMethod, 'kind' | 'network' | 'address' | 'bankName' | 'cardNumber'>,
): string {
  const parts =
    record.kind === 'chain'
      ? [record.network, record.address === null ? null : shortAddress(record.address)]
      : [record.bankName, record.cardNumber];
  return partsLine(parts);
}

/** How a status looks beside its label, so colour is never the only signal of it. */
export type StatusTone = 'pending' | 'done' | 'refused';

// Records (not switches over arrays) so the compiler fails when the contract gains a status or
// stage this page cannot name.
const TONES: Record<WithdrawalStatus, StatusTone> = {
  pending: 'pending',
  success: 'done',
  failed: 'refused',
};
const STAGE_KEYS: Record<WithdrawalStage, `withdraw.stage_${WithdrawalStage}`> = {
  awaiting_review: 'withdraw.stage_awaiting_review',
  approved: 'withdraw.stage_approved',
  sending: 'withdraw.stage_sending',
  paid: 'withdraw.stage_paid',
  rejected: 'withdraw.stage_rejected',
  failed: 'withdraw.stage_failed',
};

export function statusTone(status: WithdrawalStatus): StatusTone {
  return TONES[status];
}

/** The locale key of a status ("Pending", "Successful", "Failed"). */
export function statusKey(status: WithdrawalStatus): `withdraw.status_${WithdrawalStatus}` {
  return `withdraw.status_${status}`;
}

/** The locale key of a stage ("Awaiting review", …, "Rejected"). */
export function stageKey(stage: WithdrawalStage): `withdraw.stage_${WithdrawalStage}` {
  return STAGE_KEYS[stage];
}

/** The reason to show: only a rejected or failed withdrawal has one worth showing. */
export function reasonOf(record: Pick<WithdrawalRecord, 'stage' | 'reason'>): string | null {
  if (record.stage !== 'rejected' && record.stage !== 'failed') return null;
  const reason = record.reason?.trim() ?? '';
  return reason === '' ? null : reason;
}
