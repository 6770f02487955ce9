/**
 * The spec's plain validation helpers (section 5). Pure functions, no zod, so the client's first
 * page can use them without loading a schema library. Each returns a `server.*` message key of
 * the locale catalogue, or null when the value is fine.
 */
import { CODE_LENGTH, EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';

export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const MAINLAND_MOBILE_PATTERN = /^1[3-9]\d{9}$/;
export const DIGITS_PATTERN = /^\d+$/;
export const CODE_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`);
/** The anti-phishing code of the security centre: 4 to 20 letters and digits. */
export const ANTI_PHISHING_PATTERN = /^[A-Za-z0-9]{4,20}$/;
/** An amount a user types: a plain decimal with at most 2 fraction digits. */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,14})(\.\d{1,2})?$/;
/** C0 controls and DEL; NUL would also make PostgreSQL fail with 22021. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Like CONTROL_CHARS but allows tab and line breaks, for multi-line text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARS_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export type MessageKey = `server.${string}`;

/** E-mail addresses are compared case-insensitively: this is the one canonical form. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkEmail(email: string): MessageKey | null {
  if (email.trim() === '') return 'server.field_required';
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email.trim()) ? null : 'server.email_invalid';
}

export function checkCode(code: string): MessageKey | null {
  if (code === '') return 'server.field_required';
  return CODE_PATTERN.test(code) ? null : 'server.code_format';
}

export function checkPassword(password: string): MessageKey | null {
  if (password === '') return 'server.field_required';
  if (password.length < PASSWORD_MIN_LENGTH) return 'server.password_too_short';
  return password.length <= PASSWORD_MAX_LENGTH ? null : 'server.field_too_long';
}

/** "the two passwords do not match" (spec section 5). */
export function checkConfirmPassword(password: string, confirm: string): MessageKey | null {
  if (confirm === '') return 'server.field_required';
  return password === confirm ? null : 'server.passwords_mismatch';
}

export function checkRequired(value: string): MessageKey | null {
  return value.trim() === '' ? 'server.field_required' : null;
}

export function checkAmount(value: string): MessageKey | null {
  if (value.trim() === '') return 'server.field_required';
  return AMOUNT_PATTERN.test(value) ? null : 'server.amount_invalid';
}

/** The anti-phishing code: 4 to 20 letters and digits (an empty one says the same). */
export function checkAntiPhishingCode(code: string): MessageKey | null {
  return ANTI_PHISHING_PATTERN.test(code) ? null : 'server.anti_phishing_format';
}
