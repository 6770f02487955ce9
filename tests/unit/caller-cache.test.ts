/** The in-process caller cache: bounded, short-lived, never past a session's expiry, and a read that raced an eviction is not kept. */
import { describe, expect, test } from 'vitest';
import { CallerCache } from '../../server/services/caller-cache.js';

const caller = (userId: number) => ({
  kind: 'user' as const,
  userId,
  tokenHash: `h${userId}`,
  frozen: false,
});
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 5, 2, 0, seconds));
const farAway = at(3600);

describe('CallerCache', () => {
  test('holds at most its bound, dropping the least recently used first', () => {
    const cache = new CallerCache(2, 5000);
    cache.set('a', caller(1), farAway, at(0), cache.epoch);
    cache.set('b', caller(2), farAway, at(0), cache.epoch);
    expect(cache.get('a', at(1))).toEqual(caller(1)); // a is now the most recently used
    cache.set('c', caller(3), farAway, at(1), cache.epoch);
    expect(cache.size).toBe(2);
    expect(cache.get('b', at(1))).toBeUndefined();
    expect(cache.get('a', at(1))).toEqual(caller(1));
    expect(cache.get('c', at(1))).toEqual(caller(3));
  });

  test('an entry lives the cache’s life on the app’s clock, and never past its session’s expiry', () => {
    const cache = new CallerCache(10, 5000);
    cache.set('a', caller(1), farAway, at(0), cache.epoch);
    cache.set('b', caller(2), at(2), at(0), cache.epoch);
    expect(cache.get('a', at(4))).toEqual(caller(1));
    expect(cache.get('b', at(2))).toBeUndefined();
    expect(cache.get('a', at(5))).toBeUndefined();
  });

  test('evictions drop the named tokens or all, and a read begun before an eviction is not stored', () => {
    const cache = new CallerCache(10, 5000);
    cache.set('a', caller(1), farAway, at(0), cache.epoch);
    cache.set('b', caller(2), farAway, at(0), cache.epoch);
    const before = cache.epoch;
    cache.evict(['a']);
    expect(cache.get('a', at(0))).toBeUndefined();
    expect(cache.get('b', at(0))).toEqual(caller(2));
    cache.set('a', caller(1), farAway, at(0), before); // this read raced the revocation
    expect(cache.get('a', at(0))).toBeUndefined();
    cache.evict('all');
    expect(cache.size).toBe(0);
  });
});
