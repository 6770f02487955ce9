/**
 * Business outcomes and their answers: HTTP 200 with `{code, message, data}` (CONTRACT.md).
 * Answers are serialised once, to text, so a replayed command returns the same bytes.
 */
import { BodyCode } from '../../contract/codes.js';
import type { Locale, Translator, Vars } from '../i18n/i18n.js';

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

/** Serialises an answer; the `field` variable, when present, is translated as a field label. */
export function renderAnswer(
  translator: Translator,
  locale: Locale,
  code: number,
  messageKey: string,
  vars: Vars,
  data: unknown,
): string {
  const field = vars['field'];
  const localVars =
    typeof field === 'string'
      ? { ...vars, field: translator.has(`field.${field}`) ? translator.t(locale, `field.${field}`) : field }
      : vars;
  return JSON.stringify({ code, message: translator.t(locale, messageKey, localVars), data });
}
