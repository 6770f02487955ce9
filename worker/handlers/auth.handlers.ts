/**
 * Registration, login, logout and password recovery (/api/v1/sso). Every handler here is a
 * command: it makes one Idempotency-Key when called and the queue reuses it on every retry.
 */
import {
  checkDataSchema,
  doneDataSchema,
  sendCodeDataSchema,
  sessionDataSchema,
  type CheckForgetCodeParams,
  type CheckRegisterInfoParams,
  type EmailLoginParams,
  type ForgotParams,
  type RegisterParams,
  type SendCodeParams,
  type SessionData,
} from '../../contract/api/sso.js';
import { normalizeEmail } from '../../contract/validation.js';
import type { Outcome } from '../transport.js';
import { commandNow, type HandlerDeps } from './deps.js';

export function authHandlers(deps: HandlerDeps) {
  const { api, session, newIdempotencyKey } = deps;
  const command = commandNow(deps);
  /** Stores the session a register or login answer carries; passes the outcome on. */
  async function keepSession(email: string, outcome: Outcome<SessionData>): Promise<Outcome<SessionData>> {
    if (outcome.kind === 'ok') {
      const { token, userId } = outcome.data;
      await session.saveSession({ token, userId, email: normalizeEmail(email) });
    }
    return outcome;
  }

  return {
    async 'auth-send-register-code'({ email }: SendCodeParams) {
      return command('/api/v1/sso/sendRegisterCode', sendCodeDataSchema, { email });
    },

    async 'auth-check-register-info'({
      email,
      inviteCode,
      password,
      confirmPassword,
    }: CheckRegisterInfoParams) {
      const params: Record<string, unknown> = { email, inviteCode };
      if (password !== undefined) params['password'] = password;
      if (confirmPassword !== undefined) params['confirmPassword'] = confirmPassword;
      return command('/api/v1/sso/checkRegisterInfo', checkDataSchema, params);
    },

    /** Registers; on success the new session is stored before the outcome returns. */
    async 'auth-register'({ email, code, inviteCode, password, confirmPassword }: RegisterParams) {
      const outcome = await command('/api/v1/sso/register', sessionDataSchema, {
        email,
        code,
        inviteCode,
        password,
        confirmPassword,
      });
      return keepSession(email, outcome);
    },

    /** Logs in; on success the session is stored before the outcome returns. */
    async 'auth-login'({ email, password }: EmailLoginParams) {
      const outcome = await command('/api/v1/sso/emailLogin', sessionDataSchema, { email, password });
      return keepSession(email, outcome);
    },

    /**
     * Logs out locally first, whatever happens next: offline, the server call may take minutes
     * of retries, and a user who logged out must be logged out now. Then revokes the token on
     * the server and returns that outcome.
     */
    async 'auth-logout'() {
      const token = await session.getToken();
      await session.clearSession();
      return api.command(
        '/api/v1/sso/logout',
        doneDataSchema,
        {},
        {
          idempotencyKey: newIdempotencyKey(),
          token,
        },
      );
    },

    async 'auth-send-forget-code'({ email }: SendCodeParams) {
      return command('/api/v1/sso/sendForgetCode', sendCodeDataSchema, { email });
    },

    /** Checks a reset code without using it up (a wrong code still counts as a try). */
    async 'auth-check-forget-code'({ email, code }: CheckForgetCodeParams) {
      return command('/api/v1/sso/checkForgetCode', checkDataSchema, { email, code });
    },

    /** Sets a new password with a reset code; the server revokes every session of the user. */
    async 'auth-forgot'({ email, code, password, confirmPassword }: ForgotParams) {
      return command('/api/v1/sso/forgot', doneDataSchema, { email, code, password, confirmPassword });
    },
  };
}
