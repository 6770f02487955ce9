/**
 * Pure logic of the withdrawal methods page: the checks made before sending (the server makes the
 * exact ones: EIP-55 and base58check checksums, Luhn) and how a method is named and described.
 */
import type { PaymentMethod } from '../../../contract/api/payment.js';
import type { Chain } from '../../../contract/constants.js';

/** The chain form's fields, named as the server names them (its field refusals land beside them). */
export type ChainField = 'address';
export type BankField = 'bankName' | 'cardNumber' | 'holderName' | 'branch';

/** Why an input is refused before sending; the page words each one. */
export type Problem = 'required' | 'evm_address' | 'tron_address' | 'card_digits';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
/** The server's bounds: 12 to 19 digits once spaces are dropped. */
const CARD_DIGITS = /^\d{12,19}$/;

/** The receiving address's problem on `network`, or null when it may be sent. */
export function checkAddress(network: Chain, address: string): Problem | null {
  const trimmed = address.trim();
  if (trimmed === '') return 'required';
  if (network === 'BEP20') return EVM_ADDRESS.test(trimmed) ? null : 'evm_address';
  return TRON_ADDRESS.test(trimmed) ? null : 'tron_address';
}

/** A card number as typed, spaces and dashes dropped. */
export function cardDigits(cardNumber: string): string {
  return cardNumber.replace(/[\s-]/g, '');
}

/** Each bank field's problem; an empty object when the card may be sent. */
export function checkBank(values: Record<BankField, string>): Partial<Record<BankField, Problem>> {
  const problems: Partial<Record<BankField, Problem>> = {};
  for (const field of ['bankName', 'cardNumber', 'holderName', 'branch'] as const) {
    if (values[field].trim() === '') problems[field] = 'required';
  }
  if (problems.cardNumber === undefined && !CARD_DIGITS.test(cardDigits(values.cardNumber)))
    problems.cardNumber = 'card_digits';
  return problems;
}

/** The first and last characters of a long address, for a button's accessible name. */
export function shortAddress(address: string): string {
  return address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * What names a method in words (the delete button's accessible name, the confirmation):
 * `BEP20 0x2c75…5c23` for an address, `Bank •••• 1234` for a card.
 */
export function methodName(method: PaymentMethod): string {
  if (method.kind === 'chain') return `${method.network ?? ''} ${shortAddress(method.address ?? '')}`.trim();
  return `${method.bankName ?? ''} ${method.cardNumber ?? ''}`.trim();
}

/** Whether the method's cooldown still runs at `now`: it cannot be used for withdrawals yet. */
export function inCooldown(method: PaymentMethod, now: number): boolean {
  return Date.parse(method.usableAt) > now;
}
