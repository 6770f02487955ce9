/** Request parameters: merging, depth, hashing (parsing them is server/core/params.ts). */
import crypto from 'node:crypto';
import { BodyCode } from '../../contract/codes.js';
import { BusinessError } from '../core/errors.js';

/** How deep parameters may nest; no route takes more than a few levels. */
export const MAX_PARAM_DEPTH = 16;

/** True when `value` nests deeper than MAX_PARAM_DEPTH (checked without recursion). */
export function nestsTooDeep(value: unknown): boolean {
  const stack: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.item !== 'object' || next.item === null) continue;
    if (next.depth >= MAX_PARAM_DEPTH) return true;
    for (const child of Object.values(next.item)) stack.push({ item: child, depth: next.depth + 1 });
  }
  return false;
}

/**
 * One object of parameters from the query string and a form or JSON body (body wins).
 * Absurdly nested input is refused here, before a schema, a hash or a log walks it recursively.
 */
export function mergeParams(query: unknown, body: unknown): Record<string, unknown> {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
  if (body !== undefined && body !== null && !isRecord(body)) {
    throw new BusinessError(BodyCode.invalidInput, 'server.malformed_request');
  }
  const merged = { ...(isRecord(query) ? query : {}), ...(body ?? {}) };
  if (nestsTooDeep(merged)) throw new BusinessError(BodyCode.invalidInput, 'server.malformed_request');
  return merged;
}

/** Key order-independent JSON, for request hashes. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    ); // plain parsed JSON
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The hash that ties an Idempotency-Key to one request: path and parameters. */
export function requestHashOf(path: string, params: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${path}\n${stableStringify(params)}`)
    .digest('hex');
}

const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The command's Idempotency-Key header, if any; 400 when malformed. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new BusinessError(
      BodyCode.invalidInput,
      'server.field_invalid',
      { field: 'idempotencyKey' },
      { field: 'idempotencyKey' },
    );
  }
  return value;
}
