/**
 * A bounded, short-lived, in-process cache of values read from the database, for the hot reads
 * of a live session ("A fast request path"): the caller behind a token (caller-cache.ts)
 * and the user's profile (user.service.ts). Every write Coffer makes evicts at once, on this
 * instance and through Redis on the others (session.service.ts); the short life only bounds how
 * late a change made outside those paths (SQL by hand, a lost Redis message) is seen.
 */

/** How long a value is trusted without asking the database. */
export const READ_CACHE_SECONDS = 5;
/** Entries kept at most, least recently used first out: a few MB however many sessions are live. */
export const READ_CACHE_ENTRIES = 10_000;

interface Entry<V> {
  value: V;
  /** When the value stops being valid by itself (ms, the app's clock), e.g. its session's expiry. */
  validUntil: number;
  /** When the entry was made: on the app's clock (a test's ManualClock moves it) and on the monotonic one. */
  cachedAt: number;
  cachedAtMonotonic: number;
}

export class ReadCache<K, V> {
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  readonly #entries = new Map<K, Entry<V>>();
  #epoch = 0;

  constructor(
    private readonly maxEntries = READ_CACHE_ENTRIES,
    private readonly lifeMs = READ_CACHE_SECONDS * 1000,
  ) {}

  /**
   * Counts evictions. A read takes it before its query and passes it to `put`, which stores
   * nothing when an eviction came in meanwhile: a read that raced a write is not kept.
   */
  get epoch(): number {
    return this.#epoch;
  }

  /** The cached value, or undefined when absent, older than its life, or past its own validity. */
  get(key: K, now: Date): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const nowMs = now.getTime();
    this.#entries.delete(key);
    if (
      nowMs - entry.cachedAt >= this.lifeMs ||
      performance.now() - entry.cachedAtMonotonic >= this.lifeMs ||
      nowMs >= entry.validUntil
    ) {
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Remembers a value read from the database, unless an eviction happened since `epoch`. */
  put(key: K, value: V, now: Date, epoch: number, validUntil?: Date): void {
    if (epoch !== this.#epoch) return;
    this.#entries.delete(key);
    this.#entries.set(key, {
      value,
      validUntil: validUntil?.getTime() ?? Number.POSITIVE_INFINITY,
      cachedAt: now.getTime(),
      cachedAtMonotonic: performance.now(),
    });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** Drops the given keys, or every key (`'all'`). */
  evict(keys: readonly K[] | 'all'): void {
    this.#epoch += 1;
    if (keys === 'all') this.#entries.clear();
    else for (const key of keys) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
