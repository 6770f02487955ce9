/**
 * Every call the worker makes goes through one RequestQueue: it shares identical reads made
 * within the spec's request debounce (500 ms) with no command answered in between, retries what CONTRACT.md says to retry ("Exactly
 * once": transport failures, timeouts, HTTP 5xx, body code 500; nothing else) with bounded
 * exponential backoff and full jitter, and keeps at most a few calls in flight.
 */
import { REQUEST_DEBOUNCE_MS } from '../contract/constants.js';
import { backoffDelayMs, isRetryable, MAX_ATTEMPTS, type RetryTiming } from '../sync/retry.js';
import type { Call, Outcome, Send } from './transport.js';

export const DEFAULT_MAX_IN_FLIGHT = 4;

/** A call as the queue takes it: `read` marks a POST read (no key) that may be shared. */
export type QueuedCall<T> = Call<T> & { read?: boolean };

/** The retry timing (sleep, jitter) comes from the shared policy in `sync/retry.ts`. */
export interface QueueOptions extends RetryTiming {
  /** Milliseconds clock for the debounce window. */
  now?: () => number;
  maxInFlight?: number;
  debounceMs?: number;
}

/** A key order-independent serialisation, so `{a, b}` and `{b, a}` are the same read. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isSharedRead(call: QueuedCall<unknown>): boolean {
  if (call.idempotencyKey !== undefined) return false;
  return call.method === 'GET' || call.read === true;
}

interface SharedRead {
  startedAt: number;
  schema: unknown;
  outcome: Promise<Outcome<unknown>>;
}

export class RequestQueue {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly maxInFlight: number;
  private readonly debounceMs: number;
  private inFlight = 0;
  /** Calls waiting for a slot, oldest first. */
  private readonly waiting: Array<() => void> = [];
  private readonly reads = new Map<string, SharedRead>();

  constructor(
    private readonly send: Send,
    options: QueueOptions = {},
  ) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.debounceMs = options.debounceMs ?? REQUEST_DEBOUNCE_MS;
  }

  /** Calls waiting for a slot (for tests and diagnostics). */
  get pending(): number {
    return this.waiting.length;
  }

  /**
   * Runs `call` to a final outcome, retrying as CONTRACT.md says. Commands are retried with
   * the same call object, so the same Idempotency-Key; each attempt is a new `send` (a new
   * envelope). Identical reads started within the debounce window get the same outcome.
   * Never throws unless `send` does.
   */
  run<T>(call: QueuedCall<T>): Promise<Outcome<T>> {
    // A command may change what any read answers: a read made after it never shares one from before.
    if (!isSharedRead(call)) return this.withRetries(call).finally(() => this.reads.clear());
    const now = this.now();
    for (const [key, entry] of this.reads) {
      if (now - entry.startedAt >= this.debounceMs) this.reads.delete(key);
    }
    const key = stableStringify([call.method, call.uri, call.params, call.token, call.lang]);
    const shared = this.reads.get(key);
    if (shared !== undefined && shared.schema === call.data) {
      // Same uri, params, token, language and the very same schema object, so the outcome was
      // parsed into this call's T.
      return shared.outcome as Promise<Outcome<T>>;
    }
    const outcome = this.withRetries(call);
    this.reads.set(key, { startedAt: now, schema: call.data, outcome });
    return outcome;
  }

  private async withRetries<T>(call: Call<T>): Promise<Outcome<T>> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.inSlot(() => this.send(call));
      if (attempt >= MAX_ATTEMPTS || !isRetryable(outcome)) return outcome;
      // The wait happens outside the slot, so a call backing off holds no one else up.
      await this.sleep(backoffDelayMs(attempt, this.random));
    }
  }

  private async inSlot<R>(work: () => Promise<R>): Promise<R> {
    if (this.inFlight >= this.maxInFlight) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      // The slot was handed over by `release` without being freed: inFlight already counts us.
    } else {
      this.inFlight++;
    }
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.inFlight--;
  }
}
