/**
 * The authenticator and the passwords (/api/v1/user/*Google2Fa, *TradePassword,
 * *LoginPassword). These commands carry one-time codes or passwords, so they are sent only while
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
import { sendCodeDataSchema } from '../../contract/api/sso.js';
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
  };
}
