/**
 * The authenticator and the passwords (/api/v1/user/*Google2Fa, *TradePassword,
 * *LoginPassword), and the security centre (sessions, the anti-phishing code, the e-mail
 * address: docs/protocol.md section 31). These commands carry one-time codes or passwords, so they are sent only while
 * online: straight through the request queue (which retries transport failures with the same
 * Idempotency-Key), never into the outbox.
 */
import {
  google2FaDataSchema,
  securityChangeDataSchema,
  type BindGoogle2FaParams,
  type BindTradePasswordParams,
  type ModifyGoogle2FaParams,
  type UpdateLoginPasswordParams,
  type UpdateTradePasswordParams,
} from '../../contract/api/security.js';
import {
  emailUpdateDataSchema,
  sessionRevokeDataSchema,
  userSessionsDataSchema,
  type AntiPhishingParams,
  type EmailUpdateParams,
  type SendEmailUpdateCodeParams,
} from '../../contract/api/security-centre.js';
import { doneDataSchema, sendCodeDataSchema } from '../../contract/api/sso.js';
import { commandNow, type HandlerDeps } from './deps.js';

export function securityHandlers(deps: HandlerDeps) {
  const { api } = deps;
  const command = commandNow(deps);

  return {
    /** A new authenticator key (secret and otpauth URL) to show as a QR code and as text. */
    async 'security-new-authenticator-key'() {
      return api.read('/api/v1/user/getGoogle2Fa', google2FaDataSchema);
    },
    async 'security-bind-authenticator'({ code }: BindGoogle2FaParams) {
      return command('/api/v1/user/bindGoogle2Fa', securityChangeDataSchema, { code });
    },
    async 'security-modify-authenticator'({ oldCode, newCode, secret }: ModifyGoogle2FaParams) {
      return command('/api/v1/user/modifyGoogle2Fa', securityChangeDataSchema, { oldCode, newCode, secret });
    },
    async 'security-bind-trade-password'({ tradePassword, confirmPassword }: BindTradePasswordParams) {
      return command('/api/v1/user/bindTradePassword', securityChangeDataSchema, {
        tradePassword,
        confirmPassword,
      });
    },
    async 'security-send-trade-password-code'() {
      return command('/api/v1/user/sendUpdateTradePasswordCode', sendCodeDataSchema, {});
    },
    async 'security-update-trade-password'(params: UpdateTradePasswordParams) {
      const { oldTradePassword, tradePassword, confirmPassword, code } = params;
      return command('/api/v1/user/updateTradePassword', securityChangeDataSchema, {
        oldTradePassword,
        tradePassword,
        confirmPassword,
        code,
      });
    },
    async 'security-send-login-password-code'() {
      return command('/api/v1/user/sendUpdateLoginPasswordCode', sendCodeDataSchema, {});
    },
    async 'security-update-login-password'(params: UpdateLoginPasswordParams) {
      const { oldPassword, password, confirmPassword, code } = params;
      return command('/api/v1/user/updateLoginPassword', securityChangeDataSchema, {
        oldPassword,
        password,
        confirmPassword,
        code,
      });
    },
    /** The caller's signed-in sessions, the most recently used first (online only, kept nowhere). */
    async 'security-sessions'() {
      return api.read('/api/v1/user/sessions', userSessionsDataSchema);
    },
    /** Ends one session of the caller's (its own ends this sign-in: the next call answers 401). */
    async 'security-end-session'({ sessionId }: { sessionId: string }) {
      return command('/api/v1/user/session-revoke', sessionRevokeDataSchema, { sessionId });
    },
    /** Ends every session of the caller's but this one. */
    async 'security-end-other-sessions'() {
      return command('/api/v1/user/session-revoke', sessionRevokeDataSchema, { others: true });
    },
    /** Sets or changes the anti-phishing code: with the authenticator's code when one is bound, else the trade password. */
    async 'security-set-anti-phishing'({ code, googleCode, tradePassword }: AntiPhishingParams) {
      return command('/api/v1/user/anti-phishing', doneDataSchema, {
        code,
        ...(googleCode === undefined ? {} : { googleCode }),
        ...(tradePassword === undefined ? {} : { tradePassword }),
      });
    },
    /** Mails one code to the current address and one to `newEmail`. */
    async 'security-send-email-update-codes'({ newEmail }: SendEmailUpdateCodeParams) {
      return command('/api/v1/user/sendEmailUpdateCode', sendCodeDataSchema, { newEmail });
    },
    /** Changes the address with both codes; the server then ends the caller's other sessions. */
    async 'security-update-email'({ newEmail, oldCode, newCode }: EmailUpdateParams) {
      return command('/api/v1/user/email-update', emailUpdateDataSchema, { newEmail, oldCode, newCode });
    },
  };
}
