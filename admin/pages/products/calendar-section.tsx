/**
 * The working-day calendar as a month view: each day working or off (weekends are off, weekdays
 * working, unless the calendar says otherwise); a day's button changes it through a confirm
 * that states the effect on withdrawals. Every day is a button in a table: Tab reaches it,
 * Enter or Space opens the confirm, and its name says the date and what it is (after the
 * number and short state it shows).
 */
import { Button } from 'antd';
import { useState } from 'react';
import { calendarListDataSchema } from '../../../contract/api/calendar.js';
import { useConsole } from '../../app/context.js';
import { useI18n, type MessageKey } from '../../i18n/i18n.js';
import { useConfirm } from '../../ui/confirm.js';
import { useAction } from '../../ui/use-action.js';
import { useLoaded } from './use-loaded.js';

interface Month {
  year: number;
  /** 0 = January. */
  month: number;
}

const isoDate = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);

/** The month's days in weeks of Monday to Sunday, null where a week reaches outside the month. */
function weeksOf({ year, month }: Month): Array<Array<number | null>> {
  const first = (new Date(Date.UTC(year, month, 1)).getUTCDay() + 6) % 7; // Monday 0
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cells = [...Array<null>(first).fill(null), ...Array.from({ length: days }, (_, index) => index + 1)];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** What a change of the day does: the kind to send and the effect to state. */
function changeOf(weekend: boolean, exception: 'holiday' | 'workday' | undefined) {
  if (exception) {
    return {
      kind: 'normal',
      effect: (weekend
        ? 'products.confirm_day_normal_off'
        : 'products.confirm_day_normal_work') as MessageKey,
    } as const;
  }
  return weekend
    ? ({ kind: 'workday', effect: 'products.confirm_day_workday' } as const)
    : ({ kind: 'holiday', effect: 'products.confirm_day_holiday' } as const);
}

export function CalendarSection() {
  const { t, locale } = useI18n();
  const { api } = useConsole();
  const run = useAction();
  const confirm = useConfirm();
  const calendar = useLoaded('/api/admin/calendar/list', calendarListDataSchema);
  const [shown, setShown] = useState<Month>(() => {
    const now = new Date();
    return { year: now.getFullYear(), month: now.getMonth() };
  });
  const exceptions = new Map((calendar.data?.items ?? []).map((item) => [item.date, item.kind]));
  const utc = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options });
  const monthName = utc({ year: 'numeric', month: 'long' }).format(Date.UTC(shown.year, shown.month, 1));
  const weekdayNames = Array.from({ length: 7 }, (_, index) =>
    // 2024-01-01 was a Monday.
    utc({ weekday: 'short' }).format(Date.UTC(2024, 0, 1 + index)),
  );
  const move = (by: number) =>
    setShown(({ year, month }) => ({
      year: year + Math.floor((month + by) / 12),
      month: (((month + by) % 12) + 12) % 12,
    }));

  const change = (day: number, weekend: boolean) => {
    const date = isoDate(shown.year, shown.month, day);
    const { kind, effect } = changeOf(weekend, exceptions.get(date));
    const longDate = utc({ dateStyle: 'full' }).format(Date.UTC(shown.year, shown.month, day));
    confirm(t(effect, { date: longDate }), async () => {
      const done = await run(() =>
        api.command('/api/admin/calendar/set', { date, kind }, calendarListDataSchema),
      );
      if (done) calendar.setData(done);
    });
  };

  return (
    <>
      <div className="console-month-head">
        <Button onClick={() => move(-1)}>{t('products.month_previous')}</Button>
        <h2 className="console-month-title" aria-live="polite">
          {monthName}
        </h2>
        <Button onClick={() => move(1)}>{t('products.month_next')}</Button>
      </div>
      <p>{t('products.calendar_hint')}</p>
      <table className="console-month">
        <caption className="console-visually-hidden">{monthName}</caption>
        <thead>
          <tr>
            {weekdayNames.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(shown).map((week, index) => (
            <tr key={index}>
              {week.map((day, column) => {
                if (day === null) return <td key={column} />;
                const date = isoDate(shown.year, shown.month, day);
                const weekend = column >= 5;
                const exception = exceptions.get(date);
                const working = exception ? exception === 'workday' : !weekend;
                const state = t(
                  exception === 'holiday'
                    ? 'products.day_holiday'
                    : exception === 'workday'
                      ? 'products.day_workday'
                      : working
                        ? 'products.day_working'
                        : 'products.day_weekend',
                );
                const longDate = utc({ dateStyle: 'full' }).format(Date.UTC(shown.year, shown.month, day));
                return (
                  <td key={column}>
                    <button
                      type="button"
                      className={`console-day ${working ? 'console-day-work' : 'console-day-off'}`}
                      data-date={date}
                      onClick={() => change(day, weekend)}
                    >
                      {/* The name is what shows (day, state) then the whole date and state, unseen. */}
                      <span className="console-day-number">{day}</span>{' '}
                      <span className="console-day-state">
                        {t(working ? 'products.day_short_work' : 'products.day_short_off')}
                      </span>
                      <span className="console-visually-hidden console-day-full">
                        , {longDate}: {state}
                      </span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
