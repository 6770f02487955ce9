/**
 * When withdrawals may be started (spec sections 5 and 9): on working days from 09:00
 * (inclusive) to 21:00 (exclusive) in the business time zone. Working days are Monday to Friday,
 * except the holidays operators list, plus the make-up working days they list (a Saturday or
 * Sunday worked in exchange for a holiday, as China's calendar has them). Times are computed with
 * luxon in the zone itself, so a daylight-saving change moves nothing: 09:00 is 09:00 local.
 */
import { DateTime } from 'luxon';
import { WITHDRAWAL_WINDOW } from '../../contract/constants.js';

/** Operators' calendar: local dates (`2026-10-01`) that are off, and weekend dates that are worked. */
export interface WorkCalendar {
  holidays: ReadonlySet<string>;
  workdays: ReadonlySet<string>;
}

export const NO_EXCEPTIONS: WorkCalendar = { holidays: new Set(), workdays: new Set() };

export interface WindowState {
  open: boolean;
  /** When closed: the next opening. When open: null. */
  nextOpen: Date | null;
  /** When open: today's closing. When closed: null. */
  closesAt: Date | null;
}

const [OPEN_HOUR = 9, OPEN_MINUTE = 0] = WITHDRAWAL_WINDOW.opens.split(':').map(Number);
const [CLOSE_HOUR = 21, CLOSE_MINUTE = 0] = WITHDRAWAL_WINDOW.closes.split(':').map(Number);
/** A calendar can hold long holidays, but never a year without a working day. */
const MAX_DAYS_AHEAD = 366;

/** Whether a local date (`yyyy-MM-dd`) is a working day under `calendar`. */
export function isWorkingDay(date: DateTime, calendar: WorkCalendar): boolean {
  const key = date.toISODate() ?? '';
  if (calendar.holidays.has(key)) return false;
  if (calendar.workdays.has(key)) return true;
  return date.weekday <= 5; // luxon: Monday 1 ... Sunday 7
}

/** Whether withdrawals are open at `now` in `timeZone`, and when they next open or close. */
export function withdrawalWindow(now: Date, timeZone: string, calendar: WorkCalendar): WindowState {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  if (!local.isValid) throw new Error(`unknown time zone ${timeZone}`);
  const day = local.startOf('day');
  const opens = day.set({ hour: OPEN_HOUR, minute: OPEN_MINUTE });
  const closes = day.set({ hour: CLOSE_HOUR, minute: CLOSE_MINUTE });
  if (isWorkingDay(day, calendar) && local >= opens && local < closes) {
    return { open: true, nextOpen: null, closesAt: closes.toJSDate() };
  }
  let candidate = local < opens ? day : day.plus({ days: 1 });
  for (let step = 0; step < MAX_DAYS_AHEAD; step += 1) {
    if (isWorkingDay(candidate, calendar)) {
      return {
        open: false,
        nextOpen: candidate.set({ hour: OPEN_HOUR, minute: OPEN_MINUTE }).toJSDate(),
        closesAt: null,
      };
    }
    candidate = candidate.plus({ days: 1 });
  }
  return { open: false, nextOpen: null, closesAt: null };
}
