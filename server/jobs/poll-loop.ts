/**
 * Runs a poller's steps one after another (a chain watcher, the withdrawal send job): at once
 * while it says there is more to do, every `pollSeconds` otherwise, and backing off (up to 16
 * times longer) while it fails, with a warning at the first failure and every tenth. Never
 * throws: the API keeps serving.
 */
import type { Pollable } from '../core/poll.js';

export interface PollLog {
  info(message: string): void;
  warn(message: string): void;
}

export class PollLoop {
  #stopped = true;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #failures = 0;

  constructor(
    private readonly poller: Pollable,
    private readonly pollSeconds: number,
    private readonly log: PollLog,
  ) {}

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#step().then((next) => this.#schedule(next));
    }, delayMs);
    this.#timer.unref();
  }

  /** One step; answers how long to wait before the next. */
  async #step(): Promise<number> {
    const poll = this.pollSeconds * 1000;
    try {
      const outcome = await this.poller.poll();
      if (this.#failures > 0) this.log.info(`${this.poller.name}: the node answers again`);
      this.#failures = 0;
      if (outcome.log !== null) this.log.info(`${this.poller.name}: ${outcome.log}`);
      return outcome.again ? 0 : poll;
    } catch (error) {
      this.#failures += 1;
      if (this.#failures % 10 === 1) {
        const message = error instanceof Error ? error.message : String(error);
        this.log.warn(`${this.poller.name}: tick failed (${this.#failures} in a row), retrying: ${message}`);
      }
      return poll * Math.min(2 ** Math.min(this.#failures, 4), 16);
    }
  }
}
