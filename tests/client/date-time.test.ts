/** Times as the user reads them (src/ui/DateTime.tsx): the browser's own words for each language and style. */
import { describe, expect, test } from 'vitest';
import { formatTime, type TimeStyle } from '../../src/ui/DateTime.js';

const AT = '2026-11-28T09:05:00.000Z';
const LANGUAGES = ['en', 'zh-Hans', 'ja', 'th'];

describe('formatTime', () => {
  test('writes a date alone as toLocaleDateString does, in each language', () => {
    for (const language of LANGUAGES) {
      expect(formatTime(AT, language, 'date')).toBe(new Date(AT).toLocaleDateString(language));
    }
  });

  test('writes a date with its short time as toLocaleString does, in each language and style', () => {
    for (const language of LANGUAGES) {
      for (const style of ['short', 'medium'] as const satisfies readonly TimeStyle[]) {
        expect(formatTime(AT, language, style)).toBe(
          new Date(AT).toLocaleString(language, { dateStyle: style, timeStyle: 'short' }),
        );
      }
    }
  });

  test('takes epoch milliseconds as well as ISO text, and the same language again gives the same words', () => {
    const ms = Date.parse(AT);
    expect(formatTime(ms, 'en', 'medium')).toBe(formatTime(AT, 'en', 'medium'));
    expect(formatTime(AT, 'en', 'date')).toBe(formatTime(AT, 'en', 'date'));
    expect(formatTime(AT, 'zh-Hans', 'date')).not.toBe(formatTime(AT, 'en', 'date'));
  });

  test('an unreadable time says so instead of throwing', () => {
    expect(formatTime('not a time', 'en', 'date')).toBe('Invalid Date');
    expect(formatTime('not a time', 'en', 'short')).toBe('Invalid Date');
  });
});
