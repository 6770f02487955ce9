/** /api/admin/ledger and /api/admin/settings: adjustments with four-eyes review, the invariant check, platform settings. */
import * as admin from '../../contract/api/admin.js';
import { noParamsSchema } from '../../contract/schema.js';
import { FINANCE, FINANCE_STEP_UP, type RoutesOf } from './route-list.js';

export const ledgerAdminRoutes: RoutesOf = (define, { ledgerAdmin }) => {
  define({
    path: '/api/admin/ledger/adjust',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: admin.ledgerAdjustParamsSchema,
    data: admin.adjustmentStatusDataSchema,
    summary: 'Adjust an account (data_adjustment); above COFFER_ADJUST_REVIEW_ABOVE it waits for review',
    success: 'server.submitted',
    handle: (ctx, params) => ledgerAdmin.adjust(ctx, params),
  });
  define({
    path: '/api/admin/ledger/approve',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: admin.ledgerReviewParamsSchema,
    data: admin.adjustmentStatusDataSchema,
    summary: 'Apply a pending adjustment (a finance operator other than the requester)',
    success: 'server.submitted',
    handle: (ctx, params) => ledgerAdmin.approve(ctx, params),
  });
  define({
    path: '/api/admin/ledger/reject',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: admin.ledgerReviewParamsSchema,
    data: admin.adjustmentStatusDataSchema,
    summary: 'Reject a pending adjustment (a finance operator other than the requester)',
    success: 'server.submitted',
    handle: (ctx, params) => ledgerAdmin.reject(ctx, params),
  });
  define({
    path: '/api/admin/ledger/adjustments',
    kind: 'read',
    access: FINANCE,
    params: admin.adjustmentListParamsSchema,
    data: admin.adjustmentListDataSchema,
    summary: 'Adjustments, newest first (status pending_review: the review queue)',
    handle: (_ctx, params) => ledgerAdmin.list(params),
  });
  define({
    path: '/api/admin/ledger/check',
    kind: 'read',
    access: FINANCE,
    params: noParamsSchema,
    data: admin.ledgerCheckDataSchema,
    summary: "Check the ledger's invariants now",
    handle: () => ledgerAdmin.check(),
  });
  define({
    path: '/api/admin/settings',
    kind: 'read',
    access: FINANCE,
    params: noParamsSchema,
    data: admin.platformSettingsSchema,
    summary: 'Platform settings: the RAB price and the newcomer incentive',
    handle: () => ledgerAdmin.settings(),
  });
  define({
    path: '/api/admin/settings/limits',
    kind: 'read',
    access: FINANCE,
    params: noParamsSchema,
    data: admin.platformLimitsDataSchema,
    summary:
      "The RAB price's recent versions and the fees and limits the server runs with (its configuration)",
    handle: () => ledgerAdmin.limitsOverview(),
  });
  define({
    path: '/api/admin/settings/update',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: admin.platformSettingsParamsSchema,
    data: admin.platformSettingsSchema,
    summary: 'Set the RAB price in USDT and/or the newcomer incentive',
    success: 'server.saved',
    handle: (ctx, params) => ledgerAdmin.updateSettings(ctx, params),
  });
};
