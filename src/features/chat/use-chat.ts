/**
 * The chat's reads from `coffer-u{user}` (useLiveQuery): the newest messages by seq, the
 * customer's messages still in the outbox, the read marks (synced, and this device's own), and the
 * unread count the round button shows. Rows are as the worker wrote them (it parsed them on the
 * way in). Import from lazy chunks only.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { ChatMessage, ChatReadsRecord } from '../../../contract/api/chat.js';
import { useUserDb } from '../../../client-db/use-sync-db.js';
import { unreadCount, type ChatCommand } from './chat-view.js';

export interface ChatData {
  /** The newest `limit` messages, oldest first; undefined while loading. */
  messages: ChatMessage[] | undefined;
  /** How many messages are held in all, and the lowest seq held (0: none). */
  held: number;
  lowestSeq: number;
  commands: ChatCommand[];
  reads: ChatReadsRecord | null;
  /** The customer's read mark: the synced one or this device's, whichever is higher. */
  readSeq: number;
}

const readMarkOf = (data: unknown): number =>
  typeof data === 'object' && data !== null && 'seq' in data && typeof data.seq === 'number' ? data.seq : 0;

export function useChat(limit: number): ChatData | undefined {
  const db = useUserDb();
  return useLiveQuery(async (): Promise<ChatData | undefined> => {
    if (db === null) return undefined;
    const table = db.chat_messages;
    const [rows, held, first, commands, readsRow, mark] = await Promise.all([
      table.orderBy('seq').reverse().limit(limit).toArray(),
      table.count(),
      table.orderBy('seq').first(),
      db.outbox.toArray(),
      db.chat_reads.toCollection().first(),
      db.chatState.get('read'),
    ]);
    const syncedReads = readsRow ?? null;
    return {
      messages: rows.reverse(),
      held,
      lowestSeq: first?.seq ?? 0,
      commands: commands.filter((row): row is ChatCommand => row.kind === 'chat-send'),
      reads: syncedReads,
      readSeq: Math.max(syncedReads?.customerReadSeq ?? 0, readMarkOf(mark?.data)),
    };
  }, [db, limit]);
}

/** Agent messages the customer has not read (0 while loading or logged out). */
export function useUnreadCount(): number {
  const db = useUserDb();
  return (
    useLiveQuery(async () => {
      if (db === null) return 0;
      const [readsRow, mark] = await Promise.all([
        db.chat_reads.toCollection().first(),
        db.chatState.get('read'),
      ]);
      const readSeq = Math.max(readsRow?.customerReadSeq ?? 0, readMarkOf(mark?.data));
      const after = await db.chat_messages.where('seq').above(readSeq).toArray();
      return unreadCount(after, readSeq);
    }, [db]) ?? 0
  );
}
