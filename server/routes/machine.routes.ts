/**
 * /api/v1/machine/*: the machines on offer, buy and rent, the account's machines;
 * /api/v1/user/tickets; /api/admin/machine/*: the operators' machines; /api/admin/ticket/issue.
 */
import * as machine from '../../contract/api/machine.js';
import { noParamsSchema } from '../../contract/schema.js';
import { defineCatalogueRoutes } from './catalogue-routes.js';
import { FINANCE, type RoutesOf } from './route-list.js';

export const machineRoutes: RoutesOf = (define, { machines: service, machineCatalogue: catalogue }) => {
  define({
    path: '/api/v1/machine/list',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: machine.machineListDataSchema,
    summary: 'The mining machines on offer',
    handle: (ctx) => service.list(ctx),
  });
  define({
    path: '/api/v1/machine/info',
    kind: 'read',
    access: 'user',
    params: machine.machineInfoParamsSchema,
    data: machine.machineSchema,
    summary: 'One mining machine on offer',
    handle: (ctx, params) => service.info(ctx, params),
  });
  define({
    path: '/api/v1/machine/index',
    kind: 'read',
    access: 'user',
    params: machine.machineIndexParamsSchema,
    data: machine.machineIndexDataSchema,
    summary: 'The account’s machines (hash power, status, days left, earned), newest first, with totals',
    handle: (ctx, params) => service.index(ctx, params),
  });
  define({
    path: '/api/v1/machine/buy',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: machine.machineBuyParamsSchema,
    data: machine.machineCommandDataSchema,
    summary: 'Buy machines with the account’s cash or tickets (trade password)',
    success: 'server.machine_bought',
    handle: (ctx, params) => service.buy(ctx, params),
  });
  define({
    path: '/api/v1/machine/rent',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: machine.machineRentParamsSchema,
    data: machine.machineCommandDataSchema,
    summary: 'Rent machines for days with the account’s cash (trade password)',
    success: 'server.machine_rented',
    handle: (ctx, params) => service.rent(ctx, params),
  });
  define({
    path: '/api/v1/user/tickets',
    kind: 'read',
    access: 'user',
    params: machine.ticketListParamsSchema,
    data: machine.ticketListDataSchema,
    summary: 'The account’s tickets, newest first, and how many are available',
    handle: (ctx, params) => service.tickets(ctx, params),
  });
  defineCatalogueRoutes(define, catalogue, {
    base: '/api/admin/machine',
    listData: machine.adminMachineListDataSchema,
    itemData: machine.adminMachineSchema,
    addParams: machine.machineAddParamsSchema,
    updateParams: machine.machineUpdateParamsSchema,
    idParams: machine.machineIdParamsSchema,
    summaries: {
      list: 'Every mining machine, active and disabled',
      add: 'Add a mining machine (audited)',
      update: 'Change a mining machine; machines already held keep their terms (audited)',
      disable: 'Stop offering a mining machine; machines already held earn on (audited)',
    },
  });
  define({
    path: '/api/admin/ticket/issue',
    kind: 'command',
    access: FINANCE,
    params: machine.ticketIssueParamsSchema,
    data: machine.ticketIssueDataSchema,
    summary: 'Issue tickets to chosen accounts with a reason (audited)',
    success: 'server.tickets_issued',
    handle: (ctx, params) => catalogue.issueTickets(ctx, params),
  });
};
