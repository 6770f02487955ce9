/**
 * The withdrawal window (spec sections 5 and 9): working days 09:00 (inclusive) to 21:00
 * (exclusive) in the business time zone, operators' holidays and make-up working days, and the
 * next opening when closed; in Asia/Shanghai and in zones whose clocks change (Europe/Berlin in
 * spring, America/New_York in autumn).
 */
import { describe, expect, test } from 'vitest';
import {
  NO_EXCEPTIONS,
  withdrawalWindow,
  type WorkCalendar,
} from '../../server/services/withdrawal-window.js';

const at = (iso: string) => new Date(iso);
const window = (iso: string, zone = 'Asia/Shanghai', calendar: WorkCalendar = NO_EXCEPTIONS) =>
  withdrawalWindow(at(iso), zone, calendar);

describe('the withdrawal window in Asia/Shanghai (UTC+8), Monday 2026-11-23', () => {
  test('08:59:59 is closed and opens at 09:00 the same day', () => {
    expect(window('2026-11-23T00:59:59Z')).toEqual({
      open: false,
      nextOpen: at('2026-11-23T01:00:00Z'),
      closesAt: null,
    });
  });
  test('09:00:00 is open, closing at 21:00', () => {
    expect(window('2026-11-23T01:00:00Z')).toEqual({
      open: true,
      nextOpen: null,
      closesAt: at('2026-11-23T13:00:00Z'),
    });
  });
  test('20:59:59 is open; 21:00:00 is closed and opens at 09:00 on Tuesday', () => {
    expect(window('2026-11-23T12:59:59Z').open).toBe(true);
    expect(window('2026-11-23T13:00:00Z')).toEqual({
      open: false,
      nextOpen: at('2026-11-24T01:00:00Z'),
      closesAt: null,
    });
  });
  test('Friday 21:00 and the weekend open again on Monday at 09:00', () => {
    expect(window('2026-11-27T13:00:00Z').nextOpen).toEqual(at('2026-11-30T01:00:00Z'));
    expect(window('2026-11-28T03:00:00Z')).toMatchObject({
      open: false,
      nextOpen: at('2026-11-30T01:00:00Z'),
    });
    expect(window('2026-11-29T12:00:00Z').open).toBe(false);
  });
  test('a holiday is closed all day; the next working day opens', () => {
    const calendar = { holidays: new Set(['2026-11-23', '2026-11-24']), workdays: new Set<string>() };
    expect(window('2026-11-23T02:00:00Z', 'Asia/Shanghai', calendar)).toMatchObject({
      open: false,
      nextOpen: at('2026-11-25T01:00:00Z'),
    });
  });
  test('a make-up working day on a Saturday is open 09:00 to 21:00, and is the next opening from Friday night', () => {
    const calendar = { holidays: new Set<string>(), workdays: new Set(['2026-11-28']) };
    expect(window('2026-11-28T02:00:00Z', 'Asia/Shanghai', calendar).open).toBe(true);
    expect(window('2026-11-27T13:00:00Z', 'Asia/Shanghai', calendar).nextOpen).toEqual(
      at('2026-11-28T01:00:00Z'),
    );
    expect(window('2026-11-28T13:00:00Z', 'Asia/Shanghai', calendar).nextOpen).toEqual(
      at('2026-11-30T01:00:00Z'),
    );
  });
});

describe('zones whose clocks change', () => {
  test('Europe/Berlin, summer time from Sunday 2026-03-29: Friday opens 09:00 CET (08:00Z), Monday 09:00 CEST (07:00Z)', () => {
    expect(window('2026-03-27T07:59:59Z', 'Europe/Berlin').open).toBe(false);
    expect(window('2026-03-27T08:00:00Z', 'Europe/Berlin').open).toBe(true);
    expect(window('2026-03-27T20:00:00Z', 'Europe/Berlin').nextOpen).toEqual(at('2026-03-30T07:00:00Z'));
    expect(window('2026-03-30T06:59:59Z', 'Europe/Berlin').open).toBe(false);
    expect(window('2026-03-30T07:00:00Z', 'Europe/Berlin').open).toBe(true);
    expect(window('2026-03-30T18:59:59Z', 'Europe/Berlin').open).toBe(true);
    expect(window('2026-03-30T19:00:00Z', 'Europe/Berlin').open).toBe(false);
  });
  test('America/New_York, standard time from Sunday 2026-11-01: Friday closes 21:00 EDT (01:00Z), Monday opens 09:00 EST (14:00Z)', () => {
    expect(window('2026-10-31T00:59:59Z', 'America/New_York').open).toBe(true);
    expect(window('2026-10-31T01:00:00Z', 'America/New_York')).toMatchObject({
      open: false,
      nextOpen: at('2026-11-02T14:00:00Z'),
    });
    expect(window('2026-11-02T13:59:59Z', 'America/New_York').open).toBe(false);
    expect(window('2026-11-02T14:00:00Z', 'America/New_York').open).toBe(true);
  });
});
