/**
 * What the AI dividends page shows, from the synced release records and the outbox: each
 * record's status as it stands now (one past its expiry is expired, even before the server's job
 * wrote it), the claimable and claimed sums to the minor unit, which records a queued claim
 * already covers, and whether a record can be claimed. Pure; it imports only types and the money
 * module, so neither zod nor IndexedDB.
 */
import type { DividendReleaseRecord, DividendReleaseStatus } from '../../../contract/api/dividend.js';
import { moneyText, parseMoney } from '../../../contract/money.js';

const DAY_MS = 24 * 3600 * 1000;

// A record (not an array) so the compiler fails when the contract gains a status this page cannot name.
const STATUSES: Record<DividendReleaseStatus, true> = { to_be_claimed: true, claimed: true, expired: true };
/** Every status, in the contract's order (the filter's options). */
export const STATUS_LIST = Object.keys(STATUSES) as DividendReleaseStatus[]; // the keys of a Record<DividendReleaseStatus, true>

/** True when `value` names a status (a filter value read back from the page). */
export function isStatus(value: string): value is DividendReleaseStatus {
  return Object.hasOwn(STATUSES, value);
}

/** The locale key naming a status. */
export function statusKey(status: DividendReleaseStatus): `dividends.status_${DividendReleaseStatus}` {
  return `dividends.status_${status}`;
}

type Timed = Pick<DividendReleaseRecord, 'status' | 'expiresAt'>;

/** The record's status at `nowMs`: to be claimed until its expiry, expired from then. */
export function statusAt(record: Timed, nowMs: number): DividendReleaseStatus {
  return record.status === 'to_be_claimed' && Date.parse(record.expiresAt) <= nowMs
    ? 'expired'
    : record.status;
}

export interface DividendSums {
  /** Σ of the records claimable now (wire decimals). */
  claimable: string;
  claimableCount: number;
  /** Σ of the records claimed. */
  claimed: string;
  /** When the first claimable record expires (ISO), or null. */
  nextExpiresAt: string | null;
}

/** The sums the page's header shows, exact to the minor unit. */
export function sumsOf(
  records: readonly Pick<DividendReleaseRecord, 'status' | 'expiresAt' | 'amount'>[],
  nowMs: number,
): DividendSums {
  let claimable = 0n;
  let claimed = 0n;
  let count = 0;
  let next: number | null = null;
  for (const record of records) {
    const status = statusAt(record, nowMs);
    if (status === 'claimed') claimed += parseMoney(record.amount);
    if (status !== 'to_be_claimed') continue;
    claimable += parseMoney(record.amount);
    count += 1;
    const expires = Date.parse(record.expiresAt);
    next = next === null ? expires : Math.min(next, expires);
  }
  return {
    claimable: moneyText(claimable),
    claimableCount: count,
    claimed: moneyText(claimed),
    nextExpiresAt: next === null ? null : new Date(next).toISOString(),
  };
}

/** A claim in the outbox as this page reads it. */
export interface ClaimCommand {
  state: string;
  params: { accountId: string; id: string | null };
}

export interface PendingClaims {
  /** A claim of everything is queued or being sent. */
  all: boolean;
  /** Records a queued or sending claim names. */
  ids: ReadonlySet<string>;
}

/** Which of the account's records claims still to be sent (queued or sending) already cover. */
export function pendingClaims(commands: readonly ClaimCommand[], accountId: string): PendingClaims {
  const ids = new Set<string>();
  let all = false;
  for (const command of commands) {
    if (command.params.accountId !== accountId) continue;
    if (command.state !== 'queued' && command.state !== 'sending') continue;
    if (command.params.id === null) all = true;
    else ids.add(command.params.id);
  }
  return { all, ids };
}

/** True when the record is claimable now and no pending claim covers it already. */
export function canClaim(record: Timed & { id: string }, pending: PendingClaims, nowMs: number): boolean {
  return statusAt(record, nowMs) === 'to_be_claimed' && !pending.all && !pending.ids.has(record.id);
}

/**
 * A dividend's local day (`YYYY-MM-DD` in the business time zone) written for `language`: the
 * date as it is, never shifted by the phone's own time zone.
 */
export function dayLabel(day: string, language: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(at) ? day : new Date(at).toLocaleDateString(language, { timeZone: 'UTC' });
}

/**
 * The claim period in days, when the server's rules are not at hand (offline): read from a
 * record, whose expiry is its publication plus that many days. Null without a record.
 */
export function claimDaysOf(
  records: readonly Pick<DividendReleaseRecord, 'createdAt' | 'expiresAt'>[],
): number | null {
  const [record] = records;
  if (!record) return null;
  return Math.round((Date.parse(record.expiresAt) - Date.parse(record.createdAt)) / DAY_MS);
}
