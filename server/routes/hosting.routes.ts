/** /api/v1/hosting/*: products, orders and their changes; /api/admin/hosting/product/*: the operators' products. */
import * as hosting from '../../contract/api/hosting.js';
import { noParamsSchema } from '../../contract/schema.js';
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
  define({
    path: '/api/admin/hosting/product/list',
    kind: 'read',
    access: { roles: ['finance'] },
    params: noParamsSchema,
    data: hosting.adminHostingProductListDataSchema,
    summary: 'Every hosting product, active and disabled',
    handle: (ctx) => catalogue.list(ctx),
  });
  define({
    path: '/api/admin/hosting/product/add',
    kind: 'command',
    access: { roles: ['finance'] },
    params: hosting.productAddParamsSchema,
    data: hosting.adminHostingProductSchema,
    summary: 'Add a hosting product (audited)',
    success: 'server.saved',
    handle: (ctx, params) => catalogue.add(ctx, params),
  });
  define({
    path: '/api/admin/hosting/product/update',
    kind: 'command',
    access: { roles: ['finance'] },
    params: hosting.productUpdateParamsSchema,
    data: hosting.adminHostingProductSchema,
    summary: 'Change a hosting product; orders already made keep their terms (audited)',
    success: 'server.saved',
    handle: (ctx, params) => catalogue.update(ctx, params),
  });
  define({
    path: '/api/admin/hosting/product/disable',
    kind: 'command',
    access: { roles: ['finance'] },
    params: hosting.productIdParamsSchema,
    data: hosting.adminHostingProductSchema,
    summary: 'Stop offering a hosting product; its orders run on (audited)',
    success: 'server.saved',
    handle: (ctx, params) => catalogue.disable(ctx, params),
  });
};
