/**
 * Customer service chat (docs/protocol.md §35): one conversation per customer, its messages
 * numbered by `seq` within it, and the canned replies agents type by short code.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt, id, optionalRef, status, updatedAt, userRef, lastEdit } from './columns.js';

/**
 * A customer's one conversation. `last_seq` is the newest message's seq (0: none yet): a new
 * message takes `last_seq + 1` under the row's lock, so seqs rise by one with no gap.
 * `customer_read_seq` / `agent_read_seq` are the read marks (ticks); `waiting_since` the first
 * customer message after the last agent reply (null: nothing waits). The unread-mail bookkeeping:
 * `mailed_seq` the newest agent reply seq already e-mailed about, `mailed_at` when.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: id(),
    userId: userRef(),
    status: status(),
    assigneeId: optionalRef('assignee_id'),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    customerReadSeq: bigint('customer_read_seq', { mode: 'number' }).notNull().default(0),
    agentReadSeq: bigint('agent_read_seq', { mode: 'number' }).notNull().default(0),
    /** The newest agent reply (not a note): its seq and time, for the unread mail. */
    lastAgentSeq: bigint('last_agent_seq', { mode: 'number' }).notNull().default(0),
    lastAgentAt: at('last_agent_at'),
    lastCustomerAt: at('last_customer_at'),
    waitingSince: at('waiting_since'),
    mailedSeq: bigint('mailed_seq', { mode: 'number' }).notNull().default(0),
    mailedAt: at('mailed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('chat_conversations_user').on(t.userId),
    index('chat_conversations_desk').on(t.status, t.waitingSince),
    index('chat_conversations_unread_mail')
      .on(t.lastAgentAt)
      .where(sql`${t.lastAgentSeq} > ${t.customerReadSeq} and ${t.lastAgentSeq} > ${t.mailedSeq}`),
    check('chat_conversations_status', sql`${t.status} in ('open', 'pending', 'resolved')`),
  ],
);

/**
 * A message. An internal note takes the seq of the message it follows (it is not a message of
 * the customer's numbering, so the customer's seqs have no gap). `(conversation_id, seq)` among
 * messages, and `(conversation_id, client_msg_id)` are unique: the
 * second makes a repeated send return the stored message. Exactly one of `text` and
 * `image_id` (an upload id). `internal` notes are agents' only.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    conversationId: bigint('conversation_id', { mode: 'number' }).notNull(),
    userId: userRef(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    clientMsgId: text('client_msg_id').notNull(),
    sender: text('sender').notNull(),
    agentId: optionalRef('agent_id'),
    agentName: text('agent_name'),
    text: text('text'),
    imageId: text('image_id'),
    internal: boolean('internal').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_messages_seq')
      .on(t.conversationId, t.seq)
      .where(sql`not ${t.internal}`),
    index('chat_messages_history').on(t.conversationId, t.seq, t.id),
    uniqueIndex('chat_messages_client_id').on(t.conversationId, t.clientMsgId),
    index('chat_messages_image').on(t.imageId),
    check('chat_messages_sender', sql`${t.sender} in ('customer', 'agent')`),
    check('chat_messages_body', sql`(${t.text} is null) <> (${t.imageId} is null)`),
    check('chat_messages_internal', sql`not ${t.internal} or ${t.sender} = 'agent'`),
  ],
);

/** Canned replies: one text per (code, language). */
export const chatCannedReplies = pgTable(
  'chat_canned_replies',
  {
    id: id(),
    code: text('code').notNull(),
    language: text('language').notNull(),
    text: text('text').notNull(),
    ...lastEdit(),
  },
  (t) => [uniqueIndex('chat_canned_code').on(t.code, t.language)],
);
