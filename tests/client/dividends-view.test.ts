/**
 * Pure view logic of the AI dividends page: a record past its expiry reads expired even
 * before the server's job writes it; the claimable and claimed sums are exact to the minor unit;
 * a queued claim covers its record (or every record) so it is not claimed twice; the claim
 * period is read from a record when the server's rules are not at hand.
 */
import { describe, expect, test } from 'vitest';
import {
  canClaim,
  claimDaysOf,
  dayLabel,
  isStatus,
  pendingClaims,
  STATUS_LIST,
  statusAt,
  statusKey,
  sumsOf,
} from '../../src/features/dividend/dividends-view.js';

const NOW = Date.parse('2026-01-10T00:00:00Z');
const record = (
  id: string,
  status: 'to_be_claimed' | 'claimed' | 'expired',
  amount: string,
  expiresAt: string,
) => ({
  id,
  status,
  amount,
  expiresAt,
  createdAt: '2026-01-06T00:00:00.000Z',
});

describe('a release record’s status as the page shows it', () => {
  test('to be claimed until its expiry, expired from that moment (the server’s job may not have run yet)', () => {
    const open = record('1', 'to_be_claimed', '1', '2026-01-10T00:00:01.000Z');
    expect(statusAt(open, NOW)).toBe('to_be_claimed');
    expect(statusAt(open, NOW + 1000)).toBe('expired');
  });

  test('claimed and expired stay as written', () => {
    expect(statusAt(record('1', 'claimed', '1', '2026-01-01T00:00:00Z'), NOW)).toBe('claimed');
    expect(statusAt(record('1', 'expired', '1', '2026-02-01T00:00:00Z'), NOW)).toBe('expired');
  });

  test('every status has its locale key and is a filter value', () => {
    expect(STATUS_LIST).toEqual(['to_be_claimed', 'claimed', 'expired']);
    expect(STATUS_LIST.map(statusKey)).toEqual([
      'dividends.status_to_be_claimed',
      'dividends.status_claimed',
      'dividends.status_expired',
    ]);
    expect(isStatus('claimed')).toBe(true);
    expect(isStatus('pending_arrival')).toBe(false);
  });
});

describe('the sums at the top of the page', () => {
  test('claimable adds the records claimable now to the minor unit (no float: 0.1 + 0.2 is 0.3); claimed adds the claimed ones; expired ones count in neither', () => {
    const sums = sumsOf(
      [
        record('1', 'to_be_claimed', '0.1', '2026-01-12T00:00:00.000Z'),
        record('2', 'to_be_claimed', '0.2', '2026-01-11T00:00:00.000Z'),
        record('3', 'claimed', '30.958328', '2026-01-08T00:00:00.000Z'),
        record('4', 'to_be_claimed', '5', '2026-01-09T00:00:00.000Z'), // past its expiry
        record('5', 'expired', '7', '2026-01-08T00:00:00.000Z'),
      ],
      NOW,
    );
    expect(sums).toEqual({
      claimable: '0.3',
      claimableCount: 2,
      claimed: '30.958328',
      nextExpiresAt: '2026-01-11T00:00:00.000Z',
    });
  });

  test('nothing claimable: 0 and no expiry', () => {
    expect(sumsOf([], NOW)).toEqual({ claimable: '0', claimableCount: 0, claimed: '0', nextExpiresAt: null });
  });
});

describe('claims already on their way', () => {
  const commands = [
    { state: 'queued', params: { accountId: '7', id: '41' } },
    { state: 'sending', params: { accountId: '7', id: '42' } },
    { state: 'rejected', params: { accountId: '7', id: '43' } },
    { state: 'queued', params: { accountId: '8', id: '44' } },
  ];

  test('a queued or sending claim of this account covers its record; settled ones and other accounts’ do not', () => {
    const pending = pendingClaims(commands, '7');
    expect(pending.all).toBe(false);
    expect([...pending.ids].sort()).toEqual(['41', '42']);
    const open = (id: string) => record(id, 'to_be_claimed', '1', '2026-02-01T00:00:00Z');
    expect(canClaim(open('41'), pending, NOW)).toBe(false);
    expect(canClaim(open('43'), pending, NOW)).toBe(true);
  });

  test('a queued claim of everything covers every record', () => {
    const pending = pendingClaims([{ state: 'queued', params: { accountId: '7', id: null } }], '7');
    expect(pending.all).toBe(true);
    expect(canClaim(record('9', 'to_be_claimed', '1', '2026-02-01T00:00:00Z'), pending, NOW)).toBe(false);
  });

  test('a claimed or expired record cannot be claimed', () => {
    const none = pendingClaims([], '7');
    expect(canClaim(record('1', 'claimed', '1', '2026-02-01T00:00:00Z'), none, NOW)).toBe(false);
    expect(canClaim(record('1', 'to_be_claimed', '1', '2026-01-09T00:00:00Z'), none, NOW)).toBe(false);
  });
});

describe('the claim period offline', () => {
  test('read from a record: its expiry is its publication plus the claim days', () => {
    expect(claimDaysOf([record('1', 'to_be_claimed', '1', '2026-02-05T00:00:00.000Z')])).toBe(30);
    expect(claimDaysOf([])).toBeNull();
  });
});

describe('a dividend’s day', () => {
  test('is written in the reader’s language as the business day it is, whatever the phone’s time zone', () => {
    expect(dayLabel('2026-01-05', 'en-US')).toBe('1/5/2026');
    expect(dayLabel('2026-01-05', 'zh-Hans')).toBe('2026/1/5');
    expect(dayLabel('not a day', 'en-US')).toBe('not a day');
  });
});
