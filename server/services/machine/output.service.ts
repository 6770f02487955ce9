/**
 * The daily machine output's work (docs/protocol.md section 22; run by
 * server/jobs/machine-output.job.ts): each active holding's output per local day.
 *
 * What stays true: a holding's output for a (holding, local day) is recorded once
 * (machine_earnings' primary key) and paid by the transfer `machine:<holding>:output:<day>` with
 * its `mining_machine` income line, in the job's transaction: a re-run, or a run killed half-way
 * (which commits nothing), never pays twice; every day not yet paid is caught up, oldest first,
 * on the next run; a holding whose last day is paid expires and earns nothing more.
 */
import { dayOutput } from '../../../contract/machine-output.js';
import { moneyText } from '../../../contract/money.js';
import type { Executor } from '../../db/database.js';
import {
  insertEarning,
  lockOwnedMachinesDue,
  setEarningIncome,
  updateOwnedMachine,
  type OwnedMachineRow,
} from '../../repositories/machine.repository.js';
import { recordChanges } from '../../repositories/sync.repository.js';
import { localDateOf, localDayOf } from '../hosting/days.js';
import { eachDueBeforeToday, type DayWorkReport } from '../due-rows.js';
import { creditIncome } from '../income.service.js';
import { HOLDINGS, holdingChange } from './records.js';

/** Holdings the job locks and works through at a time (within its one transaction). */
const JOB_BATCH = 500;

/** Test hooks inside a run (tests stop the job half-way with them). */
export interface OutputHooks {
  /** Called after each holding's work, inside the run's transaction. */
  afterHolding?(ownedMachineId: number): void | Promise<void>;
}

/** What one run of the output job did (job_runs.detail). */
export interface OutputReport extends DayWorkReport {
  holdings: number;
  expired: number;
}

export class MachineOutputService {
  constructor(private readonly timezone: string) {}

  /**
   * The output job's work at `now`, in `tx`: every active holding with a whole local day not yet
   * paid gets each such day of its term, oldest first (a day missed while the server was down is
   * caught up), and expires once its last day is paid. Idempotent: what is done is never done again.
   */
  async run(tx: Executor, now: Date, hooks: OutputHooks = {}): Promise<OutputReport> {
    const report = { days: 0, paid: 0n, expired: 0 };
    const holdings = await eachDueBeforeToday(
      now,
      this.timezone,
      (dayStart) => lockOwnedMachinesDue(tx, { dayStart, limit: JOB_BATCH }),
      'machine output: holdings',
      async (holding, dayStart) => {
        const saved = await this.pay(tx, holding, dayStart, now, report);
        if (saved.status === 'expired') report.expired += 1;
        await hooks.afterHolding?.(holding.id);
      },
    );
    return {
      holdings,
      days: report.days,
      paid: moneyText(report.paid),
      expired: report.expired,
    };
  }

  /** Pays each whole local day of `holding`'s term before `dayStart` not yet paid; expires it after its last. */
  private async pay(
    tx: Executor,
    holding: OwnedMachineRow,
    dayStart: Date,
    now: Date,
    report: { days: number; paid: bigint },
  ): Promise<OwnedMachineRow> {
    const daily = dayOutput(holding.hashPower, holding.quantity, holding.dailyOutput);
    const today = localDateOf(now, this.timezone);
    let { earnedUntil, paidDays, earned } = holding;
    while (earnedUntil < holding.endAt && earnedUntil < dayStart) {
      const day = localDayOf(earnedUntil, this.timezone);
      earnedUntil = day.end;
      paidDays += 1;
      const first = await insertEarning(tx, {
        ownedMachineId: holding.id,
        day: day.date,
        accountId: holding.accountId,
        amount: daily,
        createdAt: now,
      });
      if (!first) continue; // paid before: never twice
      report.days += 1;
      if (daily === 0n) continue;
      const key = `machine:${holding.id}:output:${day.date}`;
      const line = await creditIncome(
        tx,
        {
          accountId: holding.accountId,
          userId: holding.userId,
          type: 'mining_machine',
          amount: daily,
          earningsDate: day.date,
          arrivalDate: today,
          status: 'arrived',
          key,
          transferKey: key,
          from: 'incentive_expense',
          ref: { table: HOLDINGS, id: String(holding.id) },
        },
        now,
      );
      await setEarningIncome(tx, holding.id, day.date, line.id);
      earned += daily;
      report.paid += daily;
    }
    const saved = await updateOwnedMachine(tx, holding.id, {
      earnedUntil,
      paidDays,
      earned,
      status: earnedUntil >= holding.endAt ? 'expired' : 'active',
      updatedAt: now,
    });
    await recordChanges(tx, [holdingChange(saved, now)]);
    return saved;
  }
}
