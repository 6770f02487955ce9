/**
 * Delivery (trade settlement) records: /api/v1/hosting/delivery-list for customers (and
 * operators); /api/admin/hosting/delivery/add|import|delete for finance and content operators.
 */
import * as delivery from '../../contract/api/delivery.js';
import type { RoutesOf } from './route-list.js';

const PUBLISHERS = { roles: ['finance', 'content'] } as const;

export const deliveryRoutes: RoutesOf = (define, { delivery: records }) => {
  define({
    path: '/api/v1/hosting/delivery-list',
    kind: 'read',
    access: 'signed-in',
    params: delivery.deliveryListParamsSchema,
    data: delivery.deliveryListDataSchema,
    summary:
      'The platform’s published trade settlements (not the caller’s positions), newest published first',
    handle: (_ctx, params) => records.list(params),
  });
  define({
    path: '/api/admin/hosting/delivery/add',
    kind: 'command',
    access: PUBLISHERS,
    params: delivery.deliveryAddParamsSchema,
    data: delivery.deliveryRecordSchema,
    summary: 'Publish one trade settlement record (409 when its order number is published)',
    success: 'server.delivery_published',
    handle: (ctx, params) => records.add(ctx, params),
  });
  define({
    path: '/api/admin/hosting/delivery/import',
    kind: 'command',
    access: PUBLISHERS,
    params: delivery.deliveryImportParamsSchema,
    data: delivery.deliveryImportDataSchema,
    summary: 'Publish every record of a CSV file, or none (400 naming the first bad line)',
    success: 'server.delivery_imported',
    handle: (ctx, params) => records.importCsv(ctx, params),
  });
  define({
    path: '/api/admin/hosting/delivery/delete',
    kind: 'command',
    access: PUBLISHERS,
    params: delivery.deliveryDeleteParamsSchema,
    data: delivery.deliveryDeleteDataSchema,
    summary: 'Withdraw a published record',
    handle: (ctx, params) => records.delete(ctx, params),
  });
};
