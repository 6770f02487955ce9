/** Seconds the code button waits after a send: the server's countdown on success or on a 429. */
import { BodyCode } from '../../../contract/codes.js';
import type { Outcome } from '../../../sync/ports.js';

export function secondsToWait(outcome: Outcome<{ resendAfter: number }>): number {
  if (outcome.kind === 'ok') return outcome.data.resendAfter;
  if (outcome.kind === 'refused' && outcome.code === BodyCode.tooManyRequests) {
    const data = outcome.data;
    if (
      typeof data === 'object' &&
      data !== null &&
      'retryAfter' in data &&
      typeof data.retryAfter === 'number'
    )
      return data.retryAfter;
  }
  return 0;
}
