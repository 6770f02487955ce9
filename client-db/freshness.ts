/**
 * How old synced data is: the "as of" line and the stale badge read the `syncedAt` of the
 * collections a screen shows. Pure.
 */

/** Data older than this is marked stale. */
export const STALE_AFTER_MS = 10 * 60 * 1000;

/**
 * The oldest `syncedAt` among `times` (ISO strings), or null when any collection has never
 * been fully pulled (a screen is only as fresh as its stalest part) or none is given.
 */
export function oldestSync(times: readonly (string | null | undefined)[]): string | null {
  if (times.length === 0) return null;
  let oldest: number | null = null;
  for (const time of times) {
    if (time === null || time === undefined) return null;
    const ms = Date.parse(time);
    if (Number.isNaN(ms)) return null;
    oldest = oldest === null ? ms : Math.min(oldest, ms);
  }
  return oldest === null ? null : new Date(oldest).toISOString();
}

/**
 * True when data synced at `syncedAt` is older than `maxAgeMs` at `nowMs`, or was never
 * synced (null).
 */
export function isStale(syncedAt: string | null, nowMs: number, maxAgeMs = STALE_AFTER_MS): boolean {
  if (syncedAt === null) return true;
  const ms = Date.parse(syncedAt);
  return Number.isNaN(ms) || nowMs - ms > maxAgeMs;
}
