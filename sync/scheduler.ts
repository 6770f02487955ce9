/**
 * When the worker syncs without being asked: pull and drain at start, on reconnect (`online`)
 * and on an interval; drain after every enqueue; drain again with backoff after a drain that
 * could not reach the server (a flaky network seldom tells the browser it is offline); look for
 * a sending lease to take over (a frozen sender tab) every few seconds. Focus is the UI's business: it calls `sync-pull`. A pull after
 * each confirmed command is the engine's own (see `engine.ts`).
 */
import type { Timers } from './clock.js';

export const PULL_INTERVAL_MS = 60_000;
/** How often a non-sending tab checks whether the sender went quiet (a few heartbeats). */
export const TAKEOVER_CHECK_MS = 2_000;
/**
 * After a drain left commands waiting for the network, the next drain waits this many checks
 * (of TAKEOVER_CHECK_MS each): 2, 4, 8, 16, then every 30 seconds until one gets through.
 */
export const RETRY_BACKOFF_CHECKS = [1, 2, 4, 8, 15] as const;

/** What the scheduler reads of a drain: whether commands still wait for an answer. */
export interface DrainOutcome {
  status: string;
  retryLater: readonly string[];
}

function waitsForNetwork(outcome: DrainOutcome): boolean {
  return outcome.status === 'offline' || outcome.retryLater.length > 0;
}

export interface SchedulerTasks {
  pull(): Promise<unknown>;
  drain(): Promise<DrainOutcome>;
  /** Drains only if something is pending and the sending tab went quiet mid-drain. */
  takeover(): Promise<unknown>;
}

export interface SchedulerOptions {
  timers: Timers;
  /** Calls `listener` on every reconnect; returns an unsubscribe. */
  onOnline: (listener: () => void) => () => void;
  pullIntervalMs?: number;
  takeoverCheckMs?: number;
}

/** The worker's own `online` events, where there are any. */
export function globalOnlineEvents(listener: () => void): () => void {
  if (typeof globalThis.addEventListener !== 'function') return () => undefined;
  globalThis.addEventListener('online', listener);
  return () => globalThis.removeEventListener('online', listener);
}

/** The triggers of one worker; every run is fire-and-forget and its failure waits for the next trigger. */
export class SyncScheduler {
  private stops: Array<() => void> = [];
  /** Failed drains in a row (0: none waiting), and checks left before the next retry. */
  private failures = 0;
  private checksLeft = 0;

  constructor(
    private readonly tasks: SchedulerTasks,
    private readonly options: SchedulerOptions,
  ) {}

  get running(): boolean {
    return this.stops.length > 0;
  }

  /** Starts the triggers and pulls and drains once now. Idempotent. */
  start(): void {
    if (this.running) return;
    const { timers } = this.options;
    this.stops = [
      timers.every(this.options.pullIntervalMs ?? PULL_INTERVAL_MS, () => this.pullAndDrain()),
      timers.every(this.options.takeoverCheckMs ?? TAKEOVER_CHECK_MS, () => this.check()),
      this.options.onOnline(() => void this.pullAndDrain()),
    ];
    void this.pullAndDrain();
  }

  /** Stops every trigger; runs already started finish. Idempotent. */
  stop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
  }

  /** A new command was stored: send it now (only while started). */
  afterEnqueue(): void {
    if (this.running) void this.drain();
  }

  private async pullAndDrain(): Promise<void> {
    await Promise.all([quietly(this.tasks.pull()), this.drain()]);
  }

  /** Drains; counts a drain that left commands waiting for the network, to retry it with backoff. */
  private async drain(): Promise<void> {
    try {
      const outcome = await this.tasks.drain();
      this.failures = waitsForNetwork(outcome) ? this.failures + 1 : 0;
    } catch {
      this.failures += 1;
    }
    const step = RETRY_BACKOFF_CHECKS[Math.min(this.failures, RETRY_BACKOFF_CHECKS.length) - 1];
    this.checksLeft = step ?? 0;
  }

  /** Every few seconds: a due retry, else a look for a quiet sender to take over from. */
  private async check(): Promise<void> {
    if (this.failures > 0 && --this.checksLeft <= 0) {
      this.checksLeft = Number.POSITIVE_INFINITY; // until the retry's own outcome sets it
      await this.drain();
      return;
    }
    await quietly(this.tasks.takeover());
  }
}

/** A scheduled run reports nothing to anyone; its failure waits for the next trigger. */
async function quietly(run: Promise<unknown>): Promise<void> {
  await run.catch(() => undefined);
}
