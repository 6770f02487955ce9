/**
 * The audit log's hash chain: each row's `hash` is SHA-256 (hex) of the previous row's hash
 * followed by the row's canonical JSON, so a row changed, removed or reordered after the fact
 * breaks every hash after it. The first row's previous hash is the empty string (as are the
 * hashes of rows written before the chain existed: the chain starts after them).
 */
import { sha256Hex } from './tokens.js';

/** What a row's hash covers: everything but its id (assigned by the database) and the hash itself. */
export interface AuditContent {
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  at: Date;
}

/** JSON with object keys sorted at every depth and no spaces; values as JSON.stringify reads them. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null))));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * A row's content as its hash covers it, its time as ISO text: also what the audit log shows of
 * an entry beside its id, so an entry reads exactly as the chain vouches for it.
 */
export function chainedContent(row: AuditContent) {
  const { actor, action, target, detail, at } = row;
  return { actor, action, target, detail, at: at.toISOString() };
}

/** The hash of a row whose predecessor's hash is `previousHash`. */
export function auditHash(previousHash: string, row: AuditContent): string {
  return sha256Hex(previousHash + canonicalJson(chainedContent(row)));
}

export type ChainCheck =
  | { ok: true; checked: number; beforeChain: number; lastId: number | null }
  | { ok: false; checked: number; beforeChain: number; brokenAt: number; expected: string; found: string };

/**
 * Walks rows in id order (as `rows` yields them, page by page) and names the first whose hash does
 * not match. Rows with an empty hash before the first hashed row predate the chain; an empty hash
 * after it is a break like any other.
 */
export async function verifyChain(
  rows: AsyncIterable<AuditContent & { id: number; hash: string }>,
): Promise<ChainCheck> {
  let previous = '';
  let started = false;
  let checked = 0;
  let beforeChain = 0;
  let lastId: number | null = null;
  for await (const row of rows) {
    if (!started && row.hash === '') {
      beforeChain += 1;
      continue;
    }
    started = true;
    const expected = auditHash(previous, row);
    if (row.hash !== expected) {
      return { ok: false, checked, beforeChain, brokenAt: row.id, expected, found: row.hash };
    }
    previous = row.hash;
    checked += 1;
    lastId = row.id;
  }
  return { ok: true, checked, beforeChain, lastId };
}
