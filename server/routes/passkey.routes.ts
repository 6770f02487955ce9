/** /api/v1/passkey (a signed-in user's passkeys) and /api/v1/sso/passkey-* (signing in with one). */
import * as passkey from '../../contract/api/passkeys.js';
import { doneDataSchema, sessionDataSchema } from '../../contract/api/sso.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const passkeyRoutes: RoutesOf = (define, { passkeys, auth }) => {
  define({
    path: '/api/v1/passkey/register-options',
    kind: 'command',
    access: 'user',
    params: passkey.passkeyRegisterOptionsParamsSchema,
    data: passkey.passkeyRegisterOptionsDataSchema,
    summary:
      'Creation options for a new passkey (login password, plus googleCode when an authenticator is bound); the challenge lives 5 minutes, once',
    handle: (ctx, params) => passkeys.registerOptions(ctx, params),
  });
  define({
    path: '/api/v1/passkey/register',
    kind: 'command',
    access: 'user',
    params: passkey.passkeyRegisterParamsSchema,
    data: passkey.passkeySchema,
    summary: "Store the new passkey under a name: the browser's registration response to the challenge",
    success: 'server.passkey_added',
    handle: (ctx, params) => passkeys.register(ctx, params),
  });
  define({
    path: '/api/v1/passkey/list',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: passkey.passkeyListDataSchema,
    summary: "The caller's passkeys (name, added, last used), oldest first",
    handle: (ctx) => passkeys.list(ctx),
  });
  define({
    path: '/api/v1/passkey/rename',
    kind: 'command',
    access: 'user',
    params: passkey.passkeyRenameParamsSchema,
    data: doneDataSchema,
    summary: 'Rename one of the caller’s passkeys',
    success: 'server.saved',
    handle: (ctx, params) => passkeys.rename(ctx, params),
  });
  define({
    path: '/api/v1/passkey/remove',
    kind: 'command',
    access: 'user',
    params: passkey.passkeyRemoveParamsSchema,
    data: doneDataSchema,
    summary: 'Delete one of the caller’s passkeys: it signs in no more',
    success: 'server.passkey_removed',
    handle: (ctx, params) => passkeys.remove(ctx, params),
  });
  define({
    // A read, like getGoogle2Fa: each call issues a new challenge, and nothing else changes.
    path: '/api/v1/sso/passkey-options',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: passkey.passkeyLoginOptionsDataSchema,
    summary:
      'Request options for signing in with a discoverable passkey; the challenge lives 5 minutes, once',
    handle: () => auth.passkeyOptions(),
  });
  define({
    path: '/api/v1/sso/passkey-login',
    kind: 'command',
    access: 'public',
    params: passkey.passkeyLoginParamsSchema,
    data: sessionDataSchema,
    summary:
      "Sign in with a passkey (the browser's authentication response); data.token is the session token",
    success: 'server.logged_in',
    handle: (ctx, params) => auth.passkeyLogin(ctx, params),
  });
};
