/**
 * Time for the sync engine, injected so tests drive it: a clock for expiry, heartbeats and
 * `syncedAt`, and repeating timers for the heartbeat and the scheduler. The worker has no DOM;
 * `setInterval` is all it needs.
 */

export interface SyncClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface Timers {
  /**
   * Runs `task` every `ms` until the returned function is called. A task that fails is not
   * retried early: each task here is safe to miss once (a heartbeat missed makes the lease go
   * stale, the safe direction; a pull or drain missed runs at the next tick).
   */
  every(ms: number, task: () => void | Promise<void>): () => void;
}

/** The device clock. */
export const systemClock: SyncClock = { now: () => Date.now() };

/** `setInterval`; stopping is idempotent. */
export const systemTimers: Timers = {
  every(ms, task) {
    const handle = setInterval(() => {
      void Promise.resolve()
        .then(task)
        .catch(() => undefined);
    }, ms);
    return () => clearInterval(handle);
  },
};

/** An ISO 8601 UTC time (CONTRACT.md "Formats") of a millisecond clock reading. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}
