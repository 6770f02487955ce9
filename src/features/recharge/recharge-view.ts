/**
 * What the recharge page shows of a deposit and of a chain: the status label in the user's
 * language (as a locale key and its values), the chains. Pure; it
 * imports only types and zod-free modules, so neither zod nor IndexedDB.
 */
import type { DepositRecord, DepositStatus } from '../../../contract/api/recharge.js';
import { CHAINS, type Chain } from '../../../contract/constants.js';

/** The chains the picker offers, in the contract's order. */
export const CHAIN_LIST: readonly Chain[] = CHAINS;

/** The network each chain runs on: a proper name, the same in every language. */
export const NETWORK_NAMES: Readonly<Record<Chain, string>> = {
  BEP20: 'BNB Smart Chain',
  TRC20: 'TRON',
};

/** True when `value` names a chain the picker offers (a radio value read back from the page). */
export function isChain(value: string): value is Chain {
  return CHAIN_LIST.some((chain) => chain === value);
}

/**
 * While the page is open and visible it pulls this often, so a deposit just sent shows up and
 * "Confirming 1/3" counts up with the chain instead of with the scheduler's minute.
 */
export const DEPOSIT_PULL_MS = 10_000;

/** The depths a chain's deposits go through, from its /api/v1/recharge/address answer. */
export interface ChainDepths {
  /** Confirmations before a deposit is credited (to held). */
  confirmations: number;
  /** Confirmations before a held deposit becomes usable cash. */
  finality: number;
}

/** A status label: a locale key of `recharge.*` and the values it needs (`count`, `required`). */
export interface StatusLabel {
  key:
    | 'recharge.status_confirming'
    | 'recharge.status_held'
    | 'recharge.status_held_unknown'
    | 'recharge.status_credited'
    | 'recharge.status_below_minimum'
    | 'recharge.status_reversed';
  values: Readonly<Record<string, number>>;
}

/** How a status looks beside its label, so colour is never the only signal of it. */
export type StatusTone = 'pending' | 'done' | 'refused';

// A record (not a switch over an array) so the compiler fails when the contract gains a status
// this page cannot name.
const TONES: Record<DepositStatus, StatusTone> = {
  confirming: 'pending',
  held: 'pending',
  credited: 'done',
  below_minimum: 'refused',
  reversed: 'refused',
};

export function statusTone(status: DepositStatus): StatusTone {
  return TONES[status];
}

/** A deposit below the minimum is never counted towards a credit: its confirmations say nothing. */
export function showsConfirmations(status: DepositStatus): boolean {
  return status !== 'below_minimum';
}

/**
 * The label of a deposit's status: "Confirming 1/3" (the chain's required confirmations,
 * `fallbackConfirmations` while the chain's answer is not stored on this device), "Held — usable
 * after N confirmations" (N: the chain's finality; without it, a label without a number),
 * "Credited", "Below minimum — not credited", "Reversed".
 */
export function statusLabel(
  deposit: Pick<DepositRecord, 'status' | 'confirmations'>,
  depths: ChainDepths | undefined,
  fallbackConfirmations: number,
): StatusLabel {
  switch (deposit.status) {
    case 'confirming': {
      const required = depths?.confirmations ?? fallbackConfirmations;
      return {
        key: 'recharge.status_confirming',
        values: { count: Math.max(0, Math.min(deposit.confirmations, required)), required },
      };
    }
    case 'held':
      return depths === undefined
        ? { key: 'recharge.status_held_unknown', values: {} }
        : { key: 'recharge.status_held', values: { count: depths.finality } };
    case 'credited':
      return { key: 'recharge.status_credited', values: {} };
    case 'below_minimum':
      return { key: 'recharge.status_below_minimum', values: {} };
    case 'reversed':
      return { key: 'recharge.status_reversed', values: {} };
  }
}
