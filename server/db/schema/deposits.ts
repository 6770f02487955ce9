/**
 * Deposits: addresses, detected deposits, the chain watchers' cursors and sweeps.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, userRef, accountRef, money, status, createdAt, updatedAt } from './columns.js';

/**
 * Each Coffer account's deposit address per chain: derived from the chain's extended public key
 * at index = the account's id, stored when first asked for, so it never changes and the watcher
 * finds the account of a transfer by `hex` (the 20-byte account, lower-case `0x` hex).
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    chain: text('chain').notNull(),
    accountId: accountRef(),
    userId: userRef(),
    derivationIndex: integer('derivation_index').notNull(),
    address: text('address').notNull(),
    hex: text('hex').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.chain, t.accountId] }),
    uniqueIndex('deposit_addresses_hex').on(t.chain, t.hex),
  ],
);

/**
 * One token transfer to a deposit address, once per (chain, transaction, log index). `value` is
 * what the chain sent in the token's units; `amount` the credited minor units (truncated to 6
 * decimals) and `dust` the truncated remainder in token units, kept on the platform's side.
 * `attempt` counts reinclusions after a reversal (each gets its own ledger keys).
 */
export const deposits = pgTable(
  'deposits',
  {
    id: id(),
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    accountId: accountRef(),
    userId: userRef(),
    address: text('address').notNull(),
    fromHex: text('from_hex').notNull(),
    blockNumber: money('block_number'),
    blockHash: text('block_hash').notNull(),
    value: text('value').notNull(),
    amount: money('amount'),
    dust: text('dust').notNull(),
    status: status(),
    confirmations: integer('confirmations').notNull(),
    attempt: integer('attempt').notNull().default(0),
    detectedAt: at('detected_at').notNull(),
    heldAt: at('held_at'),
    creditedAt: at('credited_at'),
    reversedAt: at('reversed_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('deposits_transfer').on(t.chain, t.txHash, t.logIndex),
    index('deposits_account').on(t.accountId, t.id),
    index('deposits_unsettled')
      .on(t.chain, t.blockNumber)
      .where(sql`${t.status} in ('confirming', 'held')`),
    check(
      'deposits_status',
      sql`${t.status} in ('confirming', 'held', 'credited', 'below_minimum', 'reversed')`,
    ),
    check('deposits_amount_not_negative', sql`${t.amount} >= 0`),
  ],
);

/**
 * Where each chain's watcher is: the chain it scans (its genesis hash), the next block to scan
 * and the hash of the block before it (a different hash there means a reorganisation).
 */
export const chainCursors = pgTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  genesisHash: text('genesis_hash').notNull(),
  nextBlock: money('next_block'),
  tipHash: text('tip_hash'),
  updatedAt: updatedAt(),
});

/**
 * One deposit address swept to the hot wallet by the operator's `sweep` command: the token
 * amount moved (token units), the gas top-up and the transfer's transactions. Audited too.
 */
export const sweeps = pgTable(
  'sweeps',
  {
    id: id(),
    chain: text('chain').notNull(),
    accountId: accountRef(),
    address: text('address').notNull(),
    value: text('value').notNull(),
    gasTxHash: text('gas_tx_hash'),
    txHash: text('tx_hash').notNull(),
    status: status(),
    createdAt: createdAt(),
  },
  (t) => [
    index('sweeps_chain').on(t.chain, t.id),
    check('sweeps_status', sql`${t.status} in ('sent', 'failed')`),
  ],
);
