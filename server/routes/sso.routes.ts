/** /api/v1/sso: registration, login, logout, password recovery. */
import * as sso from '../../contract/api/sso.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const ssoRoutes: RoutesOf = (define, { auth }) => {
  define({
    path: '/api/v1/sso/sendRegisterCode',
    kind: 'command',
    access: 'public',
    params: sso.sendCodeParamsSchema,
    data: sso.sendCodeDataSchema,
    summary: 'Mail a 6-digit registration code (60 s resend countdown, 10 min life)',
    success: 'server.code_sent',
    handle: (ctx, params) => auth.sendRegisterCode(ctx, params),
  });
  define({
    path: '/api/v1/sso/checkRegisterInfo',
    kind: 'command',
    access: 'public',
    params: sso.checkRegisterInfoParamsSchema,
    data: sso.checkDataSchema,
    summary: 'Check registration fields (address free, invite valid) without registering',
    success: 'server.check_passed',
    handle: (ctx, params) => auth.checkRegisterInfo(ctx, params),
  });
  define({
    path: '/api/v1/sso/register',
    kind: 'command',
    access: 'public',
    params: sso.registerParamsSchema,
    data: sso.sessionDataSchema,
    summary: 'Register with the e-mailed code and an invite code; returns a session token',
    success: 'server.registered',
    handle: (ctx, params) => auth.register(ctx, params),
  });
  define({
    path: '/api/v1/sso/emailLogin',
    kind: 'command',
    access: 'public',
    params: sso.emailLoginParamsSchema,
    data: sso.sessionDataSchema,
    summary: 'Log in with e-mail and password; data.token is the session token',
    success: 'server.logged_in',
    handle: (ctx, params) => auth.emailLogin(ctx, params),
  });
  define({
    path: '/api/v1/sso/logout',
    kind: 'command',
    access: 'user',
    params: noParamsSchema,
    data: sso.doneDataSchema,
    summary: 'Revoke the session token',
    success: 'server.logged_out',
    handle: (ctx) => auth.logout(ctx),
  });
  define({
    path: '/api/v1/sso/sendForgetCode',
    kind: 'command',
    access: 'public',
    params: sso.sendCodeParamsSchema,
    data: sso.sendCodeDataSchema,
    summary: 'Mail a password reset code',
    success: 'server.code_sent',
    handle: (ctx, params) => auth.sendForgetCode(ctx, params),
  });
  define({
    path: '/api/v1/sso/checkForgetCode',
    kind: 'command',
    access: 'public',
    params: sso.checkForgetCodeParamsSchema,
    data: sso.checkDataSchema,
    summary: 'Verify a reset code without using it up',
    success: 'server.check_passed',
    handle: (ctx, params) => auth.checkForgetCode(ctx, params),
  });
  define({
    path: '/api/v1/sso/forgot',
    kind: 'command',
    access: 'public',
    params: sso.forgotParamsSchema,
    data: sso.doneDataSchema,
    summary: 'Set a new password with a reset code; revokes every session',
    success: 'server.password_reset',
    handle: (ctx, params) => auth.forgot(ctx, params),
  });
};
