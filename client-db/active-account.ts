/**
 * Which account the app shows and pulls first (CONTRACT.md "Identity and accounts"). One rule,
 * used by the engine (which pulls it) and by the UI (which shows it), so both always agree.
 * Type imports only: the UI's first page may load this module without zod.
 */
import type { AccountRecord } from '../contract/api/account.js';

/** The part of an account record the rule reads. */
export type AccountChoice = Pick<AccountRecord, 'id' | 'kind' | 'isDefault'>;

/**
 * The active account: the one the user selected on this device (`account-select`), while it is
 * among the synced accounts (or none are synced yet); else the one whose `isDefault` is set;
 * else the main one; else the first; null when the user has none synced and selected none. Pure.
 */
export function activeAccountOf(selected: string | null, accounts: readonly AccountChoice[]): string | null {
  if (selected !== null && (accounts.length === 0 || accounts.some((account) => account.id === selected)))
    return selected;
  const chosen =
    accounts.find((account) => account.isDefault) ??
    accounts.find((account) => account.kind === 'main') ??
    accounts[0];
  return chosen?.id ?? null;
}
