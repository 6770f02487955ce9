/** SQL of the working-day calendar. */
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { workCalendar } from '../db/schema.js';
import { upsertRow } from './rows.js';

export type CalendarRow = typeof workCalendar.$inferSelect;

export async function calendarDays(db: Executor): Promise<CalendarRow[]> {
  return db.select().from(workCalendar).orderBy(asc(workCalendar.date));
}

export const setCalendarDay = (db: Executor, row: CalendarRow): Promise<CalendarRow> =>
  upsertRow(db, workCalendar, workCalendar.date, row, {
    kind: row.kind,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  });

export async function clearCalendarDay(db: Executor, date: string): Promise<void> {
  await db.delete(workCalendar).where(eq(workCalendar.date, date));
}
