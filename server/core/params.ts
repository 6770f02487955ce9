/**
 * Turns parameters into a schema's typed values, or a localised 400 naming the first bad field:
 * what routes do before a service runs, and what a service does when its checks must come before
 * the body's (withdraw/create).
 */
import type { z } from 'zod';
import { BodyCode } from '../../contract/codes.js';
import { BusinessError, notFound } from './errors.js';

type Issue = z.core.$ZodIssue;

/** The locale key and variables for the first problem zod found. */
export function errorOfIssue(issue: Issue): BusinessError {
  const field = issue.path.map(String).join('.') || 'request';
  let key = issue.message.startsWith('server.') ? issue.message : 'server.field_invalid';
  const vars: Record<string, string | number> = { field };
  if (!issue.message.startsWith('server.')) {
    if (issue.code === 'invalid_type')
      key = issue.input === undefined ? 'server.field_required' : 'server.field_wrong_type';
    else if (issue.code === 'too_small') key = 'server.field_too_short';
    else if (issue.code === 'too_big') key = 'server.field_too_long';
    else if (issue.code === 'unrecognized_keys') key = 'server.field_unknown';
  }
  if (issue.code === 'too_small') vars['min'] = Number(issue.minimum);
  if (issue.code === 'too_big') vars['max'] = Number(issue.maximum);
  if (key === 'server.field_too_long' && vars['max'] === undefined) vars['max'] = '-';
  return new BusinessError(BodyCode.invalidInput, key, vars, { field });
}

/**
 * A row id from the wire: 1 to 15 decimal digits (within bigint and a safe integer), else null.
 * Ids on the wire are any short token (`idSchema`); one that is not a row id names no row, and
 * must not reach SQL (NaN or 1e30 there is a database error, answered 500).
 */
export const rowIdOf = (id: string): number | null => (/^\d{1,15}$/.test(id) ? Number(id) : null);

/** The row id `id` names, or 404 when it cannot name a row. */
export function existingRowId(id: string): number {
  const rowId = rowIdOf(id);
  if (rowId === null) throw notFound();
  return rowId;
}

/** Parses params with a route's schema; throws a 400 naming the first bad field. */
export function parseParams<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const [first] = result.error.issues;
    throw first ? errorOfIssue(first) : new BusinessError(BodyCode.invalidInput, 'server.invalid_input');
  }
  return result.data;
}
