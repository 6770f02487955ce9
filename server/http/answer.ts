/**
 * Answers of business outcomes: HTTP 200 with `{code, message, data}` (CONTRACT.md).
 * Answers are serialised once, to text, so a replayed command returns the same bytes.
 */
import type { Locale, Translator, Vars } from '../i18n/i18n.js';

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
