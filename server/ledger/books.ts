/**
 * The ledger's books: where money can be. A customer's books belong to one Coffer account
 * (`owner` = the account's id): `cash`, `hosting`, `held`, per asset. The platform's books have
 * owner 0; they are the other side of every customer's balance (a deposit debits the chain's
 * omnibus, a fee credits fee revenue ...), so that per asset all books sum to zero.
 */
import type { Asset, Book } from '../../contract/api/account.js';
import type { Chain } from '../../contract/constants.js';

export const PLATFORM_OWNER = 0;

export const PLATFORM_BOOKS = [
  'omnibus_bep20',
  'omnibus_trc20',
  'hot_wallet',
  'fee_revenue',
  'adjustments',
  'incentive_expense',
  'interest_expense',
  'exchange_inventory',
  'rounding',
  'dust',
  'bank_payouts',
] as const;
export type PlatformBook = (typeof PLATFORM_BOOKS)[number];

/**
 * Rows a platform book is spread over. Every transfer touching a platform book updates one
 * slot picked at random, so transfers paying one hot book (fee revenue) rarely wait on one
 * another; the book's balance is the sum of its slots. A customer's book has one row (slot 0).
 */
export const PLATFORM_SLOTS = 16;

/** A book of the ledger: a customer's (`owner` > 0) or the platform's (`owner` 0). */
export interface BookRef {
  owner: number;
  book: Book | PlatformBook;
}

/** A customer's book of one Coffer account. */
export const customerBook = (accountId: number, book: Book): BookRef => ({ owner: accountId, book });

/** One of the platform's books. */
export const platformBook = (book: PlatformBook): BookRef => ({ owner: PLATFORM_OWNER, book });

/** The book mirroring what a chain holds for customers: a deposit debits it, a withdrawal credits it. */
export const omnibusOf = (chain: Chain): BookRef =>
  platformBook(chain === 'BEP20' ? 'omnibus_bep20' : 'omnibus_trc20');

export const isCustomer = (ref: BookRef): boolean => ref.owner !== PLATFORM_OWNER;

/** A row of ledger_balances. */
export interface BalanceRow extends BookRef {
  asset: Asset;
  slot: number;
}
