/** /api/admin: the operator API (roles and an append-only audit log). */
import * as admin from '../../contract/api/admin.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const adminRoutes: RoutesOf = (define, { operators }) => {
  define({
    path: '/api/admin/auth/login',
    kind: 'command',
    access: 'public',
    params: admin.adminLoginParamsSchema,
    data: admin.adminSessionDataSchema,
    summary: 'Operator login',
    success: 'server.logged_in',
    handle: (ctx, params) => operators.login(ctx, params),
  });
  define({
    path: '/api/admin/operator/create',
    kind: 'command',
    access: { roles: ['superadmin'] },
    params: admin.createOperatorParamsSchema,
    data: admin.createdOperatorDataSchema,
    summary: 'Create an operator with a role (superadmin)',
    success: 'server.saved',
    handle: (ctx, params) => operators.create(ctx, params),
  });
  define({
    path: '/api/admin/operator/list',
    kind: 'read',
    access: { roles: ['superadmin'] },
    params: noParamsSchema,
    data: admin.operatorListDataSchema,
    summary: 'List operators (superadmin)',
    handle: () => operators.list(),
  });
  define({
    path: '/api/admin/invite/create',
    kind: 'command',
    access: { roles: ['superadmin', 'support'] },
    params: noParamsSchema,
    data: admin.inviteDataSchema,
    summary: 'Add a reusable invite code',
    success: 'server.saved',
    handle: (ctx) => operators.createInvite(ctx),
  });
  define({
    path: '/api/admin/audit/list',
    kind: 'read',
    access: { roles: ['superadmin', 'compliance'] },
    params: admin.auditListParamsSchema,
    data: admin.auditListDataSchema,
    summary: 'The audit log, newest first',
    handle: (_ctx, params) => operators.auditPage(params),
  });
};
