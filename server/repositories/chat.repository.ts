/** SQL of the customer service chat: conversations, messages by seq, the desk's queue, canned replies. */
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { chatCannedReplies, chatConversations, chatMessages, operators, users } from '../db/schema.js';
import { idIn, insertRow, rowWhere, updateRow } from './rows.js';

export type ChatConversationRow = typeof chatConversations.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type CannedReplyRow = typeof chatCannedReplies.$inferSelect;
export type ConversationChanges = Partial<Omit<ChatConversationRow, 'id' | 'userId' | 'createdAt'>>;

/** The user's conversation, made (status `open`, no message) when there is none yet; locked. */
export async function lockOrCreateConversation(
  db: Executor,
  userId: number,
  now: Date,
): Promise<ChatConversationRow> {
  await db
    .insert(chatConversations)
    .values({ userId, status: 'open', createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: chatConversations.userId });
  const row = await conversationOf(db, userId, true);
  if (!row) throw new Error(`chat_conversations: none for user ${userId} after insert`);
  return row;
}

/** The user's conversation, if any; `lock` holds its row (every write of the conversation takes it). */
export async function conversationOf(
  db: Executor,
  userId: number,
  lock = false,
): Promise<ChatConversationRow | undefined> {
  const query = db.select().from(chatConversations).where(eq(chatConversations.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export const updateConversation = (db: Executor, id: number, changes: ConversationChanges) =>
  updateRow(db, chatConversations, id, changes);

/** The message a client id already made in the conversation (the exactly-once check). */
export const messageByClientId = (db: Executor, conversationId: number, clientMsgId: string) =>
  rowWhere(
    db,
    chatMessages,
    eq(chatMessages.conversationId, conversationId),
    eq(chatMessages.clientMsgId, clientMsgId),
  );

export const insertMessage = (db: Executor, row: typeof chatMessages.$inferInsert) =>
  insertRow(db, chatMessages, row);

const visibility = (withNotes: boolean) => (withNotes ? undefined : eq(chatMessages.internal, false));

/** Messages after `afterSeq`, ascending (notes too with `withNotes`: after the message they follow). */
export function messagesAfter(
  db: Executor,
  conversationId: number,
  afterSeq: number,
  limit: number,
  withNotes = false,
): Promise<ChatMessageRow[]> {
  return db
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.conversationId, conversationId),
        gt(chatMessages.seq, afterSeq),
        visibility(withNotes),
      ),
    )
    .orderBy(asc(chatMessages.seq), asc(chatMessages.id))
    .limit(limit);
}

/** The `limit` messages before `beforeSeq` (none: the newest), ascending. */
export async function messagesBefore(
  db: Executor,
  conversationId: number,
  beforeSeq: number | undefined,
  limit: number,
  withNotes = false,
): Promise<ChatMessageRow[]> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.conversationId, conversationId),
        beforeSeq === undefined ? undefined : lt(chatMessages.seq, beforeSeq),
        visibility(withNotes),
      ),
    )
    .orderBy(desc(chatMessages.seq), desc(chatMessages.id))
    .limit(limit);
  return rows.reverse();
}

/** The user's messages among `ids` that the customer sees (never a note): the sync reader. */
export function customerMessagesByIds(
  db: Executor,
  userId: number,
  ids: number[],
): Promise<ChatMessageRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(chatMessages)
    .where(
      and(eq(chatMessages.userId, userId), idIn(chatMessages.id, ids), eq(chatMessages.internal, false)),
    );
}

/** Whether upload `imageId` is in a message `userId`'s conversation shows them (an agent's image they may see). */
export async function chatImageSeenBy(db: Executor, imageId: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.imageId, imageId),
        eq(chatMessages.userId, userId),
        eq(chatMessages.internal, false),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Customer messages after the agents' read mark, per conversation. */
export async function unreadByAgents(db: Executor, conversationIds: number[]): Promise<Map<number, number>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .select({ conversationId: chatMessages.conversationId, count: sql<number>`count(*)::int` })
    .from(chatMessages)
    .innerJoin(chatConversations, eq(chatConversations.id, chatMessages.conversationId))
    .where(
      and(
        inArray(chatMessages.conversationId, conversationIds),
        eq(chatMessages.sender, 'customer'),
        gt(chatMessages.seq, chatConversations.agentReadSeq),
      ),
    )
    .groupBy(chatMessages.conversationId);
  return new Map(rows.map((row) => [row.conversationId, Number(row.count)]));
}

/** The newest message (not a note) of each conversation. */
export async function lastMessagesOf(
  db: Executor,
  conversationIds: number[],
): Promise<Map<number, ChatMessageRow>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([chatMessages.conversationId])
    .from(chatMessages)
    .where(and(inArray(chatMessages.conversationId, conversationIds), eq(chatMessages.internal, false)))
    .orderBy(chatMessages.conversationId, desc(chatMessages.seq));
  return new Map(rows.map((row) => [row.conversationId, row]));
}

/** A conversation with its customer and its assignee's display name. */
const deskColumns = {
  conversation: chatConversations,
  email: users.email,
  nickname: users.nickname,
  assigneeName: operators.displayName,
};
export type DeskRow = {
  conversation: ChatConversationRow;
  email: string;
  nickname: string;
  assigneeName: string | null;
};

/** The desk's queue of `status`: unassigned first, then the oldest waiting first, then the oldest change. */
export function deskQueue(db: Executor, status: string, offset: number, limit: number): Promise<DeskRow[]> {
  return db
    .select(deskColumns)
    .from(chatConversations)
    .innerJoin(users, eq(users.id, chatConversations.userId))
    .leftJoin(operators, eq(operators.id, chatConversations.assigneeId))
    .where(and(eq(chatConversations.status, status), gt(chatConversations.lastSeq, 0)))
    .orderBy(
      sql`(${chatConversations.assigneeId} is null) desc`,
      sql`${chatConversations.waitingSince} asc nulls last`,
      asc(chatConversations.updatedAt),
      asc(chatConversations.id),
    )
    .offset(offset)
    .limit(limit);
}

/** One user's conversation as the desk shows it. */
export async function deskRowOf(db: Executor, userId: number): Promise<DeskRow | undefined> {
  const [row] = await db
    .select(deskColumns)
    .from(chatConversations)
    .innerJoin(users, eq(users.id, chatConversations.userId))
    .leftJoin(operators, eq(operators.id, chatConversations.assigneeId))
    .where(eq(chatConversations.userId, userId));
  return row;
}

/**
 * Conversations whose newest agent reply has been unread since `repliedBefore` and not mailed
 * about, whose last mail (if any) was before `mailedBefore`; locked, skipping those another
 * instance holds.
 */
export function dueUnreadMails(
  db: Executor,
  repliedBefore: Date,
  mailedBefore: Date,
  limit: number,
): Promise<ChatConversationRow[]> {
  return db
    .select()
    .from(chatConversations)
    .where(
      and(
        gt(chatConversations.lastAgentSeq, chatConversations.customerReadSeq),
        gt(chatConversations.lastAgentSeq, chatConversations.mailedSeq),
        lte(chatConversations.lastAgentAt, repliedBefore),
        or(isNull(chatConversations.mailedAt), lte(chatConversations.mailedAt, mailedBefore)),
      ),
    )
    .orderBy(asc(chatConversations.lastAgentAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Agent replies (not notes) after `afterSeq`: how many wait unread. */
export async function agentRepliesAfter(
  db: Executor,
  conversationId: number,
  afterSeq: number,
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.conversationId, conversationId),
        eq(chatMessages.sender, 'agent'),
        eq(chatMessages.internal, false),
        gt(chatMessages.seq, afterSeq),
      ),
    );
  return Number(row?.count ?? 0);
}

export function cannedReplies(db: Executor, language: string | undefined): Promise<CannedReplyRow[]> {
  return db
    .select()
    .from(chatCannedReplies)
    .where(language === undefined ? undefined : eq(chatCannedReplies.language, language))
    .orderBy(asc(chatCannedReplies.code), asc(chatCannedReplies.language));
}

/** Writes the text of (code, language): a new reply or the existing one's new text. */
export async function saveCannedReply(
  db: Executor,
  row: { code: string; language: string; text: string; updatedAt: Date; updatedBy: string },
): Promise<CannedReplyRow> {
  const [saved] = await db
    .insert(chatCannedReplies)
    .values(row)
    .onConflictDoUpdate({
      target: [chatCannedReplies.code, chatCannedReplies.language],
      set: { text: row.text, updatedAt: row.updatedAt, updatedBy: row.updatedBy },
    })
    .returning();
  if (!saved) throw new Error('chat_canned_replies: upsert returned no row');
  return saved;
}

export async function deleteCannedReply(db: Executor, id: number): Promise<CannedReplyRow | undefined> {
  const [row] = await db.delete(chatCannedReplies).where(eq(chatCannedReplies.id, id)).returning();
  return row;
}
