/**
 * The outbox command a page follows to its end, for the active account: the one the page queued
 * (`id`), else one of the account still queued or being sent (the page was left and opened
 * again meanwhile; not with `resume` false). `kind` is one kind or several (a machine's buy or rent); `match` narrows to
 * params with these values (the machine the page shows). Undefined while loading.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxRecord } from '../../../worker/commands.js';
import { userDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';

/** The kinds whose params name the account they act on. */
export type AccountKind = {
  [K in OutboxRecord['kind']]: Extract<OutboxRecord, { kind: K }>['params'] extends { accountId: string }
    ? K
    : never;
}[OutboxRecord['kind']];

export function useAccountCommand<K extends AccountKind>(
  kind: K | readonly K[],
  active: ActiveAccount,
  id: string | null,
  match: Readonly<Record<string, string>> = {},
  resume = true,
): Extract<OutboxRecord, { kind: K }> | null | undefined {
  const { userId, accountId } = active;
  const kinds: readonly string[] = typeof kind === 'string' ? [kind] : kind;
  // The query reruns when these change: the lists by their contents, not their identity.
  const kindsKey = kinds.join(',');
  const matchKey = JSON.stringify(match);
  return useLiveQuery(async () => {
    const outbox = userDatabase(userId).outbox;
    const isOwn = (row: OutboxRecord): row is Extract<OutboxRecord, { kind: K }> => {
      if (!kinds.includes(row.kind) || !('accountId' in row.params) || row.params.accountId !== accountId)
        return false;
      const params: Record<string, unknown> = row.params;
      return Object.entries(match).every(([field, value]) => params[field] === value);
    };
    if (id !== null) {
      const row = await outbox.get(id);
      return row !== undefined && isOwn(row) ? row : null;
    }
    if (!resume) return null;
    const pending = await outbox.where('state').anyOf('queued', 'sending').toArray();
    return pending.find(isOwn) ?? null;
    // kinds and match are read through their keys (kindsKey, matchKey).
  }, [kindsKey, matchKey, userId, accountId, id, resume]);
}
