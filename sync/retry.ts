/**
 * The retry policy of CONTRACT.md "Exactly once", shared by the worker's request queue and the
 * engine's uploader: transport failures, timeouts, HTTP 5xx and body code 500 are retried with
 * bounded exponential backoff and full jitter, always with the same key; nothing else is.
 */
import { BodyCode } from '../contract/codes.js';
import type { Outcome } from './ports.js';

/** The first retry waits up to this long. */
export const RETRY_BASE_MS = 500;
export const RETRY_FACTOR = 2;
/** No wait between attempts is ever longer than this. */
export const RETRY_CAP_MS = 8_000;
/** Attempts in total, the first one included. */
export const MAX_ATTEMPTS = 5;

/** The injectable parts of retrying (tests pass fakes). */
export interface RetryTiming {
  /** Waits `ms` before a retry. */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1). */
  random?: () => number;
}

/**
 * The wait before retry number `retry` (1 for the first retry): full jitter over
 * `min(RETRY_CAP_MS, RETRY_BASE_MS * RETRY_FACTOR^(retry-1))`, so always in [0, RETRY_CAP_MS]. Pure.
 */
export function backoffDelayMs(retry: number, random: () => number): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * RETRY_FACTOR ** Math.max(0, retry - 1));
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.floor(unit * ceiling);
}

/**
 * True for the outcomes CONTRACT.md retries: no answer at all (network failure, timeout),
 * HTTP 5xx, and body code 500. A 2xx that did not parse, HTTP 4xx and every other body code
 * would come back the same, so they are final. Pure.
 */
export function isRetryable(outcome: Outcome<unknown>): boolean {
  if (outcome.kind === 'transport') {
    return outcome.status === null || (outcome.status >= 500 && outcome.status <= 599);
  }
  return outcome.kind === 'refused' && outcome.code === BodyCode.internalError;
}
