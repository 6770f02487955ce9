/**
 * The room's pure helpers (src/features/chat/chat-view.ts): each message's state (waiting in the
 * outbox, sent, read by support, not sent), one line per message however it arrived (the synced
 * message replaces its outbox command by clientMsgId), and the unread count of the round button.
 */
import { describe, expect, test } from 'vitest';
import { CHAT_HISTORY_LIMIT_DEFAULT, CHAT_TEXT_MAX, type ChatMessage } from '../../contract/api/chat.js';
import {
  HISTORY_PAGE,
  MESSAGE_MAX_LENGTH,
  shownMessages,
  unreadCount,
  type ChatCommand,
} from '../../src/features/chat/chat-view.js';

const message = (seq: number, from: 'customer' | 'agent', clientMsgId = `c${seq}-xxxxxxxx`): ChatMessage => ({
  id: `m${seq}`,
  seq,
  clientMsgId,
  from,
  agentName: from === 'agent' ? 'Mia' : null,
  text: `text ${seq}`,
  imageUrl: null,
  createdAt: new Date(Date.UTC(2026, 0, 5, 2, 0, seq)).toISOString(),
});

const command = (id: string, state: ChatCommand['state'], clientMsgId: string, seq: number): ChatCommand => ({
  id,
  kind: 'chat-send',
  resource: 'chat:conversation',
  state,
  seq,
  createdAtMs: 1000 + seq,
  expiresAtMs: 99_999_999,
  updatedAtMs: 1000 + seq,
  attempts: 0,
  lastError: null,
  answer: state === 'rejected' ? { code: 429, message: 'Too many requests' } : null,
  retriedAs: null,
  dismissed: false,
  params: { clientMsgId, text: `draft ${id}`, image: null },
});

describe('the chat room', () => {
  test("the page's length limits are the contract's", () => {
    expect(MESSAGE_MAX_LENGTH).toBe(CHAT_TEXT_MAX);
    expect(HISTORY_PAGE).toBe(CHAT_HISTORY_LIMIT_DEFAULT);
  });

  test('a customer message is sent once it has a seq, read by support once its seq is at most the agents’ read mark', () => {
    const shown = shownMessages([message(2, 'customer'), message(1, 'customer'), message(3, 'agent')], [], {
      agentReadSeq: 1,
    });
    expect(shown.map((item) => [item.seq, item.state])).toEqual([
      [1, 'read'],
      [2, 'sent'],
      [3, null],
    ]);
  });

  test('messages in the outbox show after the synced ones as waiting; a synced one replaces its command (no double)', () => {
    const shown = shownMessages(
      [message(1, 'agent'), message(2, 'customer', 'same-client-id')],
      [
        command('k1', 'confirmed', 'same-client-id', 1),
        command('k2', 'queued', 'later-xxxxxxxx', 2),
        command('k3', 'sending', 'last-xxxxxxxxx', 3),
      ],
      null,
    );
    expect(shown.map((item) => [item.key, item.state])).toEqual([
      ['m1', null],
      ['m2', 'sent'],
      ['k2', 'pending'],
      ['k3', 'pending'],
    ]);
  });

  test('a refused message shows as not sent with its reason until retried or removed', () => {
    const refused = command('k1', 'rejected', 'refused-xxxxxx', 1);
    expect(shownMessages([], [refused], null)[0]).toMatchObject({
      state: 'failed',
      failure: { commandId: 'k1', message: 'Too many requests', expired: false },
    });
    expect(shownMessages([], [{ ...refused, dismissed: true }], null)).toEqual([]);
    expect(shownMessages([], [{ ...refused, retriedAs: 'k2' }], null)).toEqual([]);
  });

  test('the unread count is the agent messages after the customer’s read mark', () => {
    const messages = [message(1, 'agent'), message(2, 'customer'), message(3, 'agent'), message(4, 'agent')];
    expect(unreadCount(messages, 0)).toBe(3);
    expect(unreadCount(messages, 3)).toBe(1);
    expect(unreadCount(messages, 4)).toBe(0);
  });
});
