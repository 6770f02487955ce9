/** Lockout and replay counters: in memory, and in Redis when REDIS_URL shares them between instances. */
import crypto from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { MemoryCounterStore, redisCounterStore, type CounterStore } from '../../server/security/counters.js';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function redisOrSkip(): Promise<CounterStore | null> {
  try {
    return await redisCounterStore(REDIS_URL, `coffer-test-${crypto.randomBytes(4).toString('hex')}:`);
  } catch {
    console.warn(`[counters] SKIPPED the Redis tier: no server at ${REDIS_URL}`);
    return null;
  }
}

const clock = new ManualClock();
const redis = await redisOrSkip();
if (redis) console.info(`[counters] running on memory and on Redis at ${REDIS_URL}`);
const stores: Array<[string, CounterStore]> = [['memory', new MemoryCounterStore(clock)]];
if (redis) stores.push(['redis', redis]);

afterAll(async () => {
  for (const [, store] of stores) await store.close();
});

describe.each(stores)('counters in %s', (_name, store) => {
  test('hits count within a window and report the seconds left', async () => {
    const key = `hit-${crypto.randomUUID()}`;
    expect((await store.hit(key, 60)).count).toBe(1);
    const second = await store.hit(key, 60);
    expect(second.count).toBe(2);
    expect(second.secondsLeft).toBeGreaterThan(0);
    expect(second.secondsLeft).toBeLessThanOrEqual(60);
    expect((await store.peek(key))?.count).toBe(2);
    await store.clear(key);
    expect(await store.peek(key)).toBeNull();
  });
  test('a claim succeeds once (the envelope replay cache)', async () => {
    const key = `claim-${crypto.randomUUID()}`;
    expect(await store.claim(key, 600)).toBe(true);
    expect(await store.claim(key, 600)).toBe(false);
  });
});

test('memory counters expire with the server clock', async () => {
  const store = new MemoryCounterStore(clock);
  await store.hit('k', 60);
  clock.advance(61);
  expect(await store.peek('k')).toBeNull();
  expect(await store.claim('k', 10)).toBe(true);
});
