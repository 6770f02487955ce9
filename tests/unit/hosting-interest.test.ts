/**
 * Hosting interest's rule (docs/protocol.md section 20), without a database: exact
 * rates, a day's interest floor(Σ principal × minutes × rate / minutes of the day), the closed
 * form of a whole term, the local days of the business time zone (23- and 25-hour days on a DST
 * change), the spans of a principal timeline, and the valid-hosting threshold at 500.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyRate,
  dayInterest,
  isDailyRate,
  isRate,
  isValidHosting,
  normalizeRate,
  parseRate,
  principalMinutesOf,
  termInterest,
} from '../../contract/hosting-interest.js';
import { minor, parseMoney, type Minor } from '../../contract/money.js';
import { localDayOf, spansOf, termOf, type PrincipalStep } from '../../server/services/hosting/days.js';

const MINUTE = 60_000;

describe('rates', () => {
  test('a rate is an exact decimal from 0 to below 1 with at most 12 fraction digits, read as a fraction', () => {
    expect(parseRate('0.0035')).toEqual({ numerator: 35n, denominator: 10_000n });
    expect(parseRate('0')).toEqual({ numerator: 0n, denominator: 1n });
    for (const text of ['0.003', '0.000000000001', '0.999999999999']) expect(isRate(text)).toBe(true);
    for (const text of ['1', '-0.1', '0.1e1', '.5', '0.0000000000001', '0,5', ' 0.1', '1.0', 'NaN', ''])
      expect(isRate(text), text).toBe(false);
    expect(isDailyRate('0')).toBe(false);
    expect(isDailyRate('0.000')).toBe(false);
    expect(isDailyRate('0.0001')).toBe(true);
    expect(normalizeRate('0.00350')).toBe('0.0035');
    expect(normalizeRate('0.000')).toBe('0');
  });

  test('applyRate is floor(amount × rate): 1234.56 USDT at 0.003 is 3.70368, 150 at 0.01 is 1.5', () => {
    expect(applyRate(parseMoney('1234.56'), parseRate('0.003'))).toBe(3_703_680n);
    expect(applyRate(parseMoney('150'), parseRate('0.01'))).toBe(1_500_000n);
    expect(applyRate(minor(333n), parseRate('0.003'))).toBe(0n); // 0.999 of a minor unit: rounded down
  });
});

describe('a day’s interest', () => {
  const rate = parseRate('0.003');

  test('a mid-day change is prorated by minutes: 1000 for 16 hours and 1500 for 8 earn 3.5 at 0.003', () => {
    const spans = [
      { principal: parseMoney('1000'), minutes: 960 },
      { principal: parseMoney('1500'), minutes: 480 },
    ];
    expect(dayInterest(principalMinutesOf(spans), 1440, rate)).toBe(parseMoney('3.5'));
  });

  test('one principal all day earns floor(principal × rate) whatever the day’s length or how it is split (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.constantFrom(1380, 1440, 1500),
        fc.array(fc.integer({ min: 1, max: 1379 }), { maxLength: 6 }),
        (amount, rateMillionths, minutesOfDay, cuts) => {
          const principal = minor(amount);
          const dayRate = parseRate(`0.${String(rateMillionths).padStart(6, '0')}`);
          const points = [...new Set([0, ...cuts, minutesOfDay])].sort((a, b) => a - b);
          const spans = points
            .slice(1)
            .map((end, index) => ({ principal, minutes: end - (points[index] ?? 0) }));
          expect(dayInterest(principalMinutesOf(spans), minutesOfDay, dayRate)).toBe(
            applyRate(principal, dayRate),
          );
        },
      ),
    );
  });

  test('a whole term at one principal is days × floor(principal × rate): the closed form (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        fc.integer({ min: 1, max: 99_999 }),
        fc.integer({ min: 1, max: 400 }),
        (amount, rateUnits, days) => {
          const principal = minor(amount);
          const dayRate = parseRate(`0.${String(rateUnits).padStart(5, '0')}`);
          let total = 0n;
          for (let day = 0; day < days; day += 1)
            total += dayInterest(principalMinutesOf([{ principal, minutes: 1440 }]), 1440, dayRate);
          expect(termInterest(principal, dayRate, days)).toEqual({
            daily: applyRate(principal, dayRate),
            total: minor(total),
          });
        },
      ),
    );
  });

  test('a day’s interest is never more than the exact share and never a minor unit less (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            principal: fc.bigInt({ min: 0n, max: 10n ** 13n }),
            minutes: fc.integer({ min: 0, max: 300 }),
          }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        fc.integer({ min: 1, max: 99_999 }),
        (raw, rateUnits) => {
          const spans = raw.map((span) => ({ principal: minor(span.principal), minutes: span.minutes }));
          const minutesOfDay = Math.max(
            1440,
            spans.reduce((sum, span) => sum + span.minutes, 0),
          );
          const dayRate = parseRate(`0.${String(rateUnits).padStart(5, '0')}`);
          const interest = dayInterest(principalMinutesOf(spans), minutesOfDay, dayRate);
          const exactTimesDenominator = principalMinutesOf(spans) * dayRate.numerator;
          const denominator = dayRate.denominator * BigInt(minutesOfDay);
          expect(interest * denominator <= exactTimesDenominator).toBe(true);
          expect((interest + 1n) * denominator > exactTimesDenominator).toBe(true);
        },
      ),
    );
  });
});

describe('local days and terms', () => {
  test('an order created at 10:00 in Shanghai earns from the next midnight and matures `days` midnights later', () => {
    const created = new Date('2026-01-05T02:00:00Z'); // 10:00 local
    expect(termOf(created, 7, 'Asia/Shanghai')).toEqual({
      interestFrom: new Date('2026-01-05T16:00:00Z'),
      endAt: new Date('2026-01-12T16:00:00Z'),
    });
    // Created a minute before midnight: the next day is already its first interest day.
    expect(termOf(new Date('2026-01-05T15:59:00Z'), 1, 'Asia/Shanghai').interestFrom).toEqual(
      new Date('2026-01-05T16:00:00Z'),
    );
  });

  test('a DST change makes a local day of 23 or 25 hours (1380 or 1500 minutes) and a full day still earns floor(principal × rate)', () => {
    const spring = localDayOf(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin');
    expect(spring).toMatchObject({ date: '2026-03-29', minutes: 1380 });
    const autumn = localDayOf(new Date('2026-10-25T12:00:00Z'), 'Europe/Berlin');
    expect(autumn).toMatchObject({ date: '2026-10-25', minutes: 1500 });
    expect(localDayOf(new Date('2026-03-29T12:00:00Z'), 'Asia/Shanghai').minutes).toBe(1440);
    const steps: PrincipalStep[] = [
      { at: new Date('2026-03-28T10:00:00Z'), principalAfter: parseMoney('1000') },
    ];
    const rate = parseRate('0.003');
    const full = principalMinutesOf(spansOf(steps, spring.start, spring.end));
    expect(dayInterest(full, spring.minutes, rate)).toBe(parseMoney('3'));
    // Halfway through the short day (11.5 of 23 hours), 1000 more: 1000 × 1 + 1000 × 0.5 = 1500 × 0.003 = 4.5
    const half = new Date(spring.start.getTime() + 690 * MINUTE);
    const changed = [...steps, { at: half, principalAfter: parseMoney('2000') }];
    expect(
      dayInterest(principalMinutesOf(spansOf(changed, spring.start, spring.end)), spring.minutes, rate),
    ).toBe(parseMoney('4.5'));
  });

  test('the spans of a timeline: principal 0 before the first step, a change counts from the start of its minute, steps in one minute keep the last', () => {
    const start = new Date('2026-01-06T16:00:00Z');
    const end = new Date(start.getTime() + 1440 * MINUTE);
    const at = (minutes: number, seconds = 0) =>
      new Date(start.getTime() + minutes * MINUTE + seconds * 1000);
    const steps: PrincipalStep[] = [
      { at: new Date('2026-01-05T02:00:00Z'), principalAfter: 100n },
      { at: at(60, 59), principalAfter: 300n },
      { at: at(60, 10), principalAfter: 200n },
      { at: at(600), principalAfter: 0n },
    ];
    // Steps come in the order they happened; same minute: the later one counts.
    const ordered = [steps[0], steps[2], steps[1], steps[3]].filter((step): step is PrincipalStep => !!step);
    expect(spansOf(ordered, start, end)).toEqual([
      { principal: 100n, minutes: 60 },
      { principal: 300n, minutes: 540 },
      { principal: 0n, minutes: 840 },
    ]);
    expect(spansOf([], start, end)).toEqual([{ principal: 0n, minutes: 1440 }]);
    expect(spansOf(ordered, end, start)).toEqual([]);
  });
});

describe('valid hosting (spec sections 5 and 9)', () => {
  test('a hosting balance of 500.00 counts as valid hosting; 499.99 does not', () => {
    expect(isValidHosting(parseMoney('500.00'))).toBe(true);
    expect(isValidHosting(parseMoney('499.99'))).toBe(false);
    expect(isValidHosting(parseMoney('499.999999'))).toBe(false);
    expect(isValidHosting(parseMoney('500.000001'))).toBe(true);
    expect(isValidHosting(0n as Minor)).toBe(false);
  });
});
