/**
 * The operators' working-day calendar (withdrawals open on working days, 09:00 to 21:00 in the
 * business time zone): /api/admin/calendar/list and /api/admin/calendar/set.
 */
import { z } from 'zod';
import { choiceOf, listOf, text } from '../schema.js';

/** `holiday`: a weekday off; `workday`: a weekend day worked; `normal`: removes the exception. */
export const CALENDAR_KINDS = ['holiday', 'workday', 'normal'] as const;

export const calendarSetParamsSchema = z.object({
  /** A local date in the business time zone, `2026-10-01`. */
  date: text({ max: 32 }).refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
    {
      error: 'server.field_invalid',
    },
  ),
  kind: choiceOf(CALENDAR_KINDS),
});
export type CalendarSetParams = z.infer<typeof calendarSetParamsSchema>;

export const calendarDaySchema = z.object({ date: z.string(), kind: z.enum(['holiday', 'workday']) });
export const calendarListDataSchema = listOf(calendarDaySchema);
export type CalendarListData = z.infer<typeof calendarListDataSchema>;
