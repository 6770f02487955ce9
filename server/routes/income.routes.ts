/** /api/v1/income/*: income records; /api/admin/income/airdrop. */
import * as income from '../../contract/api/income.js';
import { noParamsSchema } from '../../contract/schema.js';
import { FINANCE, type RoutesOf } from './route-list.js';

export const incomeRoutes: RoutesOf = (define, { income: service }) => {
  define({
    path: '/api/v1/income/type-list',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: income.incomeTypeListDataSchema,
    summary: 'The income types, each named in the request’s language',
    handle: async (ctx) => service.typeList(ctx),
  });
  define({
    path: '/api/v1/income/log',
    kind: 'read',
    access: 'user',
    params: income.incomeLogParamsSchema,
    data: income.incomeLogDataSchema,
    summary: 'The account’s income lines, newest first',
    handle: (ctx, params) => service.log(ctx, params),
  });
  define({
    path: '/api/admin/income/airdrop',
    kind: 'command',
    access: FINANCE,
    params: income.airdropParamsSchema,
    data: income.airdropDataSchema,
    summary: 'Pay an airdrop to chosen accounts with a reason, from incentive expense (audited)',
    success: 'server.airdrop_done',
    handle: (ctx, params) => service.airdrop(ctx, params),
  });
};
