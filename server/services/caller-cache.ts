/**
 * The callers behind recently seen session tokens, kept in this process so that a live
 * session's requests resolve without a query (issue 15, "A fast request path"). Bounded (least
 * recently used first out) and short-lived; revocations evict entries at once (sessions.service.ts).
 */
import type { Caller } from '../core/context.js';

/**
 * How long a resolved caller is trusted without asking the database. Every revocation Coffer
 * makes evicts at once, so this only bounds how late a change made outside those paths (a user
 * frozen or an operator disabled by hand in SQL, a lost Redis message) takes effect: short enough
 * that nobody notices, long enough that a live session's bursts of requests cost no query.
 */
export const CALLER_CACHE_SECONDS = 5;
/** Tokens remembered at most: about 300 bytes each, so a few MB however many sessions are live. */
export const CALLER_CACHE_ENTRIES = 10_000;

type SignedIn = Exclude<Caller, { kind: 'anonymous' }>;

interface Entry {
  caller: SignedIn;
  /** The session's own expiry (ms, the app's clock). */
  sessionExpiresAt: number;
  /** When the entry was made: on the app's clock (a test's ManualClock moves it) and on the monotonic one. */
  cachedAt: number;
  cachedAtMonotonic: number;
}

export class CallerCache {
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  readonly #entries = new Map<string, Entry>();
  #epoch = 0;

  constructor(
    private readonly maxEntries = CALLER_CACHE_ENTRIES,
    private readonly lifeMs = CALLER_CACHE_SECONDS * 1000,
  ) {}

  /**
   * Counts evictions. A lookup reads it before its query and passes it to `set`, which stores
   * nothing when an eviction came in meanwhile: a read that raced a revocation is not kept.
   */
  get epoch(): number {
    return this.#epoch;
  }

  /** The cached caller, or undefined when absent, older than its life, or past its session's expiry. */
  get(tokenHash: string, now: Date): SignedIn | undefined {
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    const nowMs = now.getTime();
    if (
      nowMs - entry.cachedAt >= this.lifeMs ||
      performance.now() - entry.cachedAtMonotonic >= this.lifeMs ||
      nowMs >= entry.sessionExpiresAt
    ) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    this.#entries.delete(tokenHash);
    this.#entries.set(tokenHash, entry);
    return entry.caller;
  }

  /** Remembers a caller read from the database, unless an eviction happened since `epoch`. */
  set(tokenHash: string, caller: SignedIn, sessionExpiresAt: Date, now: Date, epoch: number): void {
    if (epoch !== this.#epoch) return;
    this.#entries.delete(tokenHash);
    this.#entries.set(tokenHash, {
      caller,
      sessionExpiresAt: sessionExpiresAt.getTime(),
      cachedAt: now.getTime(),
      cachedAtMonotonic: performance.now(),
    });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** Drops the given tokens, or every token (`'all'`). */
  evict(tokenHashes: readonly string[] | 'all'): void {
    this.#epoch += 1;
    if (tokenHashes === 'all') this.#entries.clear();
    else for (const tokenHash of tokenHashes) this.#entries.delete(tokenHash);
  }

  get size(): number {
    return this.#entries.size;
  }
}
