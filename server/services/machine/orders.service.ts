/**
 * A customer's mining machines and tickets (docs/protocol.md section 22): the machines on offer,
 * buy (with USDT or tickets) and rent, the account's holdings and tickets.
 *
 * What stays true:
 * - a holding's price leaves the account's cash by one ledger transfer keyed by the holding
 *   (`machine:<holding>:buy` or `:rent`, kind `mining_machine`, cash -> fee revenue) in the
 *   transaction that makes the holding: both or neither;
 * - a buy with tickets locks the tickets it takes (oldest first) and marks them used for the
 *   holding in its transaction, so of racing buys each ticket pays for one holding only, and a buy
 *   that finds too few left is refused (470) and uses none;
 * - exactly once per Idempotency-Key (CommandRunner).
 */
import type {
  Machine,
  MachineBuyParams,
  MachineCommandData,
  MachineIndexData,
  MachineListData,
  MachineRentParams,
  OwnedMachineStatus,
  PayWith,
  TicketListData,
  TicketStatus,
} from '../../../contract/api/machine.js';
import { BodyCode } from '../../../contract/codes.js';
import { costOf, dayOutput, sumHashPower, totalHashPower } from '../../../contract/machine-output.js';
import { type Minor, minor, moneyText } from '../../../contract/money.js';
import { userIdOf, type RequestContext } from '../../core/context.js';
import { BusinessError, invalidField } from '../../core/errors.js';
import { rowIdOf } from '../../core/params.js';
import type { Executor } from '../../db/database.js';
import { customerBook, platformBook } from '../../ledger/books.js';
import { transfer } from '../../ledger/ledger.js';
import {
  activeOwnedMachines,
  availableTicketCount,
  earnedOfAccount,
  findMachine,
  insertOwnedMachine,
  listMachines,
  listOwnedMachines,
  listTickets,
  lockAvailableTickets,
  useTickets,
  type MachineRow,
} from '../../repositories/machine.repository.js';
import { recordChanges } from '../../repositories/sync.repository.js';
import { termOf } from '../hosting/days.js';
import { CustomerService, type OrderSettings } from '../customer-service.js';
import { ownAccount } from '../own-account.js';
import { pageById, type AccountPageParams } from '../paging.js';
import {
  HOLDINGS,
  holdingChange,
  machineNames,
  ticketChange,
  toMachine,
  toOwnedMachineRecord,
  toTicketRecord,
} from './records.js';

const machineUnknown = (field: string) =>
  new BusinessError(BodyCode.notFound, 'server.machine_unknown', {}, { field });

export class MachineOrderService extends CustomerService<OrderSettings> {
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
  async index(ctx: RequestContext, params: AccountPageParams<OwnedMachineStatus>): Promise<MachineIndexData> {
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
        activeDailyOutput: moneyText(daily),
        totalEarned: moneyText(await earnedOfAccount(db, accountId)),
      };
    });
  }

  /** The account's tickets, newest first (of one status when given), and how many are available. */
  async tickets(ctx: RequestContext, params: AccountPageParams<TicketStatus>): Promise<TicketListData> {
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
    const { interestFrom: earnFrom, endAt } = termOf(now, input.days, this.settings.timezone);
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
  const machineId = rowIdOf(id);
  const machine = machineId === null ? undefined : await findMachine(db, machineId);
  if (!machine || machine.status !== 'active') throw machineUnknown(field);
  return machine;
}
