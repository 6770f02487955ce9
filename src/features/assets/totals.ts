/**
 * The figures of the Assets tab and the home tab's total, from one account's synced balances and
 * the operator's RAB price. Pure, and exact: money stays in minor units (contract/money.ts).
 */
import type { BalanceRecord } from '../../../contract/api/account.js';
import { minor, parseMoney, valueAt, type Minor } from '../../../contract/money.js';

export type BalanceFigures = Pick<BalanceRecord, 'cash' | 'hosting' | 'held' | 'rab' | 'rabHeld'>;

export interface AccountTotal {
  cash: Minor;
  hosting: Minor;
  held: Minor;
  rab: Minor;
  rabHeld: Minor;
  /** The RAB price in USDT, or null while no price has been synced (RAB then counts as 0). */
  rabPrice: Minor | null;
  /** The value in USDT of all RAB (available and held) at `rabPrice`, rounded down. */
  rabValue: Minor;
  /** cash + hosting + held + rabValue, in USDT. */
  total: Minor;
}

/**
 * The total in USDT of one account: cash + hosting + held + the value of its RAB (available and
 * held) at the RAB price. Without a price RAB is left out of the total, never guessed.
 * @throws MoneyFormatError when a figure is not a wire decimal (the worker parsed them, so never).
 */
export function accountTotal(balance: BalanceFigures, rabPriceUsdt: string | null): AccountTotal {
  const cash = parseMoney(balance.cash);
  const hosting = parseMoney(balance.hosting);
  const held = parseMoney(balance.held);
  const rab = parseMoney(balance.rab);
  const rabHeld = parseMoney(balance.rabHeld);
  const rabPrice = rabPriceUsdt === null ? null : parseMoney(rabPriceUsdt);
  const rabValue = rabPrice === null ? minor(0n) : valueAt(minor(rab + rabHeld), rabPrice);
  return {
    cash,
    hosting,
    held,
    rab,
    rabHeld,
    rabPrice,
    rabValue,
    total: minor(cash + hosting + held + rabValue),
  };
}

/** The balances of an account nothing has been synced for yet: every figure 0. */
export const EMPTY_BALANCE: BalanceFigures = { cash: '0', hosting: '0', held: '0', rab: '0', rabHeld: '0' };
