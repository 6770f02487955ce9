/**
 * What the mining machine pages show: a buy's or a rent's cost and output computed
 * with the server's own exact rule (contract/machine-output.ts), so the figures on screen are the
 * ones the ledger and the daily job will move; the account's totals over its holdings; mining
 * records joined with the machine that earned them; how a settled command reads. Pure; no zod,
 * no IndexedDB.
 */
import type { IncomeRecord } from '../../../contract/api/income.js';
import type {
  MachineRecord,
  OwnedMachineRecord,
  PayWith,
  TicketRecord,
} from '../../../contract/api/machine.js';
import {
  MAX_QUANTITY,
  costOf,
  dayOutput,
  sumHashPower,
  totalHashPower,
} from '../../../contract/machine-output.js';
import { formatMoney, minor, moneyText } from '../../../contract/money.js';
import { moneyOrNull, shownAmount } from '../../ui/amounts.js';

export { shownAmount };

export type AcquireMode = 'buy' | 'rent';

/** A machine's name in `locale`, else Simplified Chinese, else English, else any (as the server names it). */
export function nameIn(names: Record<string, string>, locale: string): string {
  return names[locale] ?? names['zh-Hans'] ?? names['en'] ?? Object.values(names)[0] ?? '';
}

/** A whole number from `min` to `max` typed as digits; null for anything else. Pure. */
export function parseWhole(text: string, min: number, max: number): number | null {
  const typed = text.trim();
  if (!/^\d{1,6}$/.test(typed)) return null;
  const value = Number(typed);
  return value >= min && value <= max ? value : null;
}

/**
 * What a buy or a rent typed so far would do:
 * - `invalid`: `field` is not a whole number in its range (quantity 1 to 100; days 1 to the term);
 * - `not_for_tickets` / `not_for_rent`: the machine is not sold that way;
 * - `ok`: the USDT it costs (`cost`, "0" with tickets) or the tickets (`tickets`), what it earns a
 *   day and over its `days`, and `short` when the cash or the available tickets known on the
 *   device fall short (the server then answers 470).
 */
export type AcquirePreview =
  | { kind: 'invalid'; field: 'quantity' | 'days'; max: number }
  | { kind: 'not_for_tickets' }
  | { kind: 'not_for_rent' }
  | {
      kind: 'ok';
      quantity: number;
      days: number;
      cost: string;
      tickets: number;
      daily: string;
      total: string;
      short: boolean;
    };

/**
 * The preview of buying (`mode` buy, paid `payWith`) or renting (`mode` rent, for `daysText`
 * days) `quantityText` machines of `machine`, with `cash` (a wire decimal) and `ticketsAvailable`
 * as known on the device (null: unknown). Pure.
 */
export function acquirePreview(
  machine: Pick<MachineRecord, 'hashPower' | 'dailyOutput' | 'price' | 'ticketPrice' | 'days' | 'rentPrice'>,
  mode: AcquireMode,
  input: { quantityText: string; daysText: string; payWith: PayWith },
  have: { cash: string | null; ticketsAvailable: number | null },
): AcquirePreview {
  if (mode === 'rent' && machine.rentPrice === null) return { kind: 'not_for_rent' };
  if (mode === 'buy' && input.payWith === 'ticket' && machine.ticketPrice === 0)
    return { kind: 'not_for_tickets' };
  const quantity = parseWhole(input.quantityText, 1, MAX_QUANTITY);
  if (quantity === null) return { kind: 'invalid', field: 'quantity', max: MAX_QUANTITY };
  const days = mode === 'buy' ? machine.days : parseWhole(input.daysText, 1, machine.days);
  if (days === null) return { kind: 'invalid', field: 'days', max: machine.days };
  const daily = dayOutput(machine.hashPower, quantity, machine.dailyOutput);
  const paysTickets = mode === 'buy' && input.payWith === 'ticket';
  const unit = moneyOrNull(mode === 'buy' ? machine.price : machine.rentPrice);
  const cost = paysTickets || unit === null ? minor(0n) : costOf(unit, quantity, mode === 'rent' ? days : 1);
  const tickets = paysTickets ? machine.ticketPrice * quantity : 0;
  const cash = moneyOrNull(have.cash);
  const short = paysTickets
    ? have.ticketsAvailable !== null && tickets > have.ticketsAvailable
    : cash !== null && cost > cash;
  return {
    kind: 'ok',
    quantity,
    days,
    cost: formatMoney(cost),
    tickets,
    daily: formatMoney(daily),
    total: moneyText(daily * BigInt(days)),
    short,
  };
}

/** The account's totals over its holdings, as the pages show them. */
export interface HoldingsSummary {
  active: number;
  /** T of the active holdings. */
  hashPower: string;
  /** USDT the active holdings earn a day. */
  dailyOutput: string;
  /** USDT every holding earned. */
  earned: string;
}

/** Totals of `holdings` (the synced `owned_machines`), exact. Pure. */
export function holdingsSummary(holdings: readonly OwnedMachineRecord[]): HoldingsSummary {
  const active = holdings.filter((holding) => holding.status === 'active');
  let daily = 0n;
  let earned = 0n;
  for (const holding of active) daily += dayOutput(holding.hashPower, holding.quantity, holding.dailyOutput);
  for (const holding of holdings) earned += moneyOrNull(holding.earned) ?? 0n;
  return {
    active: active.length,
    hashPower: sumHashPower(active.map((holding) => totalHashPower(holding.hashPower, holding.quantity))),
    dailyOutput: moneyText(daily),
    earned: moneyText(earned),
  };
}

/** How far a holding is through its term, 0 to 100 (whole percent, rounded down). Pure. */
export function termPercent(holding: Pick<OwnedMachineRecord, 'paidDays' | 'days'>): number {
  if (holding.days <= 0) return 100;
  return Math.min(100, Math.floor((holding.paidDays * 100) / holding.days));
}

/** How a holding was acquired, as one of three labels. Pure. */
export function acquisitionOf(
  holding: Pick<OwnedMachineRecord, 'acquisition' | 'payWith'>,
): 'bought_usdt' | 'bought_tickets' | 'rented' {
  if (holding.acquisition === 'rent') return 'rented';
  return holding.payWith === 'ticket' ? 'bought_tickets' : 'bought_usdt';
}

/** A mining record: an income line of type mining_machine, with the machine that earned it when known. */
export interface MiningLine {
  id: string;
  amount: string;
  earningsDate: string;
  arrivalDate: string;
  status: IncomeRecord['status'];
  /** The machine's name in `locale`, null when its holding is not on the device. */
  name: string | null;
  /** The holding's id (`ref.id`). */
  holdingId: string;
  quantity: number | null;
}

/** Mining records from the synced income lines (others are left out), each with its machine. Pure. */
export function miningLines(
  lines: ReadonlyArray<
    Pick<IncomeRecord, 'id' | 'type' | 'amount' | 'earningsDate' | 'arrivalDate' | 'status' | 'ref'>
  >,
  holdings: readonly OwnedMachineRecord[],
  locale: string,
): MiningLine[] {
  const byId = new Map(holdings.map((holding) => [holding.id, holding]));
  return lines
    .filter((line) => line.type === 'mining_machine')
    .map((line) => {
      const holding = line.ref.table === 'owned_machines' ? byId.get(line.ref.id) : undefined;
      return {
        id: line.id,
        amount: line.amount,
        earningsDate: line.earningsDate,
        arrivalDate: line.arrivalDate,
        status: line.status,
        name: holding ? nameIn(holding.names, locale) : null,
        holdingId: line.ref.id,
        quantity: holding?.quantity ?? null,
      };
    });
}

/** The sum of mining records, exact. Pure. */
export function totalOf(lines: ReadonlyArray<{ amount: string }>): string {
  let total = 0n;
  for (const line of lines) total += moneyOrNull(line.amount) ?? 0n;
  return moneyText(total);
}

/** Tickets by status. Pure. */
export function ticketCounts(tickets: readonly Pick<TicketRecord, 'status'>[]): {
  available: number;
  used: number;
} {
  const available = tickets.filter((ticket) => ticket.status === 'available').length;
  return { available, used: tickets.length - available };
}

export { commandOutcome, type CommandOutcome } from '../outbox/command-outcome.js';
