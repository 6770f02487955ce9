/**
 * Lockouts and flood limits on credential and code endpoints (CONTRACT.md "Verification codes
 * and limits"). Counted per account and per client address, in the shared counter store.
 */
import { BodyCode } from '../../contract/codes.js';
import { BusinessError } from '../core/errors.js';
import type { CounterStore } from './counters.js';

export const LIMITS = {
  /** Wrong passwords for one address before it is locked, and for how long. */
  accountFailures: { max: 5, windowSeconds: 15 * 60 },
  /** Wrong passwords or codes from one client address (a family behind one NAT stays well below). */
  clientFailures: { max: 30, windowSeconds: 15 * 60 },
  /** Code e-mails one client address may ask for per hour, across all addresses and purposes. */
  clientCodeSends: { max: 30, windowSeconds: 60 * 60 },
} as const;

function lockedError(secondsLeft: number): BusinessError {
  return new BusinessError(
    BodyCode.locked,
    'server.locked',
    { minutes: Math.ceil(secondsLeft / 60) },
    { retryAfter: secondsLeft },
  );
}

export class Limits {
  constructor(private readonly counters: CounterStore) {}

  /**
   * Throws 423 when the account or the client address is locked after wrong attempts. `ip` null:
   * the account only (a check made below any request, e.g. a withdrawal's trade password).
   */
  async assertNotLocked(accountKey: string | null, ip: string | null): Promise<void> {
    const checks: Array<[string, number]> = ip === null ? [] : [[`fail:ip:${ip}`, LIMITS.clientFailures.max]];
    if (accountKey) checks.push([`fail:acct:${accountKey}`, LIMITS.accountFailures.max]);
    for (const [key, max] of checks) {
      const state = await this.counters.peek(key);
      if (state && state.count >= max) throw lockedError(state.secondsLeft);
    }
  }

  /** Counts a wrong password or code against the account and the client address (when known). */
  async recordFailure(accountKey: string | null, ip: string | null): Promise<void> {
    if (ip !== null) await this.counters.hit(`fail:ip:${ip}`, LIMITS.clientFailures.windowSeconds);
    if (accountKey) await this.counters.hit(`fail:acct:${accountKey}`, LIMITS.accountFailures.windowSeconds);
  }

  async clearAccount(accountKey: string): Promise<void> {
    await this.counters.clear(`fail:acct:${accountKey}`);
  }

  /** Counts a code e-mail for the client address; 429 past the hourly flood limit. */
  async countCodeSend(ip: string): Promise<void> {
    const { count, secondsLeft } = await this.counters.hit(
      `send:ip:${ip}`,
      LIMITS.clientCodeSends.windowSeconds,
    );
    if (count > LIMITS.clientCodeSends.max) {
      throw new BusinessError(
        BodyCode.tooManyRequests,
        'server.too_many_requests',
        { seconds: secondsLeft },
        { retryAfter: secondsLeft },
      );
    }
  }
}
