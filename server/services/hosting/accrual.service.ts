/**
 * The daily hosting accrual's work (docs/protocol.md section 20; run by
 * server/jobs/hosting-accrual.job.ts): each order's interest per local day, and maturities.
 *
 * What stays true:
 * - interest for an (order, local day) is accrued once (hosting_accruals' primary key), paid by
 *   a transfer keyed `hosting:<order>:interest:<day>` with its income line, in the job's
 *   transaction: a re-run, or a run killed half-way (which commits nothing), never pays twice;
 *   every day not yet accrued is caught up, oldest first, on the next run;
 * - interest is paid in batches with no lock per line (the job's lines due at once through
 *   `creditIncomeMany`, a maturing order's pending lines through `arrivePendingIncomeMany`), so
 *   the locks the job's one transaction holds do not grow with the orders accruing (a day of
 *   10 000 orders paid one transfer at a time would fill PostgreSQL's lock table); only each
 *   maturity's principal is one transfer with its own lock.
 */
import { dayInterest, parseRate, principalMinutesOf } from '../../../contract/hosting-interest.js';
import { moneyText } from '../../../contract/money.js';
import type { Executor } from '../../db/database.js';
import {
  changesOfOrder,
  insertAccrual,
  lockOrdersDue,
  setAccrualIncome,
  setAccrualIncomeMany,
  updateOrder,
  type HostingOrderRow,
} from '../../repositories/hosting.repository.js';
import { findIncomeByKey } from '../../repositories/income.repository.js';
import { recordChanges } from '../../repositories/sync.repository.js';
import { creditIncome, creditIncomeMany, type IncomeLine } from '../income.service.js';
import { eachDueBeforeToday, type DayWorkReport } from '../due-rows.js';
import { closeOrder } from './close.js';
import { localDateOf, localDayOf, spansOf } from './days.js';
import { orderChange, ORDERS } from './records.js';

/**
 * Orders the job locks at a time, within its one transaction. Every due order is locked before
 * the first transfer, so a customer's command (which locks its order, then ledger rows) can never
 * wait on the job in a cycle; only beyond this many due orders in one run would a second batch
 * lock orders after the first batch's transfers (PostgreSQL would then abort one side as a
 * deadlock, and the job runs again a minute later).
 */
const JOB_BATCH = 100_000;

/**
 * Interest lines the job collects before paying them in one batch (`creditIncomeMany`): memory,
 * not a limit (a batch takes no lock per line).
 */
const LINES_PER_PAYMENT = 5000;

/** Test hooks inside a run (tests kill the job half-way with them). */
export interface AccrualHooks {
  /** Called after each order's work, inside the run's transaction. */
  afterOrder?(orderId: number): void | Promise<void>;
}

/** An interest line the job pays at once, and the accrual it pays. */
interface DueLine {
  line: IncomeLine;
  orderId: number;
  day: string;
}

/**
 * What one run of the accrual job did (job_runs.detail); `paid` is the interest paid into cash now
 * (daily payout, or lines of ended orders).
 */
export interface AccrualReport extends DayWorkReport {
  orders: number;
  /** Interest accrued as pending income (paid at maturity). */
  pending: string;
  matured: number;
}

export class HostingAccrualService {
  constructor(private readonly timezone: string) {}

  /**
   * The accrual job's work at `now`, in `tx`: every order with a whole local day of interest not
   * yet accrued gets each such day, oldest first (a day missed while the server was down is
   * caught up); then each order in progress whose maturity has come returns its principal and
   * any interest pending arrival. Idempotent: what is done is never done again. Interest paid at
   * once goes out in batches of up to LINES_PER_PAYMENT lines, all in `tx`.
   */
  async run(tx: Executor, now: Date, hooks: AccrualHooks = {}): Promise<AccrualReport> {
    const report = { days: 0, paid: 0n, pending: 0n, matured: 0 };
    const due: DueLine[] = [];
    const orders = await eachDueBeforeToday(
      now,
      this.timezone,
      (dayStart) => lockOrdersDue(tx, { dayStart, now, limit: JOB_BATCH }),
      'hosting accrual: orders',
      async (order, dayStart) => {
        let current = await this.accrue(tx, order, dayStart, now, report, due);
        if (current.status === 'in_progress' && current.endAt <= now) {
          current = (await closeOrder(tx, current, 'maturity', now, this.timezone)).order;
          report.matured += 1;
        }
        if (due.length >= LINES_PER_PAYMENT) await payInterest(tx, due.splice(0), now);
        await hooks.afterOrder?.(order.id);
      },
    );
    await payInterest(tx, due.splice(0), now);
    return {
      orders,
      days: report.days,
      paid: moneyText(report.paid),
      pending: moneyText(report.pending),
      matured: report.matured,
    };
  }

  /**
   * Accrues each whole local day of `order` before `dayStart` not yet accrued: a line pending
   * arrival is written now, a line paid at once is added to `due` (the caller pays it in `tx`).
   */
  private async accrue(
    tx: Executor,
    order: HostingOrderRow,
    dayStart: Date,
    now: Date,
    report: { days: number; paid: bigint; pending: bigint },
    due: DueLine[],
  ): Promise<HostingOrderRow> {
    if (!(order.accruedUntil < order.interestUntil && order.accruedUntil < dayStart)) return order;
    const steps = (await changesOfOrder(tx, order.id)).map((change) => ({
      at: change.at,
      principalAfter: change.principalAfter,
    }));
    const rate = parseRate(order.dailyRate);
    const ended = order.status !== 'in_progress';
    const today = localDateOf(now, this.timezone);
    let { accruedUntil, accrued, paid } = order;
    while (accruedUntil < order.interestUntil && accruedUntil < dayStart) {
      const day = localDayOf(accruedUntil, this.timezone);
      const until = day.end < order.interestUntil ? day.end : order.interestUntil;
      const principalMinutes = principalMinutesOf(spansOf(steps, day.start, until));
      const amount = dayInterest(principalMinutes, day.minutes, rate);
      const first = await insertAccrual(tx, {
        orderId: order.id,
        day: day.date,
        accountId: order.accountId,
        principalMinutes: principalMinutes.toString(),
        minutesOfDay: day.minutes,
        dailyRate: order.dailyRate,
        amount,
        createdAt: now,
      });
      accruedUntil = day.end;
      if (!first) continue; // accrued before: never twice
      report.days += 1;
      if (amount === 0n) continue;
      // Paid at once for a daily payout, and for an order that already ended (redeemed early).
      const payNow = order.payout === 'daily' || ended;
      const key = `hosting:${order.id}:interest:${day.date}`;
      const line: IncomeLine = {
        accountId: order.accountId,
        userId: order.userId,
        type: 'static',
        amount,
        earningsDate: day.date,
        arrivalDate: payNow ? today : localDateOf(order.endAt, this.timezone),
        status: payNow ? 'arrived' : 'pending_arrival',
        key,
        transferKey: key,
        from: 'interest_expense',
        ref: { table: ORDERS, id: String(order.id) },
      };
      accrued += amount;
      if (payNow) {
        due.push({ line, orderId: order.id, day: day.date });
        paid += amount;
        report.paid += amount;
      } else {
        // A pending line moves no money now (no transfer, no lock): written at once, so that a
        // maturity later in this run finds it.
        const written = await creditIncome(tx, line, now);
        await setAccrualIncome(tx, order.id, day.date, written.id);
        report.pending += amount;
      }
    }
    const saved = await updateOrder(tx, order.id, { accruedUntil, accrued, paid, updatedAt: now });
    await recordChanges(tx, [orderChange(saved, now)]);
    return saved;
  }
}

/**
 * Pays the job's interest lines due at once, in `tx`: each line and its transfer (interest
 * expense -> the account's cash) in a few statements per batch, with no lock per line; then names
 * each accrual's line. A line whose key exists already (written before its accrual, which the
 * job never does) is named as it is, and not paid again.
 */
async function payInterest(tx: Executor, due: readonly DueLine[], now: Date): Promise<void> {
  if (due.length === 0) return;
  const written = await creditIncomeMany(
    tx,
    'interest_expense',
    due.map(({ line }) => line),
    now,
  );
  const ids = new Map(written.map((row) => [row.transferKey, row.id]));
  const named: { orderId: number; day: string; incomeId: number }[] = [];
  for (const { line, orderId, day } of due) {
    const id = ids.get(line.transferKey) ?? (await findIncomeByKey(tx, line.key))?.id;
    if (id === undefined) throw new Error(`hosting accrual: income ${line.key} vanished`);
    named.push({ orderId, day, incomeId: id });
  }
  await setAccrualIncomeMany(tx, named);
}
