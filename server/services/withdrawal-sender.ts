/**
 * The send job of approved USDT withdrawals on one chain (BEP20, from the hot wallet).
 *
 * Never one withdrawal sent twice:
 * - A withdrawal is signed and its nonce, hash and signed bytes recorded (`stage: sending`) in
 *   one transaction BEFORE the bytes are broadcast. A crash after the record sends the same bytes
 *   again on the next tick (same nonce, same hash: the chain takes them at most once); a crash
 *   before it leaves nothing signed.
 * - Nonces come from the larger of the chain's pending count and the highest recorded + 1, under
 *   the job's advisory lock (and a unique index): no two withdrawals share a nonce.
 * - A recorded transaction the node does not know is broadcast again, unless the hot wallet's
 *   mined count has passed its nonce (another transaction of the hot wallet, such as a sweep's gas
 *   top-up, took the nonce): then it can never be mined, and only then is it signed anew. The
 *   mined count is read before the transaction's state, so a transaction mined in between is seen.
 * - It succeeds at the chain's confirmations (the hold posted), or fails when it reverted (the
 *   hold released as `withdrawal_reversal`).
 * - The depth it sees on each follow is recorded as `confirmations` for the console (0 when
 *   signed, and while the transaction is not in a block), written only when it changed and capped
 *   at the required count: the job stops looking there, so a larger number would be a stale one.
 *   A reorganisation that takes the block away lowers it again.
 */
import type { Chain } from '../../contract/constants.js';
import { DEPOSIT_CONFIRMATIONS } from '../../contract/constants.js';
import type { UsdtSender } from '../chains/evm-sender.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { PollOutcome } from '../core/poll.js';
import { tryJobLock } from '../repositories/job.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import {
  highestNonce,
  lockWithdrawal,
  pendingAtStage,
  recordConfirmations,
  updateWithdrawal,
  type WithdrawalRow,
} from '../repositories/withdraw.repository.js';
import { moneyText } from '../../contract/money.js';
import { silentNotifier, type UserNotifier } from './user-notifier.js';
import { releaseWithdrawal, settleWithdrawal } from './withdraw.service.js';

/** Withdrawals looked at per tick and stage. */
const BATCH = 20;

export interface SendReport {
  signed: number;
  rebroadcast: number;
  paid: number;
  failed: number;
  resigned: number;
  waiting: number;
  /** Withdrawals whose recorded confirmation count changed this tick. */
  counted: number;
}

/** Points where tests stop the job the hard way (kill -9) to prove a crash there sends nothing twice. */
export interface SendHooks {
  afterRecord?: (withdrawalId: number) => void | Promise<void>;
  afterBroadcast?: (withdrawalId: number) => void | Promise<void>;
}

export class WithdrawalSender {
  readonly name: string;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    readonly chain: Chain,
    private readonly sender: UsdtSender,
    /** The confirmations a sent transaction waits for before it settles. */
    readonly confirmations: number = DEPOSIT_CONFIRMATIONS,
    private readonly hooks: SendHooks = {},
    /** Tells the customer, after commit, that their withdrawal succeeded or failed on chain. */
    private readonly notifier: UserNotifier = silentNotifier,
  ) {
    this.name = `${chain} withdrawals`;
  }

  async poll(): Promise<PollOutcome> {
    const report = await this.tick();
    const acted = report.signed + report.rebroadcast + report.paid + report.failed + report.resigned;
    return { log: acted > 0 ? JSON.stringify(report) : null, again: false };
  }

  /** Follows what was sent, then signs and sends what was approved. */
  async tick(): Promise<SendReport> {
    const report: SendReport = {
      signed: 0,
      rebroadcast: 0,
      paid: 0,
      failed: 0,
      resigned: 0,
      waiting: 0,
      counted: 0,
    };
    for (const row of await pendingAtStage(this.db, 'sending', this.chain, BATCH))
      await this.follow(row, report);
    for (const row of await pendingAtStage(this.db, 'approved', this.chain, BATCH))
      await this.send(row, report);
    return report;
  }

  private async send(row: WithdrawalRow, report: SendReport): Promise<void> {
    const chainNonce = await this.sender.pendingNonce();
    const signed = await this.db.transaction(async (tx) => {
      if (!(await tryJobLock(tx, `withdraw-send:${this.chain}`))) return null;
      const locked = await lockWithdrawal(tx, row.id);
      if (!locked || locked.status !== 'pending' || locked.stage !== 'approved' || !locked.address)
        return null;
      const recorded = await highestNonce(tx, this.chain);
      const nonce = Math.max(chainNonce, recorded === null ? 0 : recorded + 1);
      const transfer = await this.sender.sign({ to: locked.address, amount: locked.amount, nonce });
      const now = this.clock.now();
      const saved = await updateWithdrawal(tx, locked.id, {
        stage: 'sending',
        nonce,
        txHash: transfer.hash,
        rawTx: transfer.raw,
        confirmations: 0,
        sendAttempt: locked.sendAttempt + 1,
        sentAt: now,
        updatedAt: now,
      });
      await recordChange(tx, {
        collection: 'withdrawals',
        scopeId: saved.accountId,
        recordId: String(saved.id),
        deleted: false,
        at: now,
      });
      return transfer;
    });
    if (!signed) return;
    report.signed += 1;
    await this.hooks.afterRecord?.(row.id);
    await this.sender.broadcast(signed.raw);
    await this.hooks.afterBroadcast?.(row.id);
  }

  private async follow(row: WithdrawalRow, report: SendReport): Promise<void> {
    const hash = row.txHash as `0x${string}` | null;
    if (!hash || row.nonce === null || !row.rawTx)
      throw new Error(`withdrawal ${row.id} is sending without a transaction`);
    const mined = await this.sender.minedNonce();
    const state = await this.sender.state(hash);
    if (state.receipt) {
      const depth = (await this.sender.head()) - state.receipt.blockNumber + 1n;
      if (depth < BigInt(this.confirmations)) {
        await this.count(row, hash, Math.max(0, Number(depth)), report);
        report.waiting += 1;
        return;
      }
      const succeeded = state.receipt.status === 'success';
      const ended = await this.db.transaction(async (tx) => {
        const locked = await lockWithdrawal(tx, row.id);
        if (!locked || locked.status !== 'pending' || locked.stage !== 'sending' || locked.txHash !== hash)
          return null;
        if (await recordConfirmations(tx, locked.id, hash, this.confirmations)) report.counted += 1;
        const now = this.clock.now();
        if (succeeded) return settleWithdrawal(tx, locked, {}, now);
        return releaseWithdrawal(tx, locked, { stage: 'failed', reason: `reverted on chain: ${hash}` }, now);
      });
      // Committed: only now is the customer told (never twice: a second tick finds it ended).
      if (ended)
        this.notifier.notify(ended.userId, {
          kind: succeeded ? 'withdrawal_succeeded' : 'withdrawal_failed',
          amount: moneyText(ended.amount),
        });
      report[succeeded ? 'paid' : 'failed'] += 1;
      return;
    }
    // Not in a block (yet, or any more after a reorganisation): no confirmations.
    if (state.known) {
      await this.count(row, hash, 0, report);
      report.waiting += 1;
      return;
    }
    if (mined > row.nonce) {
      // Another transaction of the hot wallet took this nonce: this one can never be mined.
      await this.db.transaction(async (tx) => {
        const locked = await lockWithdrawal(tx, row.id);
        if (!locked || locked.stage !== 'sending' || locked.txHash !== hash) return;
        await updateWithdrawal(tx, locked.id, {
          stage: 'approved',
          nonce: null,
          txHash: null,
          rawTx: null,
          confirmations: null,
          updatedAt: this.clock.now(),
        });
      });
      report.resigned += 1;
      return;
    }
    await this.count(row, hash, 0, report);
    await this.sender.broadcast(row.rawTx as `0x${string}`);
    report.rebroadcast += 1;
  }

  /** Records the depth seen for a sending withdrawal when it changed (one conditional UPDATE). */
  private async count(row: WithdrawalRow, hash: string, seen: number, report: SendReport): Promise<void> {
    if (row.confirmations === seen) return;
    if (await recordConfirmations(this.db, row.id, hash, seen)) report.counted += 1;
  }
}
