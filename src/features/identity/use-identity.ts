/**
 * The real-name page's reads: the synced `identity` record of `coffer-u{user}` (so the status
 * reads offline; null when none was synced), and the submission command it follows in the outbox
 * (the one it queued, or one still waiting from an earlier visit). Import from the lazy page only.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { IdentityRecord } from '../../../contract/api/identity.js';
import type { OutboxRecord } from '../../../worker/commands.js';
import { useSession } from '../../../client-db/use-session.js';
import { userDatabase, useSyncedAt } from '../../../client-db/use-sync-db.js';

const COLLECTIONS = ['identity'] as const;

export type IdentityCommand = Extract<OutboxRecord, { kind: 'identity-submit' }>;

export interface IdentityView {
  /** Undefined while loading; null when nothing was synced. */
  record: IdentityRecord | null | undefined;
  syncedAt: string | null | undefined;
}

export function useIdentity(): IdentityView {
  const session = useSession();
  const userId = session?.userId ?? null;
  const db = userId === null ? null : userDatabase(userId);
  const record = useLiveQuery(
    async () => (db === null || userId === null ? null : ((await db.identity.get(userId)) ?? null)),
    [db, userId],
  );
  const syncedAt = useSyncedAt(db, COLLECTIONS);
  return { record, syncedAt };
}

/** The submission followed: `commandId`'s, or else one still queued or sending; null when none. */
export function useIdentityCommand(commandId: string | null): IdentityCommand | null | undefined {
  const session = useSession();
  const userId = session?.userId ?? null;
  return useLiveQuery(async () => {
    if (userId === null) return null;
    const db = userDatabase(userId);
    const isSubmit = (row: OutboxRecord | undefined): row is IdentityCommand =>
      row?.kind === 'identity-submit';
    if (commandId !== null) {
      const row = await db.outbox.get(commandId);
      return isSubmit(row) ? row : null;
    }
    const rows = await db.outbox.where('state').anyOf('queued', 'sending').sortBy('seq');
    return rows.find(isSubmit) ?? null;
  }, [userId, commandId]);
}
