/** /api/v1/user: the authenticator, the trade password and the login password. */
import * as security from '../../contract/api/security.js';
import { sendCodeDataSchema } from '../../contract/api/sso.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const securityRoutes: RoutesOf = (define, { security: service }) => {
  define({
    path: '/api/v1/user/getGoogle2Fa',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: security.google2FaDataSchema,
    summary: 'A new authenticator key (secret and otpauth URL); only the newest can be bound',
    handle: (ctx) => service.getGoogle2Fa(ctx),
  });
  define({
    path: '/api/v1/user/bindGoogle2Fa',
    kind: 'command',
    access: 'user',
    params: security.bindGoogle2FaParamsSchema,
    data: security.securityChangeDataSchema,
    summary: 'Bind the newest key with one of its codes (first binding: no withdrawal lock)',
    success: 'server.saved',
    handle: (ctx, params) => service.bindGoogle2Fa(ctx, params),
  });
  define({
    path: '/api/v1/user/modifyGoogle2Fa',
    kind: 'command',
    access: 'user',
    params: security.modifyGoogle2FaParamsSchema,
    data: security.securityChangeDataSchema,
    summary: 'Replace the bound key (old and new codes); withdrawals wait 24 hours',
    success: 'server.saved',
    handle: (ctx, params) => service.modifyGoogle2Fa(ctx, params),
  });
  define({
    path: '/api/v1/user/bindTradePassword',
    kind: 'command',
    access: 'user',
    params: security.bindTradePasswordParamsSchema,
    data: security.securityChangeDataSchema,
    summary: 'Set the first trade password',
    success: 'server.saved',
    handle: (ctx, params) => service.bindTradePassword(ctx, params),
  });
  define({
    path: '/api/v1/user/sendUpdateTradePasswordCode',
    kind: 'command',
    access: 'user',
    params: noParamsSchema,
    data: sendCodeDataSchema,
    summary: "Mail a code for changing the trade password to the caller's address",
    success: 'server.code_sent',
    handle: (ctx) => service.sendUpdateTradePasswordCode(ctx),
  });
  define({
    path: '/api/v1/user/updateTradePassword',
    kind: 'command',
    access: 'user',
    params: security.updateTradePasswordParamsSchema,
    data: security.securityChangeDataSchema,
    summary: 'Change the trade password (old one and e-mailed code); withdrawals wait 24 hours',
    success: 'server.saved',
    handle: (ctx, params) => service.updateTradePassword(ctx, params),
  });
  define({
    path: '/api/v1/user/sendUpdateLoginPasswordCode',
    kind: 'command',
    access: 'user',
    params: noParamsSchema,
    data: sendCodeDataSchema,
    summary: "Mail a code for changing the login password to the caller's address",
    success: 'server.code_sent',
    handle: (ctx) => service.sendUpdateLoginPasswordCode(ctx),
  });
  define({
    path: '/api/v1/user/updateLoginPassword',
    kind: 'command',
    access: 'user',
    params: security.updateLoginPasswordParamsSchema,
    data: security.securityChangeDataSchema,
    summary:
      "Change the login password (old one and e-mailed code); revokes the user's other sessions; withdrawals wait 24 hours",
    success: 'server.saved',
    handle: (ctx, params) => service.updateLoginPassword(ctx, params),
  });
};
