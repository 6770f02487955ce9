/** /api/v1/user/*-payment: withdrawal methods (USDT addresses and bank cards). */
import * as payment from '../../contract/api/payment.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const paymentRoutes: RoutesOf = (define, { payments }) => {
  define({
    path: '/api/v1/user/add-chain-payment',
    kind: 'command',
    access: 'user',
    params: payment.addChainPaymentParamsSchema,
    data: payment.paymentMethodSchema,
    summary: 'Save a USDT withdrawal address on BEP20 or TRC20 (usable after the cooldown)',
    success: 'server.saved',
    handle: (ctx, params) => payments.addChain(ctx, params),
  });
  define({
    path: '/api/v1/user/add-bank-payment',
    kind: 'command',
    access: 'user',
    params: payment.addBankPaymentParamsSchema,
    data: payment.paymentMethodSchema,
    summary: 'Save a bank card for withdrawals (Luhn-checked; usable after the cooldown)',
    success: 'server.saved',
    handle: (ctx, params) => payments.addBank(ctx, params),
  });
  define({
    path: '/api/v1/user/payment-list',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: payment.paymentListDataSchema,
    summary: "The caller's withdrawal methods, newest first (cards show their last four digits)",
    handle: (ctx) => payments.list(ctx),
  });
  define({
    path: '/api/v1/user/payment-delete',
    kind: 'command',
    access: 'user',
    params: payment.paymentIdParamsSchema,
    data: payment.paymentIdParamsSchema,
    summary: 'Remove one of the caller’s withdrawal methods',
    success: 'server.saved',
    handle: (ctx, params) => payments.delete(ctx, params),
  });
};
