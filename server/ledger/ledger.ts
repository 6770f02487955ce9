/**
 * The double-entry ledger (ARCHITECTURE.md, CONTRACT.md "Money and the ledger"): the only
 * writer of balances. Services call it inside the transaction of the business row that causes
 * the money to move; it calls no service.
 *
 * What stays true:
 * - Every change of a balance is a transfer between two books of one asset, written with the
 *   change, under a key derived from its cause: a repeated cause finds its transfer and moves
 *   nothing (`applied: false`).
 * - A customer's book never goes below zero: the debit is a conditional update, and a CHECK in
 *   the database refuses it whatever code runs. Short money is BodyCode 470, never a retry.
 * - An event (one transfer, or several such as a transfer and its fee) is one statement, one
 *   round trip: its keys are locked in one order, then all its rows in one global order (owner,
 *   book, asset, slot) before anything is written, so two events over the same books in any
 *   directions never deadlock. Platform books are spread over slots (books.ts), so a hot book
 *   (fee revenue) neither serialises everyone nor can ever refuse anyone.
 */
import { ASSETS, BOOKS, type Asset, type Book, type RecordKind } from '../../contract/api/account.js';
import { BodyCode } from '../../contract/codes.js';
import { minor, type Minor } from '../../contract/money.js';
import { BusinessError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { customerBook, isCustomer, PLATFORM_SLOTS, type BalanceRow, type BookRef } from './books.js';
import {
  applyCredits,
  applyEvent,
  balancesOf,
  existingTransferKeys,
  lockCreditRows,
  findHoldByKey,
  findTransferByKey,
  insertHold,
  lockHold,
  openBooks,
  updateHold,
  type HoldRow,
  type TransferResult,
} from './ledger.repository.js';

/** What caused a transfer: a table and a row id (a withdrawal, an adjustment, an order ...). */
export interface Cause {
  table: string;
  id: string;
}

export interface TransferInput {
  /** Unique, derived from the cause (`adjustment:12`, `deposit:BEP20:<tx>:<log>`). */
  key: string;
  kind: RecordKind;
  asset: Asset;
  from: BookRef;
  to: BookRef;
  /** Above zero. */
  amount: Minor;
  ref: Cause;
}

export interface TransferOutcome {
  transfer: TransferResult;
  /** False when the key already existed: nothing moved this time. */
  applied: boolean;
}

/** The refusal when a customer's available money is short (BodyCode 470). */
export const insufficientBalance = () =>
  new BusinessError(BodyCode.insufficientBalance, 'server.insufficient_balance');

/** A hold that is no longer pending, or holds less than asked (BodyCode 409). */
export const holdNotPending = () => new BusinessError(BodyCode.conflict, 'server.hold_ended');

function rowOf(ref: BookRef, asset: Asset): BalanceRow {
  const slot = isCustomer(ref) ? 0 : Math.floor(Math.random() * PLATFORM_SLOTS);
  return { owner: ref.owner, book: ref.book, asset, slot };
}

/**
 * Writes the transfers of one event in `tx`, in order, all or none, in ONE statement (one round
 * trip however many transfers: `applyEvent`): a refusal leaves nothing of the event behind, and
 * the caller's transaction usable. Idempotent per key: a transfer whose key exists moves nothing
 * again. Throws BusinessError 470 when a customer's book is short where its debit comes.
 */
export async function transfer(
  tx: Executor,
  inputs: readonly TransferInput[],
  now: Date,
): Promise<TransferOutcome[]> {
  const keys = inputs.map((input) => input.key);
  if (new Set(keys).size !== keys.length)
    throw new Error(`ledger: one event names a key twice (${keys.join(', ')})`);
  for (const input of inputs) {
    if (input.amount <= 0n) throw new Error(`ledger: a transfer moves a positive amount (${input.key})`);
    if (input.from.owner === input.to.owner && input.from.book === input.to.book) {
      throw new Error(`ledger: a transfer needs two books (${input.key})`);
    }
  }
  if (inputs.length === 0) return [];
  const outcomes = await applyEvent(
    tx,
    inputs.map((input) => ({
      key: input.key,
      kind: input.kind,
      asset: input.asset,
      debit: rowOf(input.from, input.asset),
      credit: rowOf(input.to, input.asset),
      amount: input.amount,
      refTable: input.ref.table,
      refId: input.ref.id,
    })),
    now,
  );
  if (outcomes === 'insufficient') throw insufficientBalance();
  return outcomes;
}

/** One customer credit of `creditMany`. */
export interface CreditInput {
  /** Unique, derived from the cause (`team:2026-01-05:promotion:12:40`). */
  key: string;
  kind: RecordKind;
  /** The Coffer account whose book is credited. */
  accountId: number;
  /** Above zero. */
  amount: Minor;
  ref: Cause;
}

/**
 * Pays many customers from one platform book (a daily job's income lines) in a handful of
 * statements however many there are, in `tx`: the same books, keys, balances after and sync
 * change log as one `transfer` each, all or none. Idempotent per key: a key that exists moves
 * nothing again (its id is not answered). Answers the id of each transfer written.
 *
 * Unlike `transfer`, it takes no advisory lock per key (a day of 100 000 lines would fill
 * PostgreSQL's lock table): the caller must be the only writer of these keys at a time (the
 * scheduler's job lock); a racing writer of the same key fails on the unique index and rolls its
 * transaction back, so nothing is ever paid twice. Rows are locked in the global order.
 */
export async function creditMany(
  tx: Executor,
  from: BookRef,
  to: Book,
  asset: Asset,
  inputs: readonly CreditInput[],
  now: Date,
): Promise<Map<string, number>> {
  if (isCustomer(from)) throw new Error('ledger: creditMany pays from a platform book');
  const keys = inputs.map((input) => input.key);
  if (new Set(keys).size !== keys.length) throw new Error('ledger: one batch names a key twice');
  for (const input of inputs) {
    if (input.amount <= 0n) throw new Error(`ledger: a transfer moves a positive amount (${input.key})`);
  }
  const existing = await existingTransferKeys(tx, keys);
  const fresh = inputs.filter((input) => !existing.has(input.key));
  if (fresh.length === 0) return new Map();
  const slot = Math.floor(Math.random() * PLATFORM_SLOTS);
  const owners = [...new Set(fresh.map((input) => input.accountId))].sort((a, b) => a - b);
  const balances = await lockCreditRows(tx, { asset, fromBook: from.book, slot, toBook: to, owners });
  const rows = fresh.map((input) => {
    const after = (balances.get(input.accountId) ?? 0n) + input.amount;
    balances.set(input.accountId, after);
    return {
      key: input.key,
      kind: input.kind,
      owner: input.accountId,
      amount: input.amount,
      balanceAfter: after,
      refTable: input.ref.table,
      refId: input.ref.id,
    };
  });
  return applyCredits(tx, { asset, fromBook: from.book, slot, toBook: to, at: now, rows });
}

/** Opens a Coffer account's books (cash, hosting, held, for every asset) in the account's transaction. */
export async function openAccountBooks(tx: Executor, accountId: number): Promise<void> {
  await openBooks(tx, accountId, BOOKS, ASSETS);
}

export interface HoldInput {
  /** Unique, derived from the cause (`withdrawal:7`, `otc:order:12`). */
  key: string;
  /** The Coffer account whose cash is held. */
  accountId: number;
  asset: Asset;
  kind: RecordKind;
  amount: Minor;
  ref: Cause;
}

/**
 * Reserves `amount` of the account's cash (TigerBeetle's pending transfer): it moves from `cash`
 * to `held`, so it can no longer be spent, and waits for `postHold` or `voidHold`. Idempotent per
 * key (a repeat returns the existing hold). Throws 470 when the available cash is short.
 */
export async function hold(tx: Executor, input: HoldInput, now: Date): Promise<HoldRow> {
  const created = await insertHold(tx, {
    key: input.key,
    owner: input.accountId,
    asset: input.asset,
    kind: input.kind,
    amount: input.amount,
    remaining: input.amount,
    status: 'pending',
    refTable: input.ref.table,
    refId: input.ref.id,
    createdAt: now,
    updatedAt: now,
  });
  if (!created) {
    const existing = await findHoldByKey(tx, input.key);
    if (!existing) throw new Error(`ledger: hold ${input.key} vanished`);
    return existing;
  }
  await transfer(
    tx,
    [
      {
        key: `${input.key}:hold`,
        kind: input.kind,
        asset: input.asset,
        from: customerBook(input.accountId, 'cash'),
        to: customerBook(input.accountId, 'held'),
        amount: input.amount,
        ref: input.ref,
      },
    ],
    now,
  );
  return created;
}

/**
 * Posts `amount` of a pending hold to `to` (the whole of what remains when omitted): money
 * leaves `held` for good. A hold ends when nothing remains. Idempotent per `key`; throws 409
 * when the hold is no longer pending or holds less than `amount` (a cancel won the race).
 */
export async function postHold(
  tx: Executor,
  input: { holdId: number; key: string; to: BookRef; kind: RecordKind; amount?: Minor; ref: Cause },
  now: Date,
): Promise<TransferOutcome> {
  const locked = await lockHold(tx, input.holdId);
  if (!locked) throw new Error(`ledger: no hold ${input.holdId}`);
  const done = await findTransferByKey(tx, input.key);
  if (done) return { transfer: done, applied: false };
  const amount = input.amount ?? minor(locked.remaining);
  if (locked.status !== 'pending' || amount <= 0n || amount > locked.remaining) throw holdNotPending();
  const remaining = locked.remaining - amount;
  await updateHold(tx, locked.id, {
    remaining,
    status: remaining === 0n ? 'posted' : 'pending',
    updatedAt: now,
  });
  const [outcome] = await transfer(
    tx,
    [
      {
        key: input.key,
        kind: input.kind,
        asset: locked.asset as Asset,
        from: customerBook(locked.owner, 'held'),
        to: input.to,
        amount,
        ref: input.ref,
      },
    ], // the column holds only Asset values
    now,
  );
  if (!outcome) throw new Error('ledger: post wrote no transfer');
  return outcome;
}

/**
 * Releases what a pending hold still holds back to the account's cash (TigerBeetle's void).
 * Idempotent per `key`; returns null when the hold had already ended (posted or voided): a
 * cancel that loses to the last fill releases nothing, and nothing is released twice.
 */
export async function voidHold(
  tx: Executor,
  input: { holdId: number; key: string; kind: RecordKind; ref: Cause },
  now: Date,
): Promise<TransferOutcome | null> {
  const locked = await lockHold(tx, input.holdId);
  if (!locked) throw new Error(`ledger: no hold ${input.holdId}`);
  const done = await findTransferByKey(tx, input.key);
  if (done) return { transfer: done, applied: false };
  if (locked.status !== 'pending') return null;
  await updateHold(tx, locked.id, { remaining: 0n, status: 'voided', updatedAt: now });
  const [outcome] = await transfer(
    tx,
    [
      {
        key: input.key,
        kind: input.kind,
        asset: locked.asset as Asset, // the column holds only Asset values
        from: customerBook(locked.owner, 'held'),
        to: customerBook(locked.owner, 'cash'),
        amount: minor(locked.remaining),
        ref: input.ref,
      },
    ],
    now,
  );
  return outcome ?? null;
}

/** A Coffer account's balances per book and asset (0 where it never held any). */
export type AccountBalances = Record<Asset, Record<Book, Minor>>;

/** The balances of each of `accountIds`, read in `db` (a transaction sees its own writes). */
export async function accountBalances(
  db: Executor,
  accountIds: readonly number[],
): Promise<Map<number, AccountBalances>> {
  const empty = (): AccountBalances => ({
    USDT: { cash: minor(0n), hosting: minor(0n), held: minor(0n) },
    RAB: { cash: minor(0n), hosting: minor(0n), held: minor(0n) },
  });
  const result = new Map(accountIds.map((id) => [id, empty()]));
  for (const row of await balancesOf(db, accountIds)) {
    const balances = result.get(row.owner);
    if (!balances || (row.asset !== 'USDT' && row.asset !== 'RAB')) continue;
    if (row.book !== 'cash' && row.book !== 'hosting' && row.book !== 'held') continue;
    balances[row.asset][row.book] = minor(row.balance);
  }
  return result;
}
