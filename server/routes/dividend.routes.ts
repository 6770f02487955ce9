/**
 * AI dividends: /api/v1/user/aiInfo, aiIncome and aiReceive for customers (of one account,
 * `accountId` defaulting to the caller's default account); /api/admin/dividend/publish and list
 * for finance operators.
 */
import * as dividend from '../../contract/api/dividend.js';
import { FINANCE, type RoutesOf } from './route-list.js';

export const dividendRoutes: RoutesOf = (define, { dividends }) => {
  define({
    path: '/api/v1/user/aiInfo',
    kind: 'read',
    access: 'user',
    params: dividend.aiInfoParamsSchema,
    data: dividend.aiInfoDataSchema,
    summary: 'The account’s claimable and claimed AI dividends, and the rules',
    handle: (ctx, params) => dividends.info(ctx, params),
  });
  define({
    path: '/api/v1/user/aiIncome',
    kind: 'read',
    access: 'user',
    params: dividend.aiIncomeParamsSchema,
    data: dividend.aiIncomeDataSchema,
    summary: 'The account’s AI dividend release records (to_be_claimed, claimed, expired), newest first',
    handle: (ctx, params) => dividends.releases(ctx, params),
  });
  define({
    path: '/api/v1/user/aiReceive',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: dividend.aiReceiveParamsSchema,
    data: dividend.aiReceiveDataSchema,
    summary: 'Claim one release record (`id`), or every claimable one: paid to cash once',
    success: 'server.dividend_claimed',
    handle: (ctx, params) => dividends.receive(ctx, params),
  });
  define({
    path: '/api/admin/dividend/publish',
    kind: 'command',
    access: FINANCE,
    params: dividend.dividendPublishParamsSchema,
    data: dividend.dividendSchema,
    summary: 'Publish the AI dividend of a local day: a total shared pro rata by valid hosting, or a rate',
    success: 'server.dividend_published',
    handle: (ctx, params) => dividends.publish(ctx, params),
  });
  define({
    path: '/api/admin/dividend/list',
    kind: 'read',
    access: FINANCE,
    params: dividend.adminDividendListParamsSchema,
    data: dividend.adminDividendListDataSchema,
    summary: 'Published AI dividends, newest first',
    handle: (_ctx, params) => dividends.adminList(params),
  });
};
