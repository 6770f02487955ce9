/** /api/v1/withdraw/* and the operators' /api/admin/withdraw/*. */
import * as withdraw from '../../contract/api/withdraw.js';
import { FINANCE, FINANCE_STEP_UP, type RoutesOf } from './route-list.js';

export const withdrawRoutes: RoutesOf = (define, { withdraw: service }) => {
  define({
    path: '/api/v1/withdraw/index',
    kind: 'read',
    access: 'user',
    params: withdraw.withdrawIndexParamsSchema,
    data: withdraw.withdrawIndexDataSchema,
    summary: 'Fee, minimum, daily limit and what remains, the window now, the available balance',
    handle: (ctx, params) => service.index(ctx, params),
  });
  define({
    path: '/api/v1/withdraw/create',
    kind: 'command',
    access: 'user',
    movesMoney: true,
    params: withdraw.withdrawCreateRawParamsSchema,
    data: withdraw.withdrawalRecordSchema,
    summary:
      'Request a withdrawal: 300, 4900, 4901 first; then 471 outside the window, 472 for a wrong or used code, 470 when short; amount + fee held',
    success: 'server.withdraw_requested',
    handle: (ctx, params) => service.create(ctx, params),
  });
  define({
    path: '/api/v1/withdraw/list',
    kind: 'read',
    access: 'user',
    params: withdraw.withdrawListParamsSchema,
    data: withdraw.withdrawListDataSchema,
    summary: "The account's withdrawals, newest first",
    handle: (ctx, params) => service.list(ctx, params),
  });
  define({
    path: '/api/admin/withdraw/list',
    kind: 'read',
    access: FINANCE,
    params: withdraw.adminWithdrawListParamsSchema,
    data: withdraw.adminWithdrawListDataSchema,
    summary: 'Every withdrawal, newest first (stage awaiting_review: the review queue)',
    handle: (_ctx, params) => service.adminList(params),
  });
  define({
    path: '/api/admin/withdraw/approve',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: withdraw.adminWithdrawIdParamsSchema,
    data: withdraw.adminWithdrawalSchema,
    summary: 'Approve a withdrawal (above the review threshold, two different finance operators)',
    success: 'server.saved',
    handle: (ctx, params) => service.approve(ctx, params),
  });
  define({
    path: '/api/admin/withdraw/reject',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: withdraw.adminWithdrawRejectParamsSchema,
    data: withdraw.adminWithdrawalSchema,
    summary: 'Reject a withdrawal not yet sent, with a reason: the hold goes back (withdrawal_reversal)',
    success: 'server.saved',
    handle: (ctx, params) => service.reject(ctx, params),
  });
  define({
    path: '/api/admin/withdraw/paid',
    kind: 'command',
    access: FINANCE_STEP_UP,
    params: withdraw.adminWithdrawPaidParamsSchema,
    data: withdraw.adminWithdrawalSchema,
    summary: 'Mark an approved bank-card (or hand-sent TRC20) withdrawal paid, with its reference',
    success: 'server.saved',
    handle: (ctx, params) => service.paid(ctx, params),
  });
};
