/**
 * The operators' mining machines and ticket issues (docs/protocol.md section 22): list, add,
 * update, disable a machine (audited `machine.add|update|disable`, each also a change of the
 * public `machines` collection), and tickets issued to accounts (audited `ticket.issue`).
 * Holdings already made keep their terms: a change of a machine never touches a holding.
 */
import type {
  AdminMachine,
  MachineAddParams,
  MachineUpdateParams,
  TicketIssueData,
  TicketIssueParams,
} from '../../../contract/api/machine.js';
import { parseMoney } from '../../../contract/money.js';
import type { RequestContext } from '../../core/context.js';
import { invalidField } from '../../core/errors.js';
import {
  findMachine,
  insertMachine,
  insertTicketIssue,
  insertTickets,
  listMachines,
  updateMachine,
  type MachineRow,
} from '../../repositories/machine.repository.js';
import { appendAudit } from '../../repositories/operator.repository.js';
import { recordChanges } from '../../repositories/sync.repository.js';
import type { ServiceCore } from '../service-core.js';
import { Catalogue, type CatalogueSpec } from '../catalogue.js';
import { actorOf } from '../operator.service.js';
import { namedAccounts } from '../own-account.js';
import { machineTerms, ticketChange, toAdminMachine } from './records.js';

/** The most tickets one operator's issue writes (count × accounts). */
export const TICKET_ISSUE_MAX_TOTAL = 10_000;

const machines: CatalogueSpec<MachineRow, MachineAddParams, MachineUpdateParams, AdminMachine> = {
  action: (verb) => `machine.${verb}`,
  what: 'machines: machine',
  list: (db) => listMachines(db, false),
  find: findMachine,
  insert: (tx, params, stamp) =>
    insertMachine(tx, {
      ...stamp,
      hashPower: params.hashPower,
      price: parseMoney(params.price),
      ticketPrice: params.ticketPrice ?? 0,
      days: params.days,
      dailyOutput: params.dailyOutput,
      rentPrice: params.rentPrice == null ? null : parseMoney(params.rentPrice),
    }),
  update: (tx, current, params, stamp) =>
    updateMachine(tx, current.id, {
      ...stamp,
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
    }),
  disabling: (id) => ({ id, status: 'disabled' }),
  detail: machineTerms,
  toAdmin: toAdminMachine,
  saved: (tx, row, now) =>
    recordChanges(tx, [
      { collection: 'machines', scopeId: 0, recordId: String(row.id), deleted: false, at: now },
    ]),
};

/** The machines' and tickets' operator methods (the admin API's and the CLI's). */
export class MachineCatalogueService extends Catalogue<
  MachineRow,
  MachineAddParams,
  MachineUpdateParams,
  AdminMachine
> {
  constructor(core: ServiceCore) {
    super(core, machines);
  }

  /**
   * Issues `count` tickets to each account named (source `operator`, the reason as their memo),
   * audited. 400 on `accountIds` naming an account that does not exist, on `count` when the issue
   * would write more than TICKET_ISSUE_MAX_TOTAL tickets. All accounts or none.
   */
  issueTickets(ctx: RequestContext, params: TicketIssueParams): Promise<TicketIssueData> {
    return this.commands.run(ctx, async (tx) => {
      if (params.count * params.accountIds.length > TICKET_ISSUE_MAX_TOTAL)
        throw invalidField('count', 'server.ticket_issue_too_many', { max: TICKET_ISSUE_MAX_TOTAL });
      const found = await namedAccounts(tx, params.accountIds);
      const actor = actorOf(ctx);
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
    });
  }
}
