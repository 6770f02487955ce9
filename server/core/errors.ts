/**
 * Business outcomes other than success, below every layer that throws them: services, the
 * ledger and jobs throw these with no request in sight; the HTTP layer renders them as
 * `{code, message, data}` with HTTP 200 (CONTRACT.md).
 */
import { BodyCode } from '../../contract/codes.js';
import type { Vars } from '../i18n/i18n.js';

/** A business outcome other than success: thrown by services, answered with HTTP 200. */
export class BusinessError extends Error {
  constructor(
    readonly code: number,
    /** A locale catalogue key, e.g. `server.code_wrong`. */
    readonly messageKey: string,
    readonly vars: Vars = {},
    readonly data: unknown = null,
  ) {
    super(messageKey);
  }
}

/** Thrown when a command's Idempotency-Key was already answered: the stored text is sent as is. */
export class ReplayedAnswer extends Error {
  constructor(readonly text: string) {
    super('replayed answer');
  }
}

export const notLoggedIn = () => new BusinessError(BodyCode.notLoggedIn, 'server.not_logged_in');
export const forbidden = () => new BusinessError(BodyCode.forbidden, 'server.forbidden');
export const notFound = () => new BusinessError(BodyCode.notFound, 'server.not_found');
export const invalidField = (field: string, key = 'server.field_invalid', vars: Vars = {}) =>
  new BusinessError(BodyCode.invalidInput, key, { field, ...vars }, { field });
