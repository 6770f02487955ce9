/**
 * The local days hosting interest accrues on (docs/protocol.md section 20), in the
 * business time zone (COFFER_TIMEZONE), computed with luxon in the zone itself: a day runs from
 * one local midnight to the next, so a daylight-saving change makes a day of 23 or 25 hours and
 * nothing else moves. Times count in whole minutes: a change counts from the start of its minute.
 *
 * An order created on local day D0 earns from the midnight after it (`interestFrom`, the start of
 * D0 + 1) for `days` local days; it matures at the midnight ending the last of them (`endAt`, the
 * start of D0 + days + 1), when the job pays the last day and returns the principal.
 */
import { DateTime } from 'luxon';
import { minor } from '../../../contract/money.js';
import type { PrincipalSpan } from '../../../contract/hosting-interest.js';

const MINUTE_MS = 60_000;

function local(at: Date, timeZone: string): DateTime {
  const value = DateTime.fromJSDate(at, { zone: timeZone });
  if (!value.isValid) throw new Error(`unknown time zone ${timeZone}`);
  return value;
}

/** `at` rounded down to its minute (every zone in use has whole-minute offsets). */
export const minuteOf = (at: Date): Date => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);

/** The local date of `at`, `YYYY-MM-DD`. */
export function localDateOf(at: Date, timeZone: string): string {
  return local(at, timeZone).toISODate() ?? '';
}

/** The local midnight starting the day `at` falls on. */
export function startOfLocalDay(at: Date, timeZone: string): Date {
  return local(at, timeZone).startOf('day').toJSDate();
}

/** The local midnight `days` days after the one starting the day of `at` (days may be negative). */
export function localMidnightAfter(at: Date, timeZone: string, days: number): Date {
  return local(at, timeZone).startOf('day').plus({ days }).toJSDate();
}

/** One local day: its date, start and end (local midnights) and its length in minutes. */
export interface LocalDay {
  date: string;
  start: Date;
  end: Date;
  minutes: number;
}

/** The local day starting at or containing `at`. */
export function localDayOf(at: Date, timeZone: string): LocalDay {
  const start = local(at, timeZone).startOf('day');
  const end = start.plus({ days: 1 });
  return {
    date: start.toISODate() ?? '',
    start: start.toJSDate(),
    end: end.toJSDate(),
    minutes: Math.round(end.diff(start).as('minutes')),
  };
}

/** When an order created at `createdAt` for `days` days starts earning and matures. */
export function termOf(createdAt: Date, days: number, timeZone: string): { interestFrom: Date; endAt: Date } {
  return {
    interestFrom: localMidnightAfter(createdAt, timeZone, 1),
    endAt: localMidnightAfter(createdAt, timeZone, days + 1),
  };
}

/** A point of an order's principal timeline: from `at` (its minute) the principal is `principalAfter`. */
export interface PrincipalStep {
  at: Date;
  principalAfter: bigint;
}

/**
 * The spans of [from, to) during which the principal stayed the same, from the order's
 * timeline (steps in the order they happened). Before the first step the principal is 0. Pure.
 */
export function spansOf(steps: readonly PrincipalStep[], from: Date, to: Date): PrincipalSpan[] {
  const spans: PrincipalSpan[] = [];
  let principal = 0n;
  let cursor = from.getTime();
  const end = to.getTime();
  if (end <= cursor) return spans;
  for (const step of steps) {
    const at = minuteOf(step.at).getTime();
    if (at <= cursor) {
      principal = step.principalAfter;
      continue;
    }
    if (at >= end) break;
    spans.push({ principal: minor(principal), minutes: (at - cursor) / MINUTE_MS });
    cursor = at;
    principal = step.principalAfter;
  }
  spans.push({ principal: minor(principal), minutes: (end - cursor) / MINUTE_MS });
  return spans.filter((span) => span.minutes > 0);
}
