/**
 * Zod building blocks shared by every route schema. Error messages are locale keys
 * (`server.*`) that the server translates; the field name comes from the issue's path.
 * Every string has a maximum length and refuses control characters before any query.
 */
import { z } from 'zod';
import { formatMoney, parseMoney, parseUserAmount } from './money.js';
import {
  CODE_PATTERN,
  CONTROL_CHARS,
  CONTROL_CHARS_MULTILINE,
  EMAIL_PATTERN,
  normalizeEmail,
} from './validation.js';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';

interface TextOptions {
  min?: number;
  max: number;
  multiline?: boolean;
}

/** A trimmed single- or multi-line string, required unless min is 0. */
export function text({ min = 1, max, multiline = false }: TextOptions) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? 'server.field_required' : 'server.field_wrong_type'),
    })
    .max(max, { error: 'server.field_too_long' })
    .refine((value) => !(multiline ? CONTROL_CHARS_MULTILINE : CONTROL_CHARS).test(value), {
      error: 'server.field_control_chars',
      abort: true,
    })
    .transform((value) => value.trim())
    .refine((value) => value.length >= min, {
      error: min <= 1 ? 'server.field_required' : 'server.field_too_short',
    });
}

/** An e-mail address, normalised to lower case (addresses compare case-insensitively). */
export const emailSchema = text({ max: EMAIL_MAX_LENGTH })
  .refine((value) => EMAIL_PATTERN.test(value), { error: 'server.email_invalid' })
  .transform(normalizeEmail);

/** A 6-digit verification code. */
export const codeSchema = text({ max: 16 }).refine((value) => CODE_PATTERN.test(value), {
  error: 'server.code_format',
});

/** A password: not trimmed (spaces are characters), 6 to 128 characters. */
export const passwordSchema = z
  .string({
    error: (issue) => (issue.input === undefined ? 'server.field_required' : 'server.field_wrong_type'),
  })
  .max(PASSWORD_MAX_LENGTH, { error: 'server.field_too_long' })
  .refine((value) => !CONTROL_CHARS.test(value), { error: 'server.field_control_chars', abort: true })
  .refine((value) => value.length > 0, { error: 'server.field_required', abort: true })
  .refine((value) => value.length >= PASSWORD_MIN_LENGTH, { error: 'server.password_too_short' });

/** A new password typed twice, in this order; withMatchingConfirm checks that the two match. */
export const newPasswordFields = { password: passwordSchema, confirmPassword: passwordSchema };

/** Adds the spec's "the two passwords do not match" rule on `confirmPassword`. */
export function withMatchingConfirm<T extends { password: string; confirmPassword: string }>(
  schema: z.ZodType<T>,
) {
  return schema.refine((value) => value.password === value.confirmPassword, {
    error: 'server.passwords_mismatch',
    path: ['confirmPassword'],
  });
}

/** Money on the wire: a decimal string of at most 6 fraction digits, normalised. */
export const moneySchema = text({ max: 40 }).transform((value, context) => {
  try {
    return formatMoney(parseMoney(value));
  } catch {
    context.addIssue({ code: 'custom', message: 'server.field_invalid' });
    return z.NEVER;
  }
});

/**
 * An amount a user enters (spec section 5): a plain decimal above zero with at most 2 fraction
 * digits, normalised to the wire's form. Negative, empty, 3 decimals or not a number: 400.
 */
export const userAmountSchema = text({ max: 40 }).transform((value, context) => {
  try {
    const amount = parseUserAmount(value);
    if (amount > 0n) return formatMoney(amount);
  } catch {
    // falls through to the issue below
  }
  context.addIssue({ code: 'custom', message: 'server.amount_invalid' });
  return z.NEVER;
});

/** Ids are strings on the wire. */
export const idSchema = text({ max: 40 }).refine((value) => /^[A-Za-z0-9_-]+$/.test(value), {
  error: 'server.field_invalid',
});

/** Times on the wire: ISO 8601 UTC with `Z`. */
/** An up-img URL (`/api/v1/common/img/<id>`): what the upload call answered. */
export const uploadUrlSchema = text({ max: 200 }).refine(
  (value) => /^\/api\/v1\/common\/img\/[A-Za-z0-9_-]{10,64}$/.test(value),
  { error: 'server.field_invalid' },
);

export const isoTimeSchema = z.string().describe('ISO 8601 time in UTC');

const isoDateTime = z.iso.datetime({ offset: true });
/** A time a caller sends: ISO 8601 with `Z` or an offset (a string first, so control characters are named as such). */
export const isoTimeParamSchema = text({ max: 40 }).refine((value) => isoDateTime.safeParse(value).success, {
  error: 'server.field_invalid',
});

/** A whole number from `min` to `max` a caller sends (form bodies send numbers as strings); else `server.field_invalid`. */
export function wholeNumberParam(min: number, max: number) {
  return z.coerce
    .number({ error: 'server.field_invalid' })
    .int({ error: 'server.field_invalid' })
    .min(min, { error: 'server.field_invalid' })
    .max(max, { error: 'server.field_invalid' });
}

/** List paging in (`cursor`, `limit`); form bodies send numbers as strings. */
export const pageParamsSchema = z.object({
  cursor: text({ min: 0, max: 64 }).optional(),
  limit: wholeNumberParam(1, 100).optional(),
});

/**
 * The `cursor` of a list paged by row id: the digits of a safe integer, or empty for the first
 * page. Longer digit strings would reach the database as out-of-range numbers.
 */
export const idCursorSchema = text({ min: 0, max: 16 }).refine(
  (value) => value === '' || (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))),
  { error: 'server.field_invalid' },
);

/** List paging by row id: `cursor` is an id cursor (see idCursorSchema), `limit` as pageParamsSchema. */
export const idPageParamsSchema = pageParamsSchema.extend({ cursor: idCursorSchema.optional() });

/**
 * An account's list paged by row id: `cursor`, `limit`, then `accountId` (absent: the caller's
 * current account). Extend it with the list's filters; the keys keep this order.
 */
export const accountPageParamsSchema = idPageParamsSchema.extend({ accountId: idSchema.optional() });

/** A read of one account: `accountId` defaults to the caller's default account (as a pull does). */
export const accountReadParamsSchema = z.object({ accountId: idSchema.optional() });

/** A whole list answer, not paged: `{items}`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}

/** A closed set of wire words; anything else is `server.field_invalid`. */
export function choiceOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: 'server.field_invalid' });
}

/** A list answer: `{items, nextCursor}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** Parameters naming one row by its `id`. */
export const idParamsSchema = z.object({ id: idSchema });

/** Parameters of a call that takes none (extra keys are ignored). */
export const noParamsSchema = z.object({});

/** The answer envelope `{code, message, data}` around a route's data. */
export function answerOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data: data.nullable() });
}

/**
 * A record of one account as synced and listed: `id` and `accountId` first, then `fields` in
 * their order (the wire's key order stays as written).
 */
export function accountRecordOf<T extends z.ZodRawShape>(fields: T) {
  return z.object({ id: z.string(), accountId: z.string(), ...fields });
}

/**
 * A live read of one account's figures: `accountId` (the account read, the default one when the
 * call named none), then `fields` in their order, then `asOf` (when they were read).
 */
export function accountReadOf<T extends z.ZodRawShape>(fields: T) {
  return z.object({ accountId: z.string(), ...fields, asOf: isoTimeSchema });
}

/**
 * The parameters of a command that spends an account's money: `accountId` first, then `fields`
 * in their order, then the `tradePassword` that confirms it (so it is sent only while online).
 */
export function tradeCommandOf<T extends z.ZodRawShape>(fields: T) {
  return z.object({ accountId: idSchema, ...fields, tradePassword: passwordSchema });
}

/** The last two keys of a record that is written and changed: `createdAt`, `updatedAt`. */
export const recordTimes = { createdAt: isoTimeSchema, updatedAt: isoTimeSchema };
