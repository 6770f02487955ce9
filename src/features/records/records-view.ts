/**
 * The wallet records' kinds: each kind's locale key and the filter's list (a line's amount is
 * `MoneyLine`'s, src/ui). Pure; it imports only types and the (zod-free) income types, so neither
 * zod nor IndexedDB.
 */
import type { RecordKind } from '../../../contract/api/account.js';
import { INCOME_TYPES } from '../hosting/hosting-view.js';

/** Records read from IndexedDB at first, and added each time the end of the list is reached. */
export const RECORDS_PAGE = 30;

// A record (not an array) so the compiler fails when contract/api/account.ts gains a kind
// this page cannot name; the UI may not import the contract's RECORD_KINDS (zod stays out).
const KINDS: Record<RecordKind, true> = {
  data_adjustment: true,
  withdrawal: true,
  withdrawal_reversal: true,
  trust_deposit: true,
  trust_withdrawal: true,
  newcomer_incentive: true,
  otc_list_buy: true,
  otc_sell: true,
  otc_list_sell: true,
  otc_buy: true,
  otc_cancel: true,
  recharge: true,
  exchange: true,
  account_transfer: true,
  fee: true,
  ...INCOME_TYPES,
};

/** Every wallet record kind, in the contract's order (the filter's options). */
export const RECORD_KIND_LIST = Object.keys(KINDS) as RecordKind[]; // the keys of a Record<RecordKind, true>

/** True when `value` names a wallet record kind (a filter value read back from the page). */
export function isRecordKind(value: string): value is RecordKind {
  return Object.hasOwn(KINDS, value);
}

/** The locale key naming a kind in the user's language. */
export function kindKey(kind: RecordKind): `records.kind_${RecordKind}` {
  return `records.kind_${kind}`;
}
