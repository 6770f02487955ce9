/**
 * Passkeys (/api/v1/passkey/*, /api/v1/sso/passkey-*; docs/protocol.md section 33). The
 * WebAuthn browser calls happen in the page (they need the window); the worker only carries the
 * options and the responses. These carry passwords, codes or one-time challenges: sent only
 * while online, never into the outbox.
 */
import {
  passkeyListDataSchema,
  passkeyLoginOptionsDataSchema,
  passkeyRegisterOptionsDataSchema,
  passkeySchema,
  type PasskeyLoginParams,
  type PasskeyRegisterOptionsParams,
  type PasskeyRegisterParams,
  type PasskeyRemoveParams,
  type PasskeyRenameParams,
} from '../../contract/api/passkeys.js';
import { doneDataSchema, sessionDataSchema } from '../../contract/api/sso.js';
import { userInfoSchema } from '../../contract/api/user.js';
import { commandNow, type HandlerDeps } from './deps.js';

export function passkeyHandlers(deps: HandlerDeps) {
  const { api, session } = deps;
  const command = commandNow(deps);

  return {
    async 'passkey-list'() {
      return api.read('/api/v1/passkey/list', passkeyListDataSchema);
    },
    /** Creation options after the login password (and the authenticator code when bound). */
    async 'passkey-register-options'({ password, googleCode }: PasskeyRegisterOptionsParams) {
      return command('/api/v1/passkey/register-options', passkeyRegisterOptionsDataSchema, {
        password,
        ...(googleCode === undefined ? {} : { googleCode }),
      });
    },
    async 'passkey-register'({ challengeId, name, response }: PasskeyRegisterParams) {
      return command('/api/v1/passkey/register', passkeySchema, { challengeId, name, response });
    },
    async 'passkey-rename'({ id, name }: PasskeyRenameParams) {
      return command('/api/v1/passkey/rename', doneDataSchema, { id, name });
    },
    async 'passkey-remove'({ id }: PasskeyRemoveParams) {
      return command('/api/v1/passkey/remove', doneDataSchema, { id });
    },
    async 'passkey-login-options'() {
      return api.read('/api/v1/sso/passkey-options', passkeyLoginOptionsDataSchema);
    },
    /**
     * Signs in with the page's WebAuthn response; on success the session is stored, then the
     * user's address is read (none was typed) and stored with it, before the outcome returns.
     */
    async 'passkey-login'({ challengeId, response }: PasskeyLoginParams) {
      const outcome = await command('/api/v1/sso/passkey-login', sessionDataSchema, {
        challengeId,
        response,
      });
      if (outcome.kind !== 'ok') return outcome;
      const { token, userId } = outcome.data;
      await session.saveSession({ token, userId, email: '' });
      const info = await api.read('/api/v1/user/info', userInfoSchema);
      if (info.kind === 'ok') await session.saveSession({ token, userId, email: info.data.email });
      return outcome;
    },
  };
}
