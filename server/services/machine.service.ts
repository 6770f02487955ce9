/**
 * Mining machines and tickets (issue 13, docs/protocol.md section 22): the machines operators
 * offer, customers' holdings bought with USDT or tickets or rented, their daily output, tickets.
 *
 * What stays true:
 * - a holding's price leaves the account's cash by one ledger transfer keyed by the holding
 *   (`machine:<holding>:buy` or `:rent`, kind `mining_machine`, cash -> fee revenue) in the
 *   transaction that makes the holding: both or neither;
 * - a buy with tickets locks the tickets it takes (oldest first) and marks them used for the
 *   holding in its transaction, so of racing buys each ticket pays for one holding only, and a buy
 *   that finds too few left is refused (470) and uses none;
 * - a holding's output for a (holding, local day) is recorded once (machine_earnings' primary
 *   key) and paid by the transfer `machine:<holding>:output:<day>` with its `mining_machine`
 *   income line, in the job's transaction: a re-run, or a run killed half-way (which commits
 *   nothing), never pays twice; every day not yet paid is caught up, oldest first, on the next
 *   run; a holding whose last day is paid expires and earns nothing more;
 * - exactly once per Idempotency-Key for customers' and operators' commands (CommandRunner).
 */
import type {
  AdminMachine,
  AdminMachineListData,
  Machine,
  MachineAddParams,
  MachineBuyParams,
  MachineCommandData,
  MachineIndexData,
  MachineListData,
  MachineRecord,
  MachineRentParams,
  MachineUpdateParams,
  OwnedMachineRecord,
  OwnedMachineStatus,
  PayWith,
  TicketIssueData,
  TicketIssueParams,
  TicketListData,
  TicketRecord,
  TicketStatus,
} from '../../contract/api/machine.js';
import { productNamesOf } from '../../contract/api/hosting.js';
import { BodyCode } from '../../contract/codes.js';
import { costOf, dayOutput, sumHashPower, totalHashPower } from '../../contract/machine-output.js';
import { formatMoney, minor, parseMoney, type Minor } from '../../contract/money.js';
import type { Clock } from '../clock.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField } from '../core/errors.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database, Executor } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { customerBook, platformBook } from '../ledger/books.js';
import { transfer } from '../ledger/ledger.js';
import {
  activeOwnedMachines,
  availableTicketCount,
  earnedOfAccount,
  findMachine,
  insertEarning,
  insertMachine,
  insertOwnedMachine,
  insertTicketIssue,
  insertTickets,
  listMachines,
  listOwnedMachines,
  listTickets,
  lockAvailableTickets,
  lockOwnedMachinesDue,
  machinesByIds,
  ownedMachinesByIds,
  setEarningIncome,
  ticketsByIds,
  updateMachine,
  updateOwnedMachine,
  useTickets,
  type MachineRow,
  type OwnedMachineRow,
  type TicketRow,
} from '../repositories/machine.repository.js';
import { appendAudit } from '../repositories/operators.repository.js';
import { recordChanges, type SyncChange } from '../repositories/sync.repository.js';
import { accountsByIds } from '../repositories/users.repository.js';
import { localDateOf, localDayOf, startOfLocalDay, termOf } from './hosting-days.js';
import { creditIncome } from './income.service.js';
import {
  toAdminMachine,
  toMachine,
  toMachineRecord,
  toOwnedMachineRecord,
  toTicketRecord,
} from './machine-records.js';
import { actorOf } from './operators.service.js';
import { ownAccount } from './own-account.js';
import { pageById } from './paging.js';
import type { SecurityService } from './security.service.js';

/** Holdings the job locks and works through at a time (within its one transaction). */
const JOB_BATCH = 500;
/** The most tickets one operator's issue writes (count × accounts). */
export const TICKET_ISSUE_MAX_TOTAL = 10_000;

const HOLDINGS = 'owned_machines';

/** A wire id as a row id, or null when it cannot be one (letters, too long). */
const rowId = (id: string): number | null => (/^\d{1,15}$/.test(id) ? Number(id) : null);

const machineUnknown = (field: string) =>
  new BusinessError(BodyCode.notFound, 'server.machine_unknown', {}, { field });

/** Test hooks inside a run (tests stop the job half-way with them). */
export interface OutputHooks {
  /** Called after each holding's work, inside the run's transaction. */
  afterHolding?(ownedMachineId: number): void | Promise<void>;
}

/** What one run of the output job did (job_runs.detail). */
export interface OutputReport {
  holdings: number;
  days: number;
  /** USDT paid into cash. */
  paid: string;
  expired: number;
}

/** A reward of tickets from another feature (a level reached, a campaign ...). */
export interface TicketReward {
  accountId: number;
  userId: number;
  count: number;
  /** Unique, derived from the cause (`team:level:12:3`): a repeated cause issues nothing twice. */
  key: string;
  memo?: string | null;
}

/**
 * Issues reward tickets (`source` reward) to an account in `tx`, keyed `<key>:<n>`: idempotent,
 * a repeat writes nothing. Records the `tickets` collection's changes. Returns the tickets written.
 */
export async function rewardTickets(tx: Executor, reward: TicketReward, now: Date): Promise<TicketRecord[]> {
  const rows = await insertTickets(
    tx,
    Array.from({ length: reward.count }, (_, n) => ({
      userId: reward.userId,
      accountId: reward.accountId,
      status: 'available',
      source: 'reward',
      key: `${reward.key}:${n + 1}`,
      memo: reward.memo ?? null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await recordChanges(
    tx,
    rows.map((row) => ticketChange(row, now)),
  );
  return rows.map(toTicketRecord);
}

export class MachineService {
  constructor(
    private readonly db: Database,
    private readonly commands: CommandRunner,
    private readonly clock: Clock,
    private readonly security: SecurityService,
    private readonly timezone: string,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
  ) {}

  // ---- customers ----

  /** The machines on offer, names in the request's language. Read-only. */
  async list(ctx: RequestContext): Promise<MachineListData> {
    return { items: (await listMachines(this.db, true)).map((row) => toMachine(row, ctx.locale)) };
  }

  /** One machine on offer; 404 naming `id` for no such (active) machine. */
  async info(ctx: RequestContext, params: { id: string }): Promise<Machine> {
    return toMachine(await activeMachine(this.db, params.id, 'id'), ctx.locale);
  }

  /**
   * Buys `quantity` machines for the account: 403 for an account not the caller's, 404 for no
   * such (active) machine, 409 for tickets when the machine is not sold for tickets, then the
   * trade password (300, 400, 423), then 470 when the cash (price × quantity) or the available
   * tickets (ticketPrice × quantity) fall short. The holding earns from the local midnight after
   * it for the machine's term.
   */
  buy(ctx: RequestContext, params: MachineBuyParams): Promise<MachineCommandData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      const machine = await activeMachine(tx, params.machineId, 'machineId');
      if (params.payWith === 'ticket' && machine.ticketPrice === 0)
        throw new BusinessError(
          BodyCode.conflict,
          'server.machine_not_for_tickets',
          {},
          { field: 'payWith' },
        );
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      return this.acquire(tx, {
        userId,
        accountId,
        machine,
        acquisition: 'buy',
        payWith: params.payWith,
        quantity: params.quantity,
        days: machine.days,
        price: params.payWith === 'usdt' ? costOf(minor(machine.price), params.quantity) : minor(0n),
        tickets: params.payWith === 'ticket' ? machine.ticketPrice * params.quantity : 0,
      });
    });
  }

  /**
   * Rents `quantity` (default 1) machines for `days` days, paid from the account's cash at
   * once (rentPrice × days × quantity): 403, 404 as for a buy; 409 when the machine is not for
   * rent; 400 naming `days` beyond the machine's term; then the trade password; then 470.
   */
  rent(ctx: RequestContext, params: MachineRentParams): Promise<MachineCommandData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const { accountId } = await ownAccount(tx, ctx, params.accountId);
      const machine = await activeMachine(tx, params.machineId, 'machineId');
      if (machine.rentPrice === null)
        throw new BusinessError(BodyCode.conflict, 'server.machine_not_for_rent', {}, { field: 'machineId' });
      if (params.days > machine.days)
        throw invalidField('days', 'server.machine_rent_days_range', { days: machine.days });
      await this.security.verifyTradePassword(tx, userId, params.tradePassword);
      const quantity = params.quantity ?? 1;
      return this.acquire(tx, {
        userId,
        accountId,
        machine,
        acquisition: 'rent',
        payWith: 'usdt',
        quantity,
        days: params.days,
        price: costOf(minor(machine.rentPrice), quantity, params.days),
        tickets: 0,
      });
    });
  }

  /**
   * The account's holdings, newest first (of one status when given), with the active hash
   * power and daily output and all the account's machines earned. 403 for an account not the
   * caller's.
   */
  async index(
    ctx: RequestContext,
    params: {
      accountId?: string | undefined;
      status?: OwnedMachineStatus | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<MachineIndexData> {
    return this.reads.read(ctx.caller, async (db) => {
      const { accountId } = await ownAccount(db, ctx, params.accountId);
      const names = await machineNames(db);
      const page = await pageById(
        params,
        (beforeId, limit) => listOwnedMachines(db, { accountId, status: params.status, beforeId, limit }),
        (row) => toOwnedMachineRecord(row, names.get(row.machineId) ?? {}),
      );
      const active = await activeOwnedMachines(db, accountId);
      let daily = 0n;
      for (const row of active) daily += dayOutput(row.hashPower, row.quantity, row.dailyOutput);
      return {
        ...page,
        activeHashPower: sumHashPower(active.map((row) => totalHashPower(row.hashPower, row.quantity))),
        activeDailyOutput: formatMoney(minor(daily)),
        totalEarned: formatMoney(minor(await earnedOfAccount(db, accountId))),
      };
    });
  }

  /** The account's tickets, newest first (of one status when given), and how many are available. */
  async tickets(
    ctx: RequestContext,
    params: {
      accountId?: string | undefined;
      status?: TicketStatus | undefined;
      cursor?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<TicketListData> {
    return this.reads.read(ctx.caller, async (db) => {
      const { accountId } = await ownAccount(db, ctx, params.accountId);
      const page = await pageById(
        params,
        (beforeId, limit) => listTickets(db, { accountId, status: params.status, beforeId, limit }),
        toTicketRecord,
      );
      return { ...page, available: await availableTicketCount(db, accountId) };
    });
  }

  // ---- pulls ----

  /** The machines with these ids, as synced records (the public `machines` collection). */
  static async machineRecordsByIds(db: Executor, ids: readonly number[]): Promise<MachineRecord[]> {
    return (await machinesByIds(db, ids)).map(toMachineRecord);
  }

  /** The account's holdings with these ids, as synced records. */
  static async ownedRecordsByIds(
    db: Executor,
    accountId: number,
    ids: readonly number[],
  ): Promise<OwnedMachineRecord[]> {
    const rows = await ownedMachinesByIds(db, accountId, ids);
    if (rows.length === 0) return [];
    const names = await machineNames(db);
    return rows.map((row) => toOwnedMachineRecord(row, names.get(row.machineId) ?? {}));
  }

  /** The account's tickets with these ids, as synced records. */
  static async ticketRecordsByIds(
    db: Executor,
    accountId: number,
    ids: readonly number[],
  ): Promise<TicketRecord[]> {
    return (await ticketsByIds(db, accountId, ids)).map(toTicketRecord);
  }

  // ---- operators ----

  async machineList(ctx: RequestContext): Promise<AdminMachineListData> {
    return { items: (await listMachines(this.db, false)).map((row) => toAdminMachine(row, ctx.locale)) };
  }

  /** Adds a machine (audited). 400 on a `name` naming no language. */
  addMachine(ctx: RequestContext, params: MachineAddParams): Promise<AdminMachine> {
    return this.commands.run(ctx, (tx) => this.addMachineIn(tx, actorOf(ctx), params, ctx));
  }

  /** Changes the fields given of a machine (audited); holdings already made keep their terms. 404 for no such machine. */
  updateMachine(ctx: RequestContext, params: MachineUpdateParams): Promise<AdminMachine> {
    return this.commands.run(ctx, (tx) => this.updateMachineIn(tx, actorOf(ctx), params, ctx));
  }

  /** Stops offering a machine (audited); machines already held earn on. 404 for no such machine. */
  disableMachine(ctx: RequestContext, params: { id: string }): Promise<AdminMachine> {
    return this.commands.run(ctx, (tx) =>
      this.updateMachineIn(tx, actorOf(ctx), { id: params.id, status: 'disabled' }, ctx),
    );
  }

  /** `npm run admin -- machine add ...`, audited as `cli`. */
  addMachineFromCli(params: MachineAddParams): Promise<AdminMachine> {
    return this.db.transaction((tx) => this.addMachineIn(tx, 'cli', params, null));
  }

  /** `npm run admin -- machine update|disable --id I ...`, audited as `cli`. */
  updateMachineFromCli(params: MachineUpdateParams): Promise<AdminMachine> {
    return this.db.transaction((tx) => this.updateMachineIn(tx, 'cli', params, null));
  }

  /** Every machine for the CLI's list. */
  async machinesForCli(): Promise<AdminMachine[]> {
    return (await listMachines(this.db, false)).map((row) => toAdminMachine(row, 'en'));
  }

  /**
   * Issues `count` tickets to each account named (source `operator`, the reason as their memo),
   * audited. 400 on `accountIds` naming an account that does not exist, on `count` when the issue
   * would write more than TICKET_ISSUE_MAX_TOTAL tickets. All accounts or none.
   */
  issueTickets(ctx: RequestContext, params: TicketIssueParams): Promise<TicketIssueData> {
    return this.commands.run(ctx, (tx) => this.issueTicketsIn(tx, actorOf(ctx), params));
  }

  /** `npm run admin -- ticket issue --accounts 3,7 --count 2 --reason R`, audited as `cli`. */
  issueTicketsFromCli(params: TicketIssueParams): Promise<TicketIssueData> {
    return this.db.transaction((tx) => this.issueTicketsIn(tx, 'cli', params));
  }

  private async issueTicketsIn(
    tx: Executor,
    actor: string,
    params: TicketIssueParams,
  ): Promise<TicketIssueData> {
    if (params.count * params.accountIds.length > TICKET_ISSUE_MAX_TOTAL)
      throw invalidField('count', 'server.ticket_issue_too_many', { max: TICKET_ISSUE_MAX_TOTAL });
    const found = await accountsByIds(tx, params.accountIds);
    const missing = params.accountIds.filter((id) => !found.some((account) => account.id === id));
    if (missing.length > 0)
      throw invalidField('accountIds', 'server.airdrop_account_unknown', {
        ids: missing.slice(0, 5).join(', '),
      });
    const now = this.clock.now();
    const issue = await insertTicketIssue(tx, {
      count: params.count,
      reason: params.reason,
      accountIds: params.accountIds,
      createdBy: actor,
      createdAt: now,
    });
    const rows = await insertTickets(
      tx,
      found.flatMap((account) =>
        Array.from({ length: params.count }, (_, n) => ({
          userId: account.userId,
          accountId: account.id,
          status: 'available',
          source: 'operator',
          key: `ticket_issue:${issue.id}:${account.id}:${n + 1}`,
          memo: params.reason,
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    await recordChanges(
      tx,
      rows.map((row) => ticketChange(row, now)),
    );
    await appendAudit(tx, {
      actor,
      action: 'ticket.issue',
      target: String(issue.id),
      detail: { count: params.count, reason: params.reason, accountIds: params.accountIds },
      at: now,
    });
    return {
      id: String(issue.id),
      count: issue.count,
      reason: issue.reason,
      accountIds: issue.accountIds.map(String),
      total: issue.count * issue.accountIds.length,
      createdBy: issue.createdBy,
      createdAt: issue.createdAt.toISOString(),
    };
  }

  private async addMachineIn(
    tx: Executor,
    actor: string,
    params: MachineAddParams,
    ctx: RequestContext | null,
  ): Promise<AdminMachine> {
    const names = productNamesOf(params.name);
    if (!names) throw invalidField('name', 'server.field_required');
    const now = this.clock.now();
    const row = await insertMachine(tx, {
      names,
      hashPower: params.hashPower,
      price: parseMoney(params.price),
      ticketPrice: params.ticketPrice ?? 0,
      days: params.days,
      dailyOutput: params.dailyOutput,
      rentPrice: params.rentPrice == null ? null : parseMoney(params.rentPrice),
      status: 'active',
      createdAt: now,
      updatedAt: now,
      updatedBy: actor,
    });
    await this.saved(tx, actor, 'machine.add', row, now);
    return toAdminMachine(row, ctx?.locale ?? 'en');
  }

  private async updateMachineIn(
    tx: Executor,
    actor: string,
    params: MachineUpdateParams,
    ctx: RequestContext | null,
  ): Promise<AdminMachine> {
    const id = rowId(params.id);
    const current = id === null ? undefined : await findMachine(tx, id);
    if (!current) throw new BusinessError(BodyCode.notFound, 'server.not_found', {}, { field: 'id' });
    const names = params.name === undefined ? current.names : productNamesOf(params.name);
    if (!names) throw invalidField('name', 'server.field_required');
    const now = this.clock.now();
    const row = await updateMachine(tx, current.id, {
      names,
      hashPower: params.hashPower ?? current.hashPower,
      price: params.price === undefined ? current.price : parseMoney(params.price),
      ticketPrice: params.ticketPrice ?? current.ticketPrice,
      days: params.days ?? current.days,
      dailyOutput: params.dailyOutput ?? current.dailyOutput,
      rentPrice:
        params.rentPrice === undefined
          ? current.rentPrice
          : params.rentPrice === null
            ? null
            : parseMoney(params.rentPrice),
      status: params.status ?? current.status,
      updatedAt: now,
      updatedBy: actor,
    });
    if (!row) throw new Error(`machines: machine ${current.id} vanished`);
    const action = params.status === 'disabled' && Object.keys(params).length === 2 ? 'disable' : 'update';
    await this.saved(tx, actor, `machine.${action}`, row, now);
    return toAdminMachine(row, ctx?.locale ?? 'en');
  }

  /** Audits an operator's change of a machine and records the public collection's change. */
  private async saved(tx: Executor, actor: string, action: string, row: MachineRow, now: Date) {
    await recordChanges(tx, [
      { collection: 'machines', scopeId: 0, recordId: String(row.id), deleted: false, at: now },
    ]);
    await appendAudit(tx, {
      actor,
      action,
      target: String(row.id),
      detail: {
        names: row.names,
        hashPower: row.hashPower,
        price: formatMoney(minor(row.price)),
        ticketPrice: row.ticketPrice,
        days: row.days,
        dailyOutput: row.dailyOutput,
        rentPrice: row.rentPrice === null ? null : formatMoney(minor(row.rentPrice)),
        status: row.status,
      },
      at: now,
    });
  }

  // ---- the daily job ----

  /**
   * The output job's work at `now`, in `tx`: every active holding with a whole local day not yet
   * paid gets each such day of its term, oldest first (a day missed while the server was down is
   * caught up), and expires once its last day is paid. Idempotent: what is done is never done again.
   */
  async runOutput(tx: Executor, now: Date, hooks: OutputHooks = {}): Promise<OutputReport> {
    const dayStart = startOfLocalDay(now, this.timezone);
    const report = { holdings: 0, days: 0, paid: 0n, expired: 0 };
    const seen = new Set<number>();
    for (;;) {
      const due = await lockOwnedMachinesDue(tx, { dayStart, limit: JOB_BATCH });
      const fresh = due.filter((row) => !seen.has(row.id));
      if (fresh.length === 0) {
        if (due.length > 0)
          throw new Error(`machine output: holdings ${due.map((row) => row.id).join(', ')} stay due`);
        break;
      }
      for (const holding of fresh) {
        seen.add(holding.id);
        report.holdings += 1;
        const saved = await this.pay(tx, holding, dayStart, now, report);
        if (saved.status === 'expired') report.expired += 1;
        await hooks.afterHolding?.(holding.id);
      }
    }
    return {
      holdings: report.holdings,
      days: report.days,
      paid: formatMoney(minor(report.paid)),
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

  // ---- inside ----

  /**
   * Makes a holding and takes what it costs: the tickets first (locked; 470 when too few are
   * left), then the holding, then the price from cash (470 when short), all in `tx`.
   */
  private async acquire(
    tx: Executor,
    input: {
      userId: number;
      accountId: number;
      machine: MachineRow;
      acquisition: 'buy' | 'rent';
      payWith: PayWith;
      quantity: number;
      days: number;
      price: Minor;
      tickets: number;
    },
  ): Promise<MachineCommandData> {
    const { machine, accountId } = input;
    const now = this.clock.now();
    const taken = input.tickets > 0 ? await lockAvailableTickets(tx, accountId, input.tickets) : [];
    if (taken.length < input.tickets)
      throw new BusinessError(BodyCode.insufficientBalance, 'server.machine_tickets_short', {
        needed: input.tickets,
        available: taken.length,
      });
    const { interestFrom: earnFrom, endAt } = termOf(now, input.days, this.timezone);
    const holding = await insertOwnedMachine(tx, {
      userId: input.userId,
      accountId,
      machineId: machine.id,
      acquisition: input.acquisition,
      payWith: input.payWith,
      quantity: input.quantity,
      hashPower: machine.hashPower,
      dailyOutput: machine.dailyOutput,
      days: input.days,
      price: input.price,
      tickets: input.tickets,
      status: 'active',
      startAt: now,
      earnFrom,
      endAt,
      earnedUntil: earnFrom,
      createdAt: now,
      updatedAt: now,
    });
    if (input.price > 0n) {
      await transfer(
        tx,
        [
          {
            key: `machine:${holding.id}:${input.acquisition}`,
            kind: 'mining_machine',
            asset: 'USDT',
            from: customerBook(accountId, 'cash'),
            to: platformBook('fee_revenue'),
            amount: input.price,
            ref: { table: HOLDINGS, id: String(holding.id) },
          },
        ],
        now,
      );
    }
    const used = await useTickets(
      tx,
      taken.map((ticket) => ticket.id),
      holding.id,
      now,
    );
    await recordChanges(tx, [holdingChange(holding, now), ...used.map((row) => ticketChange(row, now))]);
    return {
      machine: toOwnedMachineRecord(holding, machine.names),
      tickets: used.map(toTicketRecord),
    };
  }
}

/** The active machine named by a wire id; 404 naming `field` for none (or a disabled one). */
async function activeMachine(db: Executor, id: string, field: string): Promise<MachineRow> {
  const machineId = rowId(id);
  const machine = machineId === null ? undefined : await findMachine(db, machineId);
  if (!machine || machine.status !== 'active') throw machineUnknown(field);
  return machine;
}

const holdingChange = (row: OwnedMachineRow, at: Date): SyncChange => ({
  collection: HOLDINGS,
  scopeId: row.accountId,
  recordId: String(row.id),
  deleted: false,
  at,
});

const ticketChange = (row: TicketRow, at: Date): SyncChange => ({
  collection: 'tickets',
  scopeId: row.accountId,
  recordId: String(row.id),
  deleted: false,
  at,
});

/** Every machine's names by id (a small table: operators' machines). */
async function machineNames(db: Executor): Promise<Map<number, Record<string, string>>> {
  return new Map((await listMachines(db, false)).map((row) => [row.id, row.names]));
}
