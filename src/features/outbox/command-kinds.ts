/**
 * What the UI reads from an outbox row's kind and params, without the worker's command list (the
 * UI imports the worker for types only). A feature's kinds share its prefix (`hosting-`, `otc-`);
 * a kind with secrets is exactly one carrying the trade password (tests/worker/commands.test.ts).
 */
import type { OutboxRecord } from '../../../worker/commands.js';

/** True for a hosting command (create, add, sub, redeem). Pure. */
export function isHostingCommand(
  row: OutboxRecord,
): row is Extract<OutboxRecord, { kind: `hosting-${string}` }> {
  return row.kind.startsWith('hosting-');
}

/** True for an OTC command (list, take, cancel). Pure. */
export function isOtcCommand(row: OutboxRecord): row is Extract<OutboxRecord, { kind: `otc-${string}` }> {
  return row.kind.startsWith('otc-');
}

/** True for a kind whose secrets are blanked when it settles: it is never retried, the user acts again. Pure. */
export function carriesSecrets(row: OutboxRecord): boolean {
  return 'tradePassword' in row.params;
}
