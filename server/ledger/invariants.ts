/**
 * The ledger's invariants (ARCHITECTURE.md), checked in one statement (one snapshot):
 * - per asset, all books sum to zero (`sum_zero`);
 * - each book's balance equals the sum of its transfers, credits minus debits (`balance_matches_transfers`);
 * - no customer book is negative (`never_negative`);
 * - each held book covers what its pending holds still hold (`held_covers_holds`).
 * Read-only; safe to run while transfers go on, inside any transaction.
 */
import type { z } from 'zod';
import type { ledgerCheckDataSchema } from '../../contract/api/admin.js';
import { moneyText } from '../../contract/money.js';
import type { Executor } from '../db/database.js';
import { invariantViolations } from './ledger.repository.js';

export type LedgerCheck = z.infer<typeof ledgerCheckDataSchema>;

/** The checks' name in job_runs: the scheduled job's runs and operators' checks on demand. */
export const LEDGER_CHECK_JOB = 'ledger-check';
type Violation = LedgerCheck['violations'][number];

const money = (minorUnits: string) => moneyText(BigInt(minorUnits));

/** Checks the four invariants; lists at most 20 violations per rule. */
export async function checkLedger(db: Executor, now: Date): Promise<LedgerCheck> {
  const violations = (await invariantViolations(db)).map((row): Violation => ({
    rule: row.rule as Violation['rule'], // the statement names only these rules
    asset: row.asset,
    ...(row.owner === null ? {} : { owner: String(row.owner) }),
    ...(row.book === null ? {} : { book: row.book }),
    expected: money(row.expected),
    actual: money(row.actual),
  }));
  return { ok: violations.length === 0, checkedAt: now.toISOString(), violations };
}
