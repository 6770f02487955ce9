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

/**
 * A rate below 1 as a percentage ("0.002" -> "0.2%", "0.0035" -> "0.35%", "0.1" -> "10%", "0" ->
 * "0%"): the decimal point moved two places in the digits. Kept as is when it is not such a rate.
 */
export function ratePercent(rate: string): string {
  if (!isFeeRate(rate)) return rate;
  const fraction = rate.split('.')[1] ?? '';
  const digits = `0${fraction.padEnd(2, '0')}`;
  const whole = digits.slice(0, 3).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(3).replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''}%`;
}
