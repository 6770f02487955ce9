/**
 * When the worker syncs without being asked: pull and drain at start, on reconnect (`online`)
 * and on an interval; drain after every enqueue; look for a sending lease to take over (a frozen
 * sender tab) every few seconds. Focus is the UI's business: it calls `sync-pull`. A pull after
 * each confirmed command is the engine's own (see `engine.ts`).
 */
import type { Timers } from './clock.js';

export const PULL_INTERVAL_MS = 60_000;
/** How often a non-sending tab checks whether the sender went quiet (a few heartbeats). */
export const TAKEOVER_CHECK_MS = 2_000;

export interface SchedulerTasks {
  pull(): Promise<unknown>;
  drain(): Promise<unknown>;
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
      timers.every(this.options.takeoverCheckMs ?? TAKEOVER_CHECK_MS, () => quietly(this.tasks.takeover())),
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
    if (this.running) void quietly(this.tasks.drain());
  }

  private async pullAndDrain(): Promise<void> {
    await Promise.all([quietly(this.tasks.pull()), quietly(this.tasks.drain())]);
  }
}

/** A scheduled run reports nothing to anyone; its failure waits for the next trigger. */
async function quietly(run: Promise<unknown>): Promise<void> {
  await run.catch(() => undefined);
}
