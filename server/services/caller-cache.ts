/**
 * The callers behind recently seen session tokens, kept in this process so that a live
 * session's requests resolve without a query (issue 15, "A fast request path"): a ReadCache
 * keyed by the token's hash, never past the session's own expiry; revocations evict at once
 * (sessions.service.ts).
 */
import type { Caller } from '../core/context.js';
import { READ_CACHE_ENTRIES, READ_CACHE_SECONDS, ReadCache } from './read-cache.js';

/**
 * How long a resolved caller is trusted without asking the database. Every revocation Coffer
 * makes evicts at once, so this only bounds how late a change made outside those paths (a user
 * frozen or an operator disabled by hand in SQL, a lost Redis message) takes effect: short enough
 * that nobody notices, long enough that a live session's bursts of requests cost no query.
 */
export const CALLER_CACHE_SECONDS = READ_CACHE_SECONDS;
/** Tokens remembered at most: about 300 bytes each. */
export const CALLER_CACHE_ENTRIES = READ_CACHE_ENTRIES;

type SignedIn = Exclude<Caller, { kind: 'anonymous' }>;

export class CallerCache extends ReadCache<string, SignedIn> {
  /** Remembers a caller read from the database until its session expires, unless an eviction happened since `epoch`. */
  set(tokenHash: string, caller: SignedIn, sessionExpiresAt: Date, now: Date, epoch: number): void {
    this.put(tokenHash, caller, now, epoch, sessionExpiresAt);
  }
}
