/**
 * Counters with expiry for rate limits, lockouts and the envelope's replay cache: in memory
 * for one instance, in Redis (REDIS_URL) when several instances must share them.
 */
import type { Clock } from '../clock.js';
import { closeRedis } from '../redis.js';

export interface CounterStore {
  /** Adds one to `key`, starting a window of `windowSeconds` on the first hit; returns the count and seconds left. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; secondsLeft: number }>;
  /** The current count and seconds left, or null when the key is absent or expired. */
  peek(key: string): Promise<{ count: number; secondsLeft: number } | null>;
  /** Sets `key` for `ttlSeconds` unless present; true when this call set it (used once). */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  clear(key: string): Promise<void>;
  /** Stores `value` under `key` for `ttlSeconds` (replacing any). */
  put(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** The value under `key` and deletes it, at once (a second take gets null); null when absent or expired. */
  take(key: string): Promise<string | null>;
  close(): Promise<void>;
}

/** One process's counters, timed by the server clock so tests can move time. */
export class MemoryCounterStore implements CounterStore {
  readonly #entries = new Map<string, { count: number; expiresAt: number; value?: string }>();
  constructor(private readonly clock: Clock) {}

  #live(key: string) {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.clock.now().getTime()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #sweep(): void {
    if (this.#entries.size < 50_000) return;
    const now = this.clock.now().getTime();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  async hit(key: string, windowSeconds: number) {
    this.#sweep();
    const now = this.clock.now().getTime();
    const entry = this.#live(key) ?? { count: 0, expiresAt: now + windowSeconds * 1000 };
    entry.count += 1;
    this.#entries.set(key, entry);
    return { count: entry.count, secondsLeft: Math.ceil((entry.expiresAt - now) / 1000) };
  }

  async peek(key: string) {
    const entry = this.#live(key);
    if (!entry) return null;
    return {
      count: entry.count,
      secondsLeft: Math.ceil((entry.expiresAt - this.clock.now().getTime()) / 1000),
    };
  }

  async claim(key: string, ttlSeconds: number) {
    this.#sweep();
    if (this.#live(key)) return false;
    this.#entries.set(key, { count: 1, expiresAt: this.clock.now().getTime() + ttlSeconds * 1000 });
    return true;
  }

  async clear(key: string) {
    this.#entries.delete(key);
  }

  async put(key: string, value: string, ttlSeconds: number) {
    this.#sweep();
    this.#entries.set(key, { count: 1, expiresAt: this.clock.now().getTime() + ttlSeconds * 1000, value });
  }

  async take(key: string) {
    const entry = this.#live(key);
    this.#entries.delete(key);
    return entry?.value ?? null;
  }

  async close() {
    this.#entries.clear();
  }
}

/** Counters shared by every instance through Redis (wall-clock expiry). */
export async function redisCounterStore(url: string, prefix = 'coffer:'): Promise<CounterStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
  await redis.connect();
  return {
    async hit(key, windowSeconds) {
      const [[, count], , [, ttl]] = (await redis
        .multi()
        .incr(prefix + key)
        .expire(prefix + key, windowSeconds, 'NX')
        .ttl(prefix + key)
        .exec()) as [[null, number], [null, number], [null, number]]; // MULTI answers in command order
      return { count, secondsLeft: Math.max(ttl, 1) };
    },
    async peek(key) {
      const [value, ttl] = await Promise.all([redis.get(prefix + key), redis.ttl(prefix + key)]);
      return value === null || ttl < 0 ? null : { count: Number(value), secondsLeft: ttl };
    },
    async claim(key, ttlSeconds) {
      return (await redis.set(prefix + key, '1', 'EX', ttlSeconds, 'NX')) === 'OK';
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
    async put(key, value, ttlSeconds) {
      await redis.set(prefix + key, value, 'EX', ttlSeconds);
    },
    async take(key) {
      return redis.getdel(prefix + key);
    },
    async close() {
      await closeRedis(redis);
    },
  };
}
