/** The server's one source of time. `COFFER_NOW` starts it at a fixed instant for tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that starts at `start` and then runs at real speed. */
export function clockStartingAt(start: Date): Clock {
  const offset = start.getTime() - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** A clock that moves only when told to: for tests of countdowns and expiries. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-05T02:00:00Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}
