/**
 * The checks the Accounts page runs before anything is sent: the order of the account list, a
 * sub-account's name, and the amount of a transfer between the user's own accounts. Pure; each
 * check returns a locale key with its values, or null when the input is fine.
 */
import type { TFunction } from 'i18next';
import type { AccountRecord } from '../../../contract/api/account.js';
import { SUB_ACCOUNT_NAME_MAX_LENGTH, SUB_ACCOUNTS_MAX } from '../../../contract/constants.js';
import { formatMoney, minor, parseMoney, parseUserAmount, type Minor } from '../../../contract/money.js';
import { checkAmount } from '../../../contract/validation.js';

/** The messages these checks return (keys of the locale catalogue). */
export type ProblemKey =
  | 'server.field_required'
  | 'server.field_too_long'
  | 'server.sub_account_limit'
  | 'server.amount_invalid'
  | 'accounts.amount_not_number'
  | 'accounts.amount_not_positive'
  | 'accounts.amount_decimals'
  | 'accounts.amount_above_available';

/** A message to show: a locale key, its values, and the locale key of the field it names. */
export interface Problem {
  key: ProblemKey;
  values?: Record<string, string | number>;
  field?: 'field.name' | 'field.amount';
}

/** The problem in the user's language. */
export function problemText(t: TFunction, problem: Problem): string {
  return t(problem.key, {
    ...problem.values,
    ...(problem.field === undefined ? {} : { field: t(problem.field) }),
  });
}

/** The main account first, then the sub-accounts in the order they were created. */
export function orderAccounts<A extends Pick<AccountRecord, 'id' | 'kind' | 'createdAt'>>(
  accounts: readonly A[],
): A[] {
  return [...accounts].sort(
    (a, b) =>
      (a.kind === 'main' ? 0 : 1) - (b.kind === 'main' ? 0 : 1) ||
      a.createdAt.localeCompare(b.createdAt) ||
      a.id.localeCompare(b.id),
  );
}

/**
 * A new sub-account's name (1 to SUB_ACCOUNT_NAME_MAX_LENGTH characters after trimming), and
 * room for it: `subAccounts` counts those that exist and those waiting in the outbox.
 */
export function checkSubAccount(name: string, subAccounts: number): Problem | null {
  if (subAccounts >= SUB_ACCOUNTS_MAX)
    return { key: 'server.sub_account_limit', values: { max: SUB_ACCOUNTS_MAX } };
  const trimmed = name.trim();
  if (trimmed === '') return { key: 'server.field_required', field: 'field.name' };
  // Characters as the user counts them (an emoji is one), not UTF-16 units.
  if ([...trimmed].length > SUB_ACCOUNT_NAME_MAX_LENGTH)
    return {
      key: 'server.field_too_long',
      field: 'field.name',
      values: { max: SUB_ACCOUNT_NAME_MAX_LENGTH },
    };
  return null;
}

/**
 * The amount of a transfer: required, a number, above 0, at most 2 decimals (spec section 5),
 * and at most `available` (the source's available balance of the asset; null when it has not
 * been synced, which leaves that check to the server).
 */
export function checkTransferAmount(text: string, available: Minor | null, asset: string): Problem | null {
  const value = text.trim();
  if (checkAmount(value) === 'server.field_required')
    return { key: 'server.field_required', field: 'field.amount' };
  if (/^-\s*\d*\.?\d*$/.test(value) && /\d/.test(value)) return { key: 'accounts.amount_not_positive' };
  if (!/^\d*\.?\d+$/.test(value)) return { key: 'accounts.amount_not_number' };
  if (/\.\d{3,}$/.test(value)) return { key: 'accounts.amount_decimals' };
  if (checkAmount(value) !== null) return { key: 'server.amount_invalid' };
  const amount = parseUserAmount(value);
  if (amount <= 0n) return { key: 'accounts.amount_not_positive' };
  if (available !== null && amount > available)
    return { key: 'accounts.amount_above_available', values: { amount: formatMoney(available), asset } };
  return null;
}

/** A transfer still in the outbox (queued or being sent), as the available figure needs it. */
export interface PendingTransfer {
  fromAccountId: string;
  asset: string;
  amount: string;
}

/**
 * What the account can still send of `asset`: its synced available balance less the transfers
 * from it still waiting in the outbox (their money has not left in the synced figure yet), never
 * below 0. Null while the balance has not been synced.
 */
export function availableAfterPending(
  synced: string | null,
  accountId: string,
  asset: string,
  pending: readonly PendingTransfer[],
): Minor | null {
  if (synced === null) return null;
  let available = parseMoney(synced);
  for (const transfer of pending)
    if (transfer.fromAccountId === accountId && transfer.asset === asset)
      available = minor(available - parseMoney(transfer.amount));
  return available < 0n ? minor(0n) : available;
}
