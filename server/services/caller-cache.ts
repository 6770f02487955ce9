/**
 * The callers behind recently seen session tokens, kept in this process so that a live
 * session's requests resolve without a query ("A fast request path"): a ReadCache
 * keyed by the token's hash, never past the session's own expiry; revocations evict at once
 * (session.service.ts).
 */
import type { Caller } from '../core/context.js';
import { ReadCache } from './read-cache.js';

type SignedIn = Exclude<Caller, { kind: 'anonymous' }>;

export class CallerCache extends ReadCache<string, SignedIn> {
  /** Remembers a caller read from the database until its session expires, unless an eviction happened since `epoch`. */
  set(tokenHash: string, caller: SignedIn, sessionExpiresAt: Date, now: Date, epoch: number): void {
    this.put(tokenHash, caller, now, epoch, sessionExpiresAt);
  }
}
