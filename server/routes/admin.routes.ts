/** /api/admin: the operator API (roles and an append-only audit log). */
import * as admin from '../../contract/api/admin.js';
import * as chat from '../../contract/api/chat.js';
import { OPERATOR_ROLES } from '../../contract/api/admin.js';
import { noParamsSchema } from '../../contract/schema.js';
import {
  ANY_OPERATOR_IN_SETUP,
  AUDITORS,
  SUPERADMIN,
  SUPERADMIN_STEP_UP,
  SUPPORT,
  type RoutesOf,
} from './route-list.js';

export const adminRoutes: RoutesOf = (define, { operators, operatorAuth }) => {
  define({
    path: '/api/admin/auth/login',
    kind: 'command',
    access: 'public',
    params: admin.adminLoginParamsSchema,
    data: admin.adminSessionDataSchema,
    summary: 'Operator sign-in (with the authenticator code once one is bound)',
    success: 'server.logged_in',
    handle: (ctx, params) => operatorAuth.login(ctx, params),
  });
  define({
    path: '/api/admin/auth/me',
    kind: 'read',
    access: ANY_OPERATOR_IN_SETUP,
    params: noParamsSchema,
    data: admin.adminMeDataSchema,
    summary: 'The signed-in operator, their setup and step-up',
    handle: (ctx) => operatorAuth.me(ctx),
  });
  define({
    path: '/api/admin/auth/password',
    kind: 'command',
    access: ANY_OPERATOR_IN_SETUP,
    params: admin.adminPasswordParamsSchema,
    data: admin.doneDataSchema,
    summary: "Change the operator's own password (the one-time one first)",
    success: 'server.saved',
    handle: (ctx, params) => operatorAuth.changePassword(ctx, params),
  });
  define({
    path: '/api/admin/auth/authenticator',
    kind: 'command',
    access: ANY_OPERATOR_IN_SETUP,
    params: noParamsSchema,
    data: admin.adminAuthenticatorDataSchema,
    summary: 'A new authenticator key to bind',
    handle: (ctx) => operatorAuth.newAuthenticator(ctx),
  });
  define({
    path: '/api/admin/auth/bind-authenticator',
    kind: 'command',
    access: ANY_OPERATOR_IN_SETUP,
    params: admin.adminCodeParamsSchema,
    data: admin.doneDataSchema,
    summary: 'Bind the authenticator key with one of its codes',
    success: 'server.saved',
    handle: (ctx, params) => operatorAuth.bindAuthenticator(ctx, params),
  });
  define({
    path: '/api/admin/auth/step-up',
    kind: 'command',
    access: { roles: OPERATOR_ROLES },
    params: admin.adminCodeParamsSchema,
    data: admin.stepUpDataSchema,
    summary: 'Step the session up for money and access actions (5 minutes)',
    handle: (ctx, params) => operatorAuth.stepUp(ctx, params),
  });
  define({
    path: '/api/admin/auth/logout',
    kind: 'command',
    access: ANY_OPERATOR_IN_SETUP,
    params: noParamsSchema,
    data: admin.doneDataSchema,
    summary: 'End the session',
    handle: (ctx) => operatorAuth.logout(ctx),
  });
  define({
    path: '/api/admin/operator/create',
    kind: 'command',
    access: SUPERADMIN_STEP_UP,
    params: admin.createOperatorParamsSchema,
    data: admin.createdOperatorDataSchema,
    summary: 'Create an operator with a role (superadmin)',
    success: 'server.saved',
    handle: (ctx, params) => operators.create(ctx, params),
  });
  define({
    path: '/api/admin/operator/list',
    kind: 'read',
    access: SUPERADMIN,
    params: noParamsSchema,
    data: admin.operatorListDataSchema,
    summary: 'List operators (superadmin)',
    handle: () => operators.list(),
  });
  define({
    path: '/api/admin/operator/disable',
    kind: 'command',
    access: SUPERADMIN_STEP_UP,
    params: admin.operatorTargetParamsSchema,
    data: admin.operatorSchema,
    summary: 'Disable an operator (their sessions end at once) (superadmin)',
    success: 'server.saved',
    handle: (ctx, params) => operators.disable(ctx, params),
  });
  define({
    path: '/api/admin/operator/reset-password',
    kind: 'command',
    access: SUPERADMIN_STEP_UP,
    params: admin.operatorTargetParamsSchema,
    data: admin.createdOperatorDataSchema,
    summary: 'Give an operator a new one-time password (superadmin)',
    success: 'server.saved',
    handle: (ctx, params) => operators.resetPassword(ctx, params),
  });
  define({
    path: '/api/admin/operator/display-name',
    kind: 'command',
    access: SUPPORT,
    params: chat.operatorDisplayNameParamsSchema,
    data: admin.operatorSchema,
    summary: 'Set the name customers see on chat replies (superadmin: anyone; support: itself)',
    success: 'server.saved',
    handle: (ctx, params) => operators.setDisplayName(ctx, params),
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
    access: AUDITORS,
    params: admin.auditListParamsSchema,
    data: admin.auditListDataSchema,
    summary: 'The audit log, newest first',
    handle: (_ctx, params) => operators.auditPage(params),
  });
  define({
    path: '/api/admin/audit/export',
    kind: 'read',
    access: AUDITORS,
    params: admin.auditListParamsSchema,
    data: admin.auditExportDataSchema,
    summary: 'The audit log as CSV, with the filters of audit/list',
    handle: (ctx, params) => operators.auditExport(ctx, params),
  });
  define({
    path: '/api/admin/audit/verify',
    kind: 'read',
    access: AUDITORS,
    params: noParamsSchema,
    data: admin.auditVerifyDataSchema,
    summary: "Recompute the audit log's hash chain; name the first row that does not match",
    handle: () => operators.verifyAudit(),
  });
};
