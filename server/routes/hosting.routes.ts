/** /api/v1/hosting/*: products, orders and their changes; /api/admin/hosting/product/*: the operators' products. */
import * as hosting from '../../contract/api/hosting.js';
import { noParamsSchema } from '../../contract/schema.js';
import { defineCatalogueRoutes } from './catalogue-routes.js';
import type { RoutesOf } from './route-list.js';

export const hostingRoutes: RoutesOf = (define, { hosting: service, hostingCatalogue: catalogue }) => {
  define({
    path: '/api/v1/hosting/hosting-config',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: hosting.hostingConfigDataSchema,
    summary: 'The hosting products on offer and the valid-hosting threshold',
    handle: (ctx) => service.config(ctx),
  });
  define({
    path: '/api/v1/hosting/create',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: hosting.hostingCreateParamsSchema,
    data: hosting.hostingCommandDataSchema,
    summary: 'Host an amount of the account’s cash under a product (trade password)',
    success: 'server.hosting_created',
    handle: (ctx, params) => service.create(ctx, params),
  });
  define({
    path: '/api/v1/hosting/add',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: hosting.hostingChangeParamsSchema,
    data: hosting.hostingCommandDataSchema,
    summary: 'Increase an order in progress from the account’s cash',
    success: 'server.hosting_added',
    handle: (ctx, params) => service.add(ctx, params),
  });
  define({
    path: '/api/v1/hosting/sub',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: hosting.hostingChangeParamsSchema,
    data: hosting.hostingCommandDataSchema,
    summary:
      'Decrease an order before maturity (early exit: its penalty applies; below the minimum the whole order is redeemed)',
    success: 'server.hosting_subtracted',
    handle: (ctx, params) => service.sub(ctx, params),
  });
  define({
    path: '/api/v1/hosting/redeem',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: hosting.hostingRedeemParamsSchema,
    data: hosting.hostingCommandDataSchema,
    summary: 'Return an order’s whole principal to cash (before maturity: the early-exit rule and penalty)',
    success: 'server.hosting_redeemed',
    handle: (ctx, params) => service.redeem(ctx, params),
  });
  define({
    path: '/api/v1/hosting/order',
    kind: 'read',
    access: 'user',
    params: hosting.hostingOrderListParamsSchema,
    data: hosting.hostingOrderListDataSchema,
    summary: 'The account’s hosting orders, newest first',
    handle: (ctx, params) => service.orders(ctx, params),
  });
  define({
    path: '/api/v1/hosting/operator-log',
    kind: 'read',
    access: 'user',
    params: hosting.hostingOperatorLogParamsSchema,
    data: hosting.hostingOperatorLogDataSchema,
    summary: 'Changes of an order’s principal (one order’s, or the account’s), newest first',
    handle: (ctx, params) => service.operatorLog(ctx, params),
  });
  defineCatalogueRoutes(define, catalogue, {
    base: '/api/admin/hosting/product',
    listData: hosting.adminHostingProductListDataSchema,
    itemData: hosting.adminHostingProductSchema,
    addParams: hosting.productAddParamsSchema,
    updateParams: hosting.productUpdateParamsSchema,
    idParams: hosting.productIdParamsSchema,
    summaries: {
      list: 'Every hosting product, active and disabled',
      add: 'Add a hosting product (audited)',
      update: 'Change a hosting product; orders already made keep their terms (audited)',
      disable: 'Stop offering a hosting product; its orders run on (audited)',
    },
  });
};
