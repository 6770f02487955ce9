/** SQL of the working-day calendar. */
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { workCalendar } from '../db/schema.js';

export type CalendarRow = typeof workCalendar.$inferSelect;

export async function calendarDays(db: Executor): Promise<CalendarRow[]> {
  return db.select().from(workCalendar).orderBy(asc(workCalendar.date));
}

export async function setCalendarDay(db: Executor, row: CalendarRow): Promise<void> {
  await db
    .insert(workCalendar)
    .values(row)
    .onConflictDoUpdate({
      target: workCalendar.date,
      set: { kind: row.kind, updatedAt: row.updatedAt, updatedBy: row.updatedBy },
    });
}

export async function clearCalendarDay(db: Executor, date: string): Promise<void> {
  await db.delete(workCalendar).where(eq(workCalendar.date, date));
}
