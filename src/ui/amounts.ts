/**
 * How a wire amount and a wire rate read on screen, shared by every money page: exact, from the
 * digits, never through a float. Pure.
 */
import { isFeeRate } from '../../contract/exchange-quote.js';
import { formatMoney, MoneyFormatError, parseMoney, type Minor } from '../../contract/money.js';

/** A wire amount (up to 6 decimals) in minor units; null when it is not one. */
export function moneyOrNull(text: string | null | undefined): Minor | null {
  if (text == null) return null;
  try {
    return parseMoney(text);
  } catch (error) {
    if (error instanceof MoneyFormatError) return null;
    throw error;
  }
}

/** A wire amount as shown: exact, trailing zeros dropped; kept as is when it is not one. */
export function shownAmount(amount: string): string {
  const parsed = moneyOrNull(amount);
  return parsed === null ? amount : formatMoney(parsed);
}

/** Which way a line's money went: in, out, or neither (a zero). */
export type Direction = 'in' | 'out' | 'none';

/**
 * A signed wire amount as a list shows it: exact, always with its sign ("+10", "-2.5", "0"), so
 * colour is never the only signal, and which way the money went.
 */
export function signedAmount(amount: string): { text: string; direction: Direction } {
  const shown = shownAmount(amount);
  if (shown.startsWith('-')) return { text: shown, direction: 'out' };
  if (/^[0.]+$/.test(shown)) return { text: shown, direction: 'none' };
  return { text: `+${shown.replace(/^\+/, '')}`, direction: 'in' };
}

/**
 * A non-negative decimal as a percent ("1.0234" -> "102.34", "0.002" -> "0.2", "0" -> "0"): the
 * decimal point moved two places in the digits, never through a float; null when it is not one.
 */
export function percentOf(decimal: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const whole = `${match[1] ?? '0'}${fraction.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = fraction.slice(2).replace(/0+$/, '');
  return rest === '' ? whole : `${whole}.${rest}`;
}

/** A decimal as a percentage with its sign ("0.3333" -> "33.33%"); kept as is when it is not a decimal. */
export function percentText(decimal: string): string {
  const percent = percentOf(decimal);
  return percent === null ? decimal : `${percent}%`;
}

/** A rate below 1 as a percentage ("0.0035" -> "0.35%"); kept as is when it is not such a rate. */
export function ratePercent(rate: string): string {
  return isFeeRate(rate) ? percentText(rate) : rate;
}
