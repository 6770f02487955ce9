/** Pure helpers of the synced screens: the quote chart, staleness, and the outbox badge. */
import { describe, expect, test } from 'vitest';
import { sparklinePath, trendOf } from '../../src/features/home/sparkline.js';
import {
  attentionCount,
  canCancel,
  canRetry,
  listedRows,
  RECENT_LIMIT,
  RECENT_MS,
  recentlyConfirmed,
  refusalToTell,
  type OutboxRowView,
} from '../../src/features/outbox/outbox-view.js';
import { isStale, oldestSync, STALE_AFTER_MS } from '../../client-db/freshness.js';

describe('quote chart', () => {
  test('the path spans the width, the highest price at the top and the lowest at the bottom', () => {
    expect(sparklinePath(['1', '3', '2'], 100, 20)).toBe('M0 20 L50 0 L100 10');
  });

  test('a flat history is drawn across the middle', () => {
    expect(sparklinePath(['5', '5'], 100, 20)).toBe('M0 10 L100 10');
  });

  test('fewer than two usable prices draw nothing; prices that do not parse are skipped', () => {
    expect(sparklinePath([])).toBe('');
    expect(sparklinePath(['1'])).toBe('');
    expect(sparklinePath(['x', '1', 'y'])).toBe('');
    expect(sparklinePath(['1', 'x', '2'], 10, 10)).toBe('M0 10 L10 0');
  });

  test('a change above zero is up, below zero down, zero or unreadable flat', () => {
    expect(trendOf('+1.2')).toBe('up');
    expect(trendOf('0.5')).toBe('up');
    expect(trendOf('-0.5')).toBe('down');
    expect(trendOf('0.00')).toBe('flat');
    expect(trendOf('n/a')).toBe('flat');
  });
});

describe('as of and stale', () => {
  const now = Date.parse('2026-01-01T12:00:00.000Z');

  test('data is stale past 10 minutes, fresh up to them, and stale when never synced', () => {
    expect(STALE_AFTER_MS).toBe(10 * 60 * 1000);
    expect(isStale('2026-01-01T11:50:00.000Z', now)).toBe(false);
    expect(isStale('2026-01-01T11:49:59.000Z', now)).toBe(true);
    expect(isStale(null, now)).toBe(true);
  });

  test('a screen is as old as its oldest collection, and never synced while one was never pulled', () => {
    expect(oldestSync(['2026-01-01T11:00:00.000Z', '2026-01-01T10:00:00.000Z'])).toBe(
      '2026-01-01T10:00:00.000Z',
    );
    expect(oldestSync(['2026-01-01T11:00:00.000Z', null])).toBeNull();
    expect(oldestSync([])).toBeNull();
  });
});

describe('outbox badge and actions', () => {
  let seq = 0;
  const row = (state: OutboxRowView['state'], extra: Partial<OutboxRowView> = {}): OutboxRowView => {
    seq += 1;
    return {
      id: `c${seq}`,
      state,
      dismissed: false,
      retriedAs: null,
      seq,
      createdAtMs: seq,
      updatedAtMs: seq,
      ...extra,
    };
  };

  test('the badge counts queued, sending, and refused or expired commands not dismissed or retried', () => {
    const rows = [
      row('queued'),
      row('sending'),
      row('rejected'),
      row('expired'),
      row('rejected', { dismissed: true }),
      row('rejected', { retriedAs: 'c99' }),
      row('confirmed'),
      row('cancelled'),
    ];
    expect(attentionCount(rows)).toBe(4);
  });

  test('the page lists the counted commands newest first', () => {
    const older = row('queued', { createdAtMs: 1 });
    const newer = row('rejected', { createdAtMs: 2 });
    expect(listedRows([older, row('confirmed'), newer]).map((r) => r.id)).toEqual([newer.id, older.id]);
  });

  test('"recently sent" lists commands confirmed in the last day, the latest first, ten at most', () => {
    const now = 10 * RECENT_MS;
    const old = row('confirmed', { updatedAtMs: now - RECENT_MS - 1 });
    const earlier = row('confirmed', { updatedAtMs: now - 1_000 });
    const later = row('confirmed', { updatedAtMs: now - 10 });
    expect(recentlyConfirmed([old, earlier, row('queued'), row('cancelled'), later], now)).toEqual([
      later,
      earlier,
    ]);
    const many = Array.from({ length: RECENT_LIMIT + 3 }, () => row('confirmed', { updatedAtMs: now }));
    expect(recentlyConfirmed(many, now)).toHaveLength(RECENT_LIMIT);
  });

  test('only a queued command can be cancelled; only a refused or expired one retried', () => {
    expect(canCancel(row('queued'))).toBe(true);
    expect(canCancel(row('sending'))).toBe(false);
    expect(canRetry(row('rejected'))).toBe(true);
    expect(canRetry(row('expired'))).toBe(true);
    expect(canRetry(row('rejected', { dismissed: true }))).toBe(false);
    expect(canRetry(row('queued'))).toBe(false);
  });
});

describe('refusals told app-wide', () => {
  const row = (over: Partial<OutboxRowView>): OutboxRowView => ({
    id: 'a',
    state: 'rejected',
    dismissed: false,
    retriedAs: null,
    seq: 1,
    createdAtMs: 1_000,
    updatedAtMs: 2_000,
    ...over,
  });

  test('a command refused since the page loaded, neither dismissed nor retried, is told', () => {
    expect(refusalToTell(row({}), 1_500)).toBe(true);
  });

  test('a refusal from before the page loaded is not told again (the outbox lists it)', () => {
    expect(refusalToTell(row({ updatedAtMs: 1_000 }), 1_500)).toBe(false);
  });

  test('a refusal the page that followed it dismissed, or one retried, is not told', () => {
    expect(refusalToTell(row({ dismissed: true }), 1_500)).toBe(false);
    expect(refusalToTell(row({ retriedAs: 'b' }), 1_500)).toBe(false);
  });

  test('a command still queued, sent or expired is no refusal to tell', () => {
    for (const state of ['queued', 'sending', 'confirmed', 'expired', 'cancelled'] as const)
      expect(refusalToTell(row({ state }), 1_500), state).toBe(false);
  });
});
