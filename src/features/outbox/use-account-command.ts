/**
 * The outbox command of one kind a page follows to its end, for the active account: the one the
 * page queued (`id`), else one of the account still queued or being sent (the page was left and
 * opened again meanwhile). Undefined while loading.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxRecord } from '../../../sync/commands.js';
import { userDatabase, type ActiveAccount } from '../../db/sync-db.js';

/** The kinds whose params name the account they act on. */
type AccountKind = {
  [K in OutboxRecord['kind']]: Extract<OutboxRecord, { kind: K }>['params'] extends { accountId: string }
    ? K
    : never;
}[OutboxRecord['kind']];

export function useAccountCommand<K extends AccountKind>(
  kind: K,
  active: ActiveAccount,
  id: string | null,
): Extract<OutboxRecord, { kind: K }> | null | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const outbox = userDatabase(userId).outbox;
    const isOwn = (row: OutboxRecord): row is Extract<OutboxRecord, { kind: K }> =>
      row.kind === kind && 'accountId' in row.params && row.params.accountId === accountId;
    if (id !== null) {
      const row = await outbox.get(id);
      return row !== undefined && isOwn(row) ? row : null;
    }
    const pending = await outbox.where('state').anyOf('queued', 'sending').toArray();
    return pending.find(isOwn) ?? null;
  }, [kind, userId, accountId, id]);
}
