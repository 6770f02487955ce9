/**
 * The operators' working-day calendar: holidays (weekdays off) and make-up working days
 * (weekend days worked), which decide when withdrawals open (withdrawal-window.ts). Audited.
 */
import type { CalendarListData, CalendarSetParams } from '../../contract/api/calendar.js';
import type { RequestContext } from '../core/context.js';
import type { Executor } from '../db/database.js';
import {
  calendarDays,
  clearCalendarDay,
  setCalendarDay,
  type CalendarRow,
} from '../repositories/calendar.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { actorOf } from './operator.service.js';
import { withdrawalWindow, type WindowState, type WorkCalendar } from './withdrawal-window.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** The calendar as the window needs it. */
export async function loadWorkCalendar(db: Executor): Promise<WorkCalendar> {
  const days = await calendarDays(db);
  return {
    holidays: new Set(days.filter((day) => day.kind === 'holiday').map((day) => day.date)),
    workdays: new Set(days.filter((day) => day.kind === 'workday').map((day) => day.date)),
  };
}

const listOf = (days: readonly CalendarRow[]): CalendarListData => ({
  items: days.map((day) => ({ date: day.date, kind: day.kind === 'workday' ? 'workday' : 'holiday' })),
});

export class CalendarService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly timezone: string,
  ) {
    super(core);
  }

  async list(): Promise<CalendarListData> {
    return listOf(await calendarDays(this.db));
  }

  set(ctx: RequestContext, params: CalendarSetParams): Promise<CalendarListData> {
    return this.commands.run(ctx, (tx) => this.setIn(tx, actorOf(ctx), params));
  }

  /** Whether withdrawals are open now, and when they next open. */
  async windowNow(): Promise<WindowState> {
    return withdrawalWindow(this.clock.now(), this.timezone, await loadWorkCalendar(this.db));
  }

  private async setIn(tx: Executor, actor: string, params: CalendarSetParams): Promise<CalendarListData> {
    const now = this.clock.now();
    if (params.kind === 'normal') await clearCalendarDay(tx, params.date);
    else await setCalendarDay(tx, { date: params.date, kind: params.kind, updatedAt: now, updatedBy: actor });
    await appendAudit(tx, {
      actor,
      action: 'calendar.set',
      target: params.date,
      detail: { kind: params.kind },
      at: now,
    });
    return listOf(await calendarDays(tx));
  }
}
