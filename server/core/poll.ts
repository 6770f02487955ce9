/**
 * What a poller is (a chain watcher, the withdrawal sender): one step at a time, each saying
 * whether more work waits. Services implement it; the job loop (server/jobs/poll-loop.ts) runs it.
 */

export interface PollOutcome {
  /** A line worth logging (`<name>: <log>`), or null when the step did nothing of note. */
  log: string | null;
  /** True when more work waits: the next step runs at once. */
  again: boolean;
}

export interface Pollable {
  /** Names the poller in its log lines (`BEP20 watcher`). */
  readonly name: string;
  poll(): Promise<PollOutcome>;
}
