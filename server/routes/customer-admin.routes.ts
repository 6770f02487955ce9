/** /api/admin/user/*, /api/admin/deposit/list, /api/admin/dashboard: the console's customers, deposits and dashboard. */
import * as users from '../../contract/api/admin-users.js';
import { noParamsSchema } from '../../contract/schema.js';
import { COMPLIANCE_STEP_UP, CUSTOMER_DESK, type RoutesOf } from './route-list.js';

export const customerAdminRoutes: RoutesOf = (define, { customerAdmin, dashboard }) => {
  define({
    path: '/api/admin/dashboard',
    kind: 'read',
    access: CUSTOMER_DESK,
    params: noParamsSchema,
    data: users.dashboardDataSchema,
    summary: "Liabilities beside the chains' reserves, the last ledger check, what waits, today's flows",
    handle: () => dashboard.dashboard(),
  });
  define({
    path: '/api/admin/user/list',
    kind: 'read',
    access: CUSTOMER_DESK,
    params: users.adminUserListParamsSchema,
    data: users.adminUserListDataSchema,
    summary: 'Customers by e-mail, user id or invite code, newest first',
    handle: (_ctx, params) => customerAdmin.list(params),
  });
  define({
    path: '/api/admin/user/detail',
    kind: 'read',
    access: CUSTOMER_DESK,
    params: users.adminUserParamsSchema,
    data: users.adminUserDetailDataSchema,
    summary: "A customer's page (the read is audited)",
    handle: (ctx, params) => customerAdmin.detail(ctx, params),
  });
  define({
    path: '/api/admin/user/freeze',
    kind: 'command',
    access: COMPLIANCE_STEP_UP,
    params: users.adminUserActionParamsSchema,
    data: users.adminUserSchema,
    summary: 'Freeze a customer: reading goes on, money commands answer 403 frozen',
    success: 'server.saved',
    handle: (ctx, params) => customerAdmin.freeze(ctx, params),
  });
  define({
    path: '/api/admin/user/unfreeze',
    kind: 'command',
    access: COMPLIANCE_STEP_UP,
    params: users.adminUserActionParamsSchema,
    data: users.adminUserSchema,
    summary: 'Unfreeze a customer',
    success: 'server.saved',
    handle: (ctx, params) => customerAdmin.unfreeze(ctx, params),
  });
  define({
    path: '/api/admin/user/reset-authenticator',
    kind: 'command',
    access: COMPLIANCE_STEP_UP,
    params: users.adminUserActionParamsSchema,
    data: users.adminUserSchema,
    summary: "Unbind a customer's lost authenticator (withdrawals wait 24 hours)",
    success: 'server.saved',
    handle: (ctx, params) => customerAdmin.resetAuthenticator(ctx, params),
  });
  define({
    path: '/api/admin/deposit/list',
    kind: 'read',
    access: CUSTOMER_DESK,
    params: users.adminDepositListParamsSchema,
    data: users.adminDepositListDataSchema,
    summary: 'Deposits by chain and status, newest first',
    handle: (_ctx, params) => dashboard.deposits(params),
  });
};
