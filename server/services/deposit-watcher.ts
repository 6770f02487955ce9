/**
 * A chain's deposit watcher (CONTRACT.md "Chains"). Each tick asks the chain first (no database
 * transaction is open while a node answers), then applies what it learned in one transaction
 * under the chain's advisory lock, so with several instances one applies and the others skip:
 *
 * - a new genesis (a restarted devnet) is a new chain: every unsettled deposit of the old one is
 *   reversed and the scan starts again from block 0;
 * - the hash of the last scanned block changed: a reorganisation; the cursor goes back past the
 *   finality depth and those blocks are scanned again;
 * - otherwise the next bounded range of blocks is scanned: each USDT transfer to a deposit
 *   address is recorded once per (chain, transaction, log index);
 * - every unsettled deposit whose block is still on the chain counts its confirmations: at 3 it
 *   is credited to the account's held balance (omnibus -> held), at the finality depth it becomes
 *   cash (held -> cash); one whose block is gone is reversed (held -> omnibus).
 *
 * Every credit is a ledger transfer keyed by the deposit (`deposit:BEP20:<tx>:<log>`), so a log
 * delivered twice, a tick re-run after a crash or two instances racing move money once.
 */
import { MIN_DEPOSIT_USDT, DEPOSIT_CONFIRMATIONS, type Chain } from '../../contract/constants.js';
import { fromTokenUnits, minor, moneyText, parseMoney } from '../../contract/money.js';
import type { ChainAdapter, TokenTransfer } from '../chains/chain.js';
import type { Clock } from '../clock.js';
import type { Database, Transaction } from '../db/database.js';
import { customerBook, omnibusOf } from '../ledger/books.js';
import { transfer, type TransferInput } from '../ledger/ledger.js';
import {
  addressesByHex,
  findCursor,
  recordSeenTransfer,
  saveCursor,
  tryWatcherLock,
  unsettledBlocks,
  unsettledDeposits,
  updateDeposit,
  type ChainCursorRow,
  type DepositRow,
} from '../repositories/recharge.repository.js';
import { recordChanges } from '../repositories/sync.repository.js';
import type { PollOutcome } from '../core/poll.js';
import { silentNotifier, type UserNotifier } from './user-notifier.js';

const MINIMUM = parseMoney(MIN_DEPOSIT_USDT);

export interface WatchedChain {
  adapter: ChainAdapter;
  /** Confirmations after which a deposit is final (held becomes cash). */
  finality: number;
  /** Where the first scan of a chain starts: a block, or the head when the watcher first sees it. */
  startBlock: bigint | 'head';
  /** Blocks scanned per tick at most. */
  scanRange: number;
}

export interface TickReport {
  status: 'scanned' | 'new_chain' | 'rewound' | 'locked_elsewhere' | 'raced';
  /** The blocks scanned, when any. */
  from?: string;
  to?: string;
  head: string;
  found: number;
  held: number;
  credited: number;
  reversed: number;
}

/** What this tick learned from the chain before touching the database. */
interface Observed {
  genesis: string;
  head: bigint;
  cursor: ChainCursorRow | undefined;
}

export class DepositWatcher {
  readonly chain: Chain;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly watched: WatchedChain,
    /** Tells each customer, after the tick committed, that a deposit of theirs became cash. */
    private readonly notifier: UserNotifier = silentNotifier,
  ) {
    this.chain = watched.adapter.chain;
  }

  get name(): string {
    return `${this.chain} watcher`;
  }

  /** A tick as PollLoop runs it: logged when it did something, again at once while catching up. */
  async poll(): Promise<PollOutcome> {
    const report = await this.tick();
    const busy = report.found + report.held + report.credited + report.reversed > 0;
    return {
      log: busy || report.status !== 'scanned' ? JSON.stringify(report) : null,
      again: report.status !== 'scanned' || (report.to !== undefined && report.to !== report.head),
    };
  }

  /**
   * One step: reads the chain, then applies in one transaction. Throws ChainAnswerError when the
   * node is down or answers garbage (nothing is applied; the next tick retries).
   */
  async tick(): Promise<TickReport> {
    const { adapter } = this.watched;
    const genesis = await adapter.genesisHash();
    const head = await adapter.head();
    const cursor = await findCursor(this.db, this.chain);
    const observed: Observed = { genesis, head, cursor };
    const base = { head: String(head), found: 0, held: 0, credited: 0, reversed: 0 };

    if (!cursor || cursor.genesisHash !== genesis) {
      // A chain seen before under another genesis starts again from its first block.
      const start = cursor ? 0n : this.watched.startBlock === 'head' ? head : this.watched.startBlock;
      return this.apply(observed, base, async (tx, now, report) => {
        if (cursor) report.reversed += await this.reverseAll(tx, now);
        await saveCursor(tx, {
          chain: this.chain,
          genesisHash: genesis,
          nextBlock: start,
          tipHash: null,
          updatedAt: now,
        });
        report.status = 'new_chain';
      });
    }

    if (cursor.nextBlock > 0n && cursor.tipHash !== null) {
      const tip = await adapter.blockHash(cursor.nextBlock - 1n);
      if (tip !== cursor.tipHash) {
        const back = cursor.nextBlock - BigInt(this.watched.finality) - 1n;
        const nextBlock = back > 0n ? back : 0n;
        const tipHash = nextBlock > 0n ? await adapter.blockHash(nextBlock - 1n) : null;
        return this.apply(observed, base, async (tx, now, report) => {
          await saveCursor(tx, {
            chain: this.chain,
            genesisHash: genesis,
            nextBlock,
            tipHash,
            updatedAt: now,
          });
          report.status = 'rewound';
          report.from = String(nextBlock);
        });
      }
    }

    const from = cursor.nextBlock;
    const last = from + BigInt(this.watched.scanRange) - 1n;
    const to = last < head ? last : head;
    const scanning = from <= to;
    const found = scanning
      ? await adapter.transfers(from, to, async (accounts) => {
          const rows = await addressesByHex(this.db, this.chain, accounts);
          return new Set(rows.map((row) => row.hex));
        })
      : [];
    const tipHash = scanning ? await adapter.blockHash(to) : cursor.tipHash;
    const scannedUpTo = scanning ? to : from - 1n;

    // The chain's hash of every block an unsettled deposit sits in (the scan's own blocks known).
    const canonical = new Map<bigint, string | null>();
    for (const transfer of found) canonical.set(transfer.blockNumber, transfer.blockHash);
    for (const block of await unsettledBlocks(this.db, this.chain)) {
      if (block <= scannedUpTo && !canonical.has(block)) canonical.set(block, await adapter.blockHash(block));
    }

    return this.apply(observed, base, async (tx, now, report, credited) => {
      report.found = await this.record(tx, found, now);
      await this.settle(tx, { head, scannedUpTo, canonical }, now, report, credited);
      await saveCursor(tx, {
        chain: this.chain,
        genesisHash: genesis,
        nextBlock: scannedUpTo + 1n,
        tipHash,
        updatedAt: now,
      });
      report.status = 'scanned';
      if (scanning) Object.assign(report, { from: String(from), to: String(to) });
    });
  }

  /**
   * Runs `work` in one transaction under the chain's lock, unless another instance holds the
   * lock or moved the cursor since this tick read it (then nothing is applied). The deposits
   * `work` credited are told to their owners once the transaction committed.
   */
  private async apply(
    observed: Observed,
    base: Omit<TickReport, 'status'>,
    work: (tx: Transaction, now: Date, report: TickReport, credited: DepositRow[]) => Promise<void>,
  ): Promise<TickReport> {
    const credited: DepositRow[] = [];
    const outcome = await this.db.transaction(async (tx): Promise<TickReport> => {
      const report: TickReport = { status: 'scanned', ...base };
      if (!(await tryWatcherLock(tx, this.chain))) return { ...report, status: 'locked_elsewhere' };
      const current = await findCursor(tx, this.chain);
      const same =
        current?.genesisHash === observed.cursor?.genesisHash &&
        current?.nextBlock === observed.cursor?.nextBlock &&
        current?.tipHash === observed.cursor?.tipHash;
      if (!same) return { ...report, status: 'raced' };
      await work(tx, this.clock.now(), report, credited);
      return report;
    });
    for (const row of credited)
      this.notifier.notify(row.userId, { kind: 'deposit_credited', amount: moneyText(row.amount) });
    return outcome;
  }

  /** Records the transfers to deposit addresses; answers how many were new or moved. */
  private async record(tx: Transaction, found: readonly TokenTransfer[], now: Date): Promise<number> {
    const owners = new Map(
      (await addressesByHex(tx, this.chain, [...new Set(found.map((transfer) => transfer.to))])).map(
        (row) => [row.hex, row],
      ),
    );
    const changed: DepositRow[] = [];
    for (const seen of found) {
      const owner = owners.get(seen.to);
      if (!owner) continue;
      const { amount, dust } = fromTokenUnits(seen.value, this.watched.adapter.decimals);
      const row = await recordSeenTransfer(tx, {
        chain: this.chain,
        txHash: seen.txHash,
        logIndex: seen.logIndex,
        accountId: owner.accountId,
        userId: owner.userId,
        address: owner.address,
        fromHex: seen.from,
        blockNumber: seen.blockNumber,
        blockHash: seen.blockHash,
        value: String(seen.value),
        amount,
        dust: String(dust),
        status: amount < MINIMUM ? 'below_minimum' : 'confirming',
        confirmations: 0,
        detectedAt: now,
        updatedAt: now,
      });
      if (row) changed.push(row);
    }
    await this.announce(tx, changed, now);
    return changed.length;
  }

  /** Counts confirmations of each unsettled deposit, credits, finalises or reverses it. */
  private async settle(
    tx: Transaction,
    chain: { head: bigint; scannedUpTo: bigint; canonical: Map<bigint, string | null> },
    now: Date,
    report: TickReport,
    credited: DepositRow[],
  ): Promise<void> {
    const changed: DepositRow[] = [];
    for (const row of await unsettledDeposits(tx, this.chain)) {
      if (row.blockNumber > chain.scannedUpTo) continue; // after a rewind: scanned again first
      const hash = chain.canonical.get(row.blockNumber);
      if (hash === undefined) continue; // not asked this tick
      if (hash !== row.blockHash) {
        changed.push(await this.reverse(tx, row, now));
        report.reversed += 1;
        continue;
      }
      const depth = chain.head - row.blockNumber + 1n;
      const confirmations = Number(
        depth < BigInt(this.watched.finality) ? depth : BigInt(this.watched.finality),
      );
      let status = row.status;
      const moves: TransferInput[] = [];
      if (status === 'confirming' && confirmations >= DEPOSIT_CONFIRMATIONS) {
        moves.push(this.move(row, 'deposit', omnibusOf(this.chain), customerBook(row.accountId, 'held')));
        status = 'held';
        report.held += 1;
      }
      if (status === 'held' && confirmations >= this.watched.finality) {
        moves.push(
          this.move(
            row,
            'deposit_final',
            customerBook(row.accountId, 'held'),
            customerBook(row.accountId, 'cash'),
          ),
        );
        status = 'credited';
        report.credited += 1;
      }
      if (moves.length === 0 && confirmations === row.confirmations) continue;
      if (moves.length > 0) await transfer(tx, moves, now);
      const saved = await updateDeposit(tx, row.id, {
        status,
        confirmations,
        updatedAt: now,
        ...(status !== row.status && status === 'held' ? { heldAt: now } : {}),
        ...(status === 'credited' ? { creditedAt: now, heldAt: row.heldAt ?? now } : {}),
      });
      changed.push(saved);
      if (status === 'credited' && row.status !== 'credited') credited.push(saved);
    }
    await this.announce(tx, changed, now);
  }

  /** Takes back a deposit whose block left the chain: a held credit returns to the omnibus. */
  private async reverse(tx: Transaction, row: DepositRow, now: Date): Promise<DepositRow> {
    if (row.status === 'held') {
      await transfer(
        tx,
        [this.move(row, 'deposit_reversal', customerBook(row.accountId, 'held'), omnibusOf(this.chain))],
        now,
      );
    }
    return updateDeposit(tx, row.id, { status: 'reversed', reversedAt: now, updatedAt: now });
  }

  /** A new genesis: every unsettled deposit of the vanished chain is reversed. */
  private async reverseAll(tx: Transaction, now: Date): Promise<number> {
    const changed: DepositRow[] = [];
    for (const row of await unsettledDeposits(tx, this.chain)) changed.push(await this.reverse(tx, row, now));
    await this.announce(tx, changed, now);
    return changed.length;
  }

  /** The ledger transfer of one step of a deposit, keyed by the deposit (and its attempt). */
  private move(
    row: DepositRow,
    step: 'deposit' | 'deposit_final' | 'deposit_reversal',
    from: TransferInput['from'],
    to: TransferInput['to'],
  ): TransferInput {
    const attempt = row.attempt > 0 ? `:${row.attempt}` : '';
    return {
      key: `${step}:${this.chain}:${row.txHash}:${row.logIndex}${attempt}`,
      kind: 'recharge',
      asset: 'USDT',
      from,
      to,
      amount: minor(row.amount),
      ref: { table: 'deposits', id: String(row.id) },
    };
  }

  private async announce(tx: Transaction, rows: readonly DepositRow[], now: Date): Promise<void> {
    await recordChanges(
      tx,
      rows.map((row) => ({
        collection: 'deposits',
        scopeId: row.accountId,
        recordId: String(row.id),
        deleted: false,
        at: now,
      })),
    );
  }
}
