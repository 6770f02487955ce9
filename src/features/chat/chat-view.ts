/**
 * The conversation as the room shows it (docs/protocol.md §35): the synced messages by seq, then
 * the customer's messages still in the outbox (pending, or refused and waiting for the customer),
 * each with its state: pending (in the outbox), sent (it has a seq), read by support (its seq is
 * at most the agents' read mark). A confirmed command whose message is not synced yet still
 * shows, as sent; one whose message arrived shows once, as the message. Pure.
 */
import type { ChatMessage, ChatReadsRecord } from '../../../contract/api/chat.js';
import type { OutboxRecord } from '../../../worker/commands.js';

export type ChatCommand = Extract<OutboxRecord, { kind: 'chat-send' }>;

/**
 * The contract's CHAT_TEXT_MAX and CHAT_HISTORY_LIMIT_DEFAULT (contract/api/chat.ts), restated:
 * a value imported from there would load zod into the page (tests/client/chat-view.test.ts holds
 * them equal).
 */
export const MESSAGE_MAX_LENGTH = 2000;
export const HISTORY_PAGE = 50;

/** What the room writes beside a message of the customer's: pending, sent, read, or refused. */
export type MessageState = 'pending' | 'sent' | 'read' | 'failed';

export interface ShownMessage {
  /** The message id, or the command id of one not yet synced. */
  key: string;
  from: 'customer' | 'agent';
  agentName: string | null;
  text: string | null;
  /** An uploaded image's URL. */
  imageUrl: string | null;
  /** A local image not uploaded yet (pending). */
  localImage: { bytes: Uint8Array; type: string } | null;
  /** ISO time, or epoch ms for a pending one (when it was written). */
  at: string | number;
  seq: number | null;
  /** For the customer's own; null on agent messages. */
  state: MessageState | null;
  /** A refused or expired command: its id and why (for Retry and Remove). */
  failure: { commandId: string; message: string | null; expired: boolean } | null;
}

/** The messages to show, oldest first. */
export function shownMessages(
  messages: readonly ChatMessage[],
  commands: readonly ChatCommand[],
  reads: Pick<ChatReadsRecord, 'agentReadSeq'> | null,
): ShownMessage[] {
  const agentReadSeq = reads?.agentReadSeq ?? 0;
  const synced = [...messages].sort((a, b) => a.seq - b.seq);
  const syncedIds = new Set(synced.map((message) => message.clientMsgId));
  const shown: ShownMessage[] = synced.map((message) => ({
    key: message.id,
    from: message.from,
    agentName: message.agentName,
    text: message.text,
    imageUrl: message.imageUrl,
    localImage: null,
    at: message.createdAt,
    seq: message.seq,
    state: message.from === 'customer' ? (message.seq <= agentReadSeq ? 'read' : 'sent') : null,
    failure: null,
  }));
  const waiting = [...commands]
    .filter((command) => !syncedIds.has(command.params.clientMsgId) && shownState(command) !== null)
    .sort((a, b) => a.seq - b.seq);
  for (const command of waiting) {
    const { image } = command.params;
    const failed = command.state === 'rejected' || command.state === 'expired';
    shown.push({
      key: command.id,
      from: 'customer',
      agentName: null,
      text: command.params.text,
      imageUrl: image?.url ?? null,
      localImage: image !== null && image.bytes !== null ? { bytes: image.bytes, type: image.type } : null,
      at: command.createdAtMs,
      seq: null,
      state: shownState(command),
      failure: failed
        ? {
            commandId: command.id,
            message: command.answer?.message ?? null,
            expired: command.state === 'expired',
          }
        : null,
    });
  }
  return shown;
}

/** How a command not yet synced shows; null: not at all (cancelled, put aside, or retried as another). */
function shownState(command: ChatCommand): MessageState | null {
  switch (command.state) {
    case 'queued':
    case 'sending':
      return 'pending';
    case 'confirmed':
      return 'sent';
    case 'rejected':
    case 'expired':
      return command.dismissed || command.retriedAs !== null ? null : 'failed';
    case 'cancelled':
      return null;
  }
}

/** Agent messages after the customer's read mark (the larger of the synced one and this device's). */
export function unreadCount(messages: readonly Pick<ChatMessage, 'from' | 'seq'>[], readSeq: number): number {
  return messages.filter((message) => message.from === 'agent' && message.seq > readSeq).length;
}

/** The support hours as a range, `09:00–18:00`. Pure. */
export function hoursText(hours: { opens: string; closes: string }): string {
  return `${hours.opens}–${hours.closes}`;
}
