/** /api/v1/user: the security centre (sessions, the anti-phishing code, the e-mail address). */
import * as centre from '../../contract/api/security-centre.js';
import { doneDataSchema, sendCodeDataSchema } from '../../contract/api/sso.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const securityCentreRoutes: RoutesOf = (define, { securityCentre: service }) => {
  define({
    path: '/api/v1/user/sessions',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: centre.userSessionsDataSchema,
    summary: "The caller's signed-in sessions (device, address, times), the most recently used first",
    handle: (ctx) => service.listSessions(ctx),
  });
  define({
    path: '/api/v1/user/session-revoke',
    kind: 'command',
    access: 'user',
    params: centre.sessionRevokeParamsSchema,
    data: centre.sessionRevokeDataSchema,
    summary:
      'End one session (sessionId) or every other one (others: true); refused at once on every instance',
    success: 'server.sessions_revoked',
    handle: (ctx, params) => service.revokeSession(ctx, params),
  });
  define({
    path: '/api/v1/user/anti-phishing',
    kind: 'command',
    access: 'user',
    params: centre.antiPhishingParamsSchema,
    data: doneDataSchema,
    summary:
      'Set or change the anti-phishing code shown in every e-mail (authenticator code, else trade password)',
    success: 'server.saved',
    handle: (ctx, params) => service.setAntiPhishing(ctx, params),
  });
  define({
    path: '/api/v1/user/sendEmailUpdateCode',
    kind: 'command',
    access: 'user',
    params: centre.sendEmailUpdateCodeParamsSchema,
    data: sendCodeDataSchema,
    summary: 'Mail a code to the current address and one to newEmail, for email-update',
    success: 'server.code_sent',
    handle: (ctx, params) => service.sendEmailUpdateCode(ctx, params),
  });
  define({
    path: '/api/v1/user/email-update',
    kind: 'command',
    access: 'user',
    params: centre.emailUpdateParamsSchema,
    data: centre.emailUpdateDataSchema,
    summary: "Change the address with both codes; ends the user's other sessions; withdrawals wait 24 hours",
    success: 'server.saved',
    handle: (ctx, params) => service.updateEmail(ctx, params),
  });
};
