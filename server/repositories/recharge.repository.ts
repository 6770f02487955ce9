/** SQL of deposit addresses, deposits and the chain watchers' cursors. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Chain } from '../../contract/constants.js';
import type { Executor } from '../db/database.js';
import { accountRecords } from './account-rows.js';
import { rowWhere, updateRow } from './rows.js';
import { chainCursors, depositAddresses, deposits, sweeps } from '../db/schema.js';

export type DepositAddressRow = typeof depositAddresses.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;
export type NewDeposit = typeof deposits.$inferInsert;
export type ChainCursorRow = typeof chainCursors.$inferSelect;

export const findDepositAddress = (db: Executor, chain: Chain, accountId: number) =>
  rowWhere(
    db,
    depositAddresses,
    eq(depositAddresses.chain, chain),
    eq(depositAddresses.accountId, accountId),
  );

/** Stores an account's address unless one exists (a racing first request); answers the stored one. */
export async function saveDepositAddress(
  db: Executor,
  row: typeof depositAddresses.$inferInsert,
): Promise<DepositAddressRow> {
  await db.insert(depositAddresses).values(row).onConflictDoNothing();
  const stored = await findDepositAddress(db, row.chain as Chain, row.accountId);
  if (!stored) throw new Error(`deposit address of account ${row.accountId} vanished`);
  return stored;
}

/** The deposit addresses among `hexes` (20-byte lower-case hex) on `chain`. */
export async function addressesByHex(
  db: Executor,
  chain: Chain,
  hexes: readonly string[],
): Promise<DepositAddressRow[]> {
  if (hexes.length === 0) return [];
  return db
    .select()
    .from(depositAddresses)
    .where(and(eq(depositAddresses.chain, chain), inArray(depositAddresses.hex, [...hexes])));
}

const lockSchema = z.object({ rows: z.array(z.object({ locked: z.boolean() })) });

/** This chain's watcher lock for the transaction: false when another instance holds it. */
export async function tryWatcherLock(db: Executor, chain: Chain): Promise<boolean> {
  const result = lockSchema.parse(
    await db.execute(sql`select pg_try_advisory_xact_lock(hashtext(${`coffer-watcher:${chain}`})) as locked`),
  );
  return result.rows[0]?.locked === true;
}

export async function findCursor(db: Executor, chain: Chain): Promise<ChainCursorRow | undefined> {
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.chain, chain));
  return row;
}

/** Sets the cursor (creating it); the caller holds the watcher lock. */
export async function saveCursor(db: Executor, row: ChainCursorRow): Promise<void> {
  await db
    .insert(chainCursors)
    .values(row)
    .onConflictDoUpdate({
      target: chainCursors.chain,
      set: {
        genesisHash: row.genesisHash,
        nextBlock: row.nextBlock,
        tipHash: row.tipHash,
        updatedAt: row.updatedAt,
      },
    });
}

/**
 * Records a transfer seen on the chain. New: inserted. Seen before in the same block: nothing
 * (a log delivered again), answers undefined. Seen before in another block (a reorganisation
 * moved it): the row follows it; a reversed one comes back as `confirming` with its next attempt.
 */
export async function recordSeenTransfer(db: Executor, row: NewDeposit): Promise<DepositRow | undefined> {
  const [saved] = await db
    .insert(deposits)
    .values(row)
    .onConflictDoUpdate({
      target: [deposits.chain, deposits.txHash, deposits.logIndex],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        updatedAt: sql`excluded.updated_at`,
        status: sql`case when ${deposits.status} = 'reversed' then 'confirming' else ${deposits.status} end`,
        attempt: sql`case when ${deposits.status} = 'reversed' then ${deposits.attempt} + 1 else ${deposits.attempt} end`,
        reversedAt: sql`case when ${deposits.status} = 'reversed' then null else ${deposits.reversedAt} end`,
        heldAt: sql`case when ${deposits.status} = 'reversed' then null else ${deposits.heldAt} end`,
      },
      setWhere: sql`${deposits.blockHash} <> excluded.block_hash and ${deposits.status} in ('confirming', 'held', 'reversed')`,
    })
    .returning();
  return saved;
}

/** Deposits of `chain` not yet final (confirming or held), locked for this transaction. */
export async function unsettledDeposits(db: Executor, chain: Chain): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.chain, chain), inArray(deposits.status, ['confirming', 'held'])))
    .orderBy(deposits.id)
    .for('update');
}

/** The distinct blocks of `chain`'s unsettled deposits (read without locks, before a tick's calls). */
export async function unsettledBlocks(db: Executor, chain: Chain): Promise<bigint[]> {
  const rows = await db
    .selectDistinct({ block: deposits.blockNumber })
    .from(deposits)
    .where(and(eq(deposits.chain, chain), inArray(deposits.status, ['confirming', 'held'])));
  return rows.map((row) => row.block);
}

export const updateDeposit = (
  db: Executor,
  id: number,
  patch: Partial<
    Pick<DepositRow, 'status' | 'confirmations' | 'heldAt' | 'creditedAt' | 'reversedAt' | 'updatedAt'>
  >,
): Promise<DepositRow> => updateRow(db, deposits, id, patch);

/** One account's deposits: a page newest first (below `beforeId` when given), or those with these ids. */
export const { page: depositsOfAccount, byIds: depositsByIds } = accountRecords(deposits);

/** The deposit addresses of `chain` with at least one credited (final) deposit: what a sweep moves. */
export async function addressesWithCreditedDeposits(
  db: Executor,
  chain: Chain,
): Promise<DepositAddressRow[]> {
  return db
    .select()
    .from(depositAddresses)
    .where(
      and(
        eq(depositAddresses.chain, chain),
        sql`exists (select 1 from ${deposits} where ${deposits.chain} = ${chain}
                 and ${deposits.accountId} = ${depositAddresses.accountId} and ${deposits.status} = 'credited')`,
      ),
    )
    .orderBy(depositAddresses.accountId);
}

export async function insertSweep(db: Executor, row: typeof sweeps.$inferInsert): Promise<void> {
  await db.insert(sweeps).values(row);
}
