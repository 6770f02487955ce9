/**
 * A read whose answer the worker keeps in IndexedDB (client-db/caches/) so a page shows it offline
 * with its age: the team's answers, the hosting products, the withdrawal methods, the deposit
 * addresses. What stays true for each: the copy is written only for the user who asked and is
 * still logged in (a logout while the call was out deleted the user's databases, which a write
 * would create again); failing to write it never changes the answer; the copy is served only when
 * no answer came at all (offline, timeout, 5xx), never in place of a refusal.
 */
import type { Outcome, SessionReader } from '../../sync/ports.js';

export type Failure = Exclude<Outcome<unknown>, { kind: 'ok' }>;
export type TransportFailure = Extract<Failure, { kind: 'transport' }>;

/**
 * What a cached read came to:
 * - `ok`: the server's answer, now kept;
 * - `cached`: no answer came, the kept copy is served instead;
 * - a refusal, or a transport failure with nothing kept.
 */
export type CachedResult<R, K = R> =
  { kind: 'ok'; message: string; data: R } | { kind: 'cached'; data: K; failure: TransportFailure } | Failure;

/** How one read's answer is kept. */
export interface CacheOf<T, R, K> {
  /** The answer as the handler returns and keeps it, stamped with the time it came. Pure. */
  record(data: T, fetchedAt: string): R;
  /** Keeps `record` as the copy of `userId`; may throw (the answer is returned all the same). */
  keep(userId: string, record: R): Promise<unknown>;
  /** The kept copy of `userId`, or null when there is none; may throw (then: none). */
  kept(userId: string): Promise<K | null>;
}

/** Runs `read` and keeps or serves its copy as the header says. Never throws where `read` does not. */
export async function readCached<T, R, K>(
  session: SessionReader,
  now: () => Date,
  read: () => Promise<Outcome<T>>,
  cache: CacheOf<T, R, K>,
): Promise<CachedResult<R, K>> {
  const asked = await session.getSession();
  const outcome = await read();
  if (outcome.kind === 'ok') {
    const record = cache.record(outcome.data, now().toISOString());
    const current = await session.getSession();
    if (asked !== null && current?.userId === asked.userId) {
      await cache.keep(asked.userId, record).catch(() => {
        // The page then shows the answer only while it stays open; nothing else depends on the copy.
      });
    }
    return { kind: 'ok', message: outcome.message, data: record };
  }
  if (outcome.kind === 'transport' && asked !== null) {
    const cached = await cache.kept(asked.userId).catch(() => null);
    if (cached !== null) return { kind: 'cached', data: cached, failure: outcome };
  }
  return outcome;
}
