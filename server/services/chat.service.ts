/**
 * Customer service chat (docs/protocol.md §35): one conversation per customer, messages numbered
 * by seq under the conversation's row lock (so seqs rise by one with no gap, and a repeated
 * `clientMsgId` finds the stored message instead of making a second), read marks both ways, the
 * agents' desk (assign, reply, internal notes, resolve, canned replies, the customer's context),
 * the support hours and community links operators set, and the unread reply e-mail. Every change
 * is recorded for sync in its transaction and published to the sockets once committed.
 */
import crypto from 'node:crypto';
import type { AdminChatSettings, ChatInfoData } from '../../contract/api/chat.js';
import {
  CHAT_HISTORY_LIMIT_DEFAULT,
  CHAT_SENDS_PER_MINUTE,
  CHAT_UNREAD_MAIL_AFTER_MS,
  CHAT_UNREAD_MAIL_EVERY_MS,
  type AdminChatContext,
  type AdminChatConversation,
  type AdminChatMessage,
  type CannedReply,
  type ChatHistoryData,
  type ChatMessage,
  type ChatReads,
  type ChatReadsRecord,
  type ChatStatus,
} from '../../contract/api/chat.js';
import type { IdentityStatus } from '../../contract/api/identity.js';
import type { Locale } from '../../contract/locales.js';
import { BodyCode } from '../../contract/codes.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notFound } from '../core/errors.js';
import { existingRowId } from '../core/params.js';
import type { Executor } from '../db/database.js';
import { accountBalances } from '../ledger/ledger.js';
import type { Letter } from '../mail/letters.js';
import {
  agentRepliesAfter,
  cannedReplies,
  conversationOf,
  customerMessagesByIds,
  deleteCannedReply,
  deskQueue,
  deskRowOf,
  dueUnreadMails,
  insertMessage,
  lastMessagesOf,
  lockOrCreateConversation,
  messageByClientId,
  messagesAfter,
  messagesBefore,
  saveCannedReply,
  unreadByAgents,
  updateConversation,
  type CannedReplyRow,
  type ChatConversationRow,
  type ChatMessageRow,
  type DeskRow,
} from '../repositories/chat.repository.js';
import { depositsOfUser } from '../repositories/console.repository.js';
import { listFeedbackOf } from '../repositories/content.repository.js';
import { latestSubmissionOf } from '../repositories/identity.repository.js';
import { appendAudit, findOperatorById } from '../repositories/operator.repository.js';
import { findSetting, setSetting } from '../repositories/settings.repository.js';
import { recordChanges, type SyncChange } from '../repositories/sync.repository.js';
import { findUpload } from '../repositories/upload.repository.js';
import { findUserById, listAccounts } from '../repositories/user.repository.js';
import { withdrawalsOfAccount } from '../repositories/withdraw.repository.js';
import type { CounterStore } from '../security/counters.js';
import type { ChatEvent } from './chat-bus.js';
import type { ChatBacklog } from './chat-hub.js';
import { actorOf, operatorIdOf } from './operator.service.js';
import { toBalanceRecord, toDepositRecord, toFeedbackRecord, toWithdrawalRecord } from './records.js';
import type { UserMail } from './user-mail.js';
import { silentNotifier, type UserNotifier } from './user-notifier.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** What customers see as the agent's name while an operator has set none (never the e-mail). */
export const DEFAULT_AGENT_NAME = 'Support';
/** Where the customer reads the conversation (the unread mail links to it). */
const CHAT_PAGE = 'pages/chatroom/room';
const SETTINGS_KEY = 'chat_settings';
const DEFAULT_SETTINGS: AdminChatSettings = {
  hours: { opens: '09:00', closes: '21:00', days: [1, 2, 3, 4, 5, 6, 7] },
  communities: [],
};
/** Unread mails one job run sends at most (the rest wait for the next run). */
const MAILS_PER_RUN = 100;
const RECENT_DEPOSITS = 10;

const imageUrlOf = (id: string | null) => (id === null ? null : `/api/v1/common/img/${id}`);
const idOfImageUrl = (url: string) => url.slice(url.lastIndexOf('/') + 1);

export function toAdminMessage(row: ChatMessageRow): AdminChatMessage {
  return {
    id: String(row.id),
    seq: row.seq,
    clientMsgId: row.clientMsgId,
    from: row.sender as 'customer' | 'agent', // the table's check allows only these
    agentName: row.sender === 'agent' ? (row.agentName ?? DEFAULT_AGENT_NAME) : null,
    text: row.text,
    imageUrl: imageUrlOf(row.imageId),
    createdAt: row.createdAt.toISOString(),
    internal: row.internal,
    agentId: row.agentId === null ? null : String(row.agentId),
  };
}

/** The customer's view of a message (a note never reaches here: every customer read filters them). */
export function toChatMessage(row: ChatMessageRow): ChatMessage {
  const { internal: _internal, agentId: _agentId, ...message } = toAdminMessage(row);
  return message;
}

const readsOf = (row: ChatConversationRow | undefined): ChatReads => ({
  customerReadSeq: row?.customerReadSeq ?? 0,
  agentReadSeq: row?.agentReadSeq ?? 0,
});

export function toChatReadsRecord(row: ChatConversationRow): ChatReadsRecord {
  return {
    id: String(row.userId),
    ...readsOf(row),
    lastSeq: row.lastSeq,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The sync readers (chat.collections.ts). */
export const chatMessageRecords = async (db: Executor, userId: number, ids: number[]) =>
  (await customerMessagesByIds(db, userId, ids)).map(toChatMessage);
export async function chatReadsRecords(db: Executor, userId: number, ids: string[]) {
  if (!ids.includes(String(userId))) return [];
  const row = await conversationOf(db, userId);
  return row ? [toChatReadsRecord(row)] : [];
}

/** Whether `now` is within the hours, in `timezone` (a `closes` before `opens` runs past midnight). */
export function withinHours(hours: AdminChatSettings['hours'], timezone: string, now: Date): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(part('weekday')) + 1;
  const minutes = Number(part('hour')) * 60 + Number(part('minute'));
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const opens = toMinutes(hours.opens);
  const closes = toMinutes(hours.closes);
  if (opens === closes) return hours.days.includes(weekday);
  if (opens < closes) return hours.days.includes(weekday) && minutes >= opens && minutes < closes;
  // Past midnight: the evening belongs to today, the early hours to yesterday's opening.
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  return (
    (hours.days.includes(weekday) && minutes >= opens) || (hours.days.includes(yesterday) && minutes < closes)
  );
}

type Publish = (event: ChatEvent) => Promise<void>;

export class ChatService extends CoreService implements ChatBacklog {
  /** Set by the hub's owner (app.ts): where committed changes go to the sockets. */
  #publish: Publish = () => Promise.resolve();

  constructor(
    core: ServiceCore,
    private readonly counters: CounterStore,
    private readonly mail: UserMail,
    private readonly timezone: string,
    /** Tells the customer of an agent's reply (web push, docs/protocol.md §35.7). */
    private readonly notifier: UserNotifier = silentNotifier,
  ) {
    super(core);
  }

  /** Where committed changes are published (the hub; tests may watch them). */
  publishTo(publish: Publish): void {
    this.#publish = publish;
  }

  // ---- The customer ----

  /** Sends a message; a repeated `clientMsgId` answers the stored message and writes nothing. */
  async send(
    ctx: RequestContext,
    params: { clientMsgId: string; text?: string | undefined; imageUrl?: string | undefined },
  ): Promise<ChatMessage> {
    const userId = userIdOf(ctx);
    const sends = await this.counters.hit(`chat:send:u${userId}`, 60);
    // The effect answers the wire's message (the command runner stores it); `created` says whether it wrote one.
    const written: { message: AdminChatMessage | null } = { message: null };
    const answer = await this.commands.run(ctx, async (tx) => {
      const now = this.clock.now();
      const conversation = await lockOrCreateConversation(tx, userId, now);
      const stored = await messageByClientId(tx, conversation.id, params.clientMsgId);
      if (stored) return toChatMessage(stored);
      if (sends.count > CHAT_SENDS_PER_MINUTE) throw tooMany(sends.secondsLeft);
      const imageId =
        params.imageUrl === undefined ? null : await this.#ownImage(tx, params.imageUrl, { userId });
      const seq = conversation.lastSeq + 1;
      const message = await insertMessage(tx, {
        conversationId: conversation.id,
        userId,
        seq,
        clientMsgId: params.clientMsgId,
        sender: 'customer',
        text: imageId === null ? (params.text ?? '') : null,
        imageId,
        internal: false,
        createdAt: now,
      });
      await updateConversation(tx, conversation.id, {
        lastSeq: seq,
        status: 'open',
        lastCustomerAt: now,
        waitingSince: conversation.waitingSince ?? now,
        updatedAt: now,
      });
      await this.#changed(tx, userId, [message]);
      written.message = toAdminMessage(message);
      return toChatMessage(message);
    });
    if (written.message) await this.#announce(userId, written.message, true);
    return answer;
  }

  /** A page of the caller's conversation: after `afterSeq`, or before `beforeSeq` (neither: the newest). */
  async history(
    ctx: RequestContext,
    params: { afterSeq?: number | undefined; beforeSeq?: number | undefined; limit?: number | undefined },
  ): Promise<ChatHistoryData> {
    const userId = userIdOf(ctx);
    const conversation = await conversationOf(this.db, userId);
    const limit = params.limit ?? CHAT_HISTORY_LIMIT_DEFAULT;
    const rows = !conversation
      ? []
      : params.afterSeq !== undefined
        ? await messagesAfter(this.db, conversation.id, params.afterSeq, limit)
        : await messagesBefore(this.db, conversation.id, params.beforeSeq, limit);
    return { items: rows.map(toChatMessage), lastSeq: conversation?.lastSeq ?? 0, ...readsOf(conversation) };
  }

  /** The customer has read up to `seq` (at most the newest; a mark never goes back). */
  async read(ctx: RequestContext, params: { seq: number }): Promise<ChatReads> {
    const userId = userIdOf(ctx);
    const moved = { yes: false };
    const reads = await this.commands.run(ctx, async (tx) => {
      const conversation = await conversationOf(tx, userId, true);
      if (!conversation) return readsOf(undefined);
      const seq = Math.min(params.seq, conversation.lastSeq);
      if (seq <= conversation.customerReadSeq) return readsOf(conversation);
      const updated = await updateConversation(tx, conversation.id, {
        customerReadSeq: seq,
        updatedAt: this.clock.now(),
      });
      await this.#changed(tx, userId, []);
      moved.yes = true;
      return readsOf(updated);
    });
    if (moved.yes) await this.#emit({ kind: 'read', userId, by: 'customer', seq: reads.customerReadSeq });
    return reads;
  }

  /** The support entry page: the hours (and whether support is within them now), the community links. */
  async info(): Promise<ChatInfoData> {
    const settings = await this.settings();
    return {
      hours: settings.hours,
      timezone: this.timezone,
      openNow: withinHours(settings.hours, this.timezone, this.clock.now()),
      communities: settings.communities,
    };
  }

  // ---- The sockets' reads (ChatBacklog) ----

  async after(userId: number, afterSeq: number, limit: number): Promise<ChatMessage[]> {
    const conversation = await conversationOf(this.db, userId);
    if (!conversation) return [];
    return (await messagesAfter(this.db, conversation.id, afterSeq, limit)).map(toChatMessage);
  }

  async state(userId: number): Promise<ChatReads & { lastSeq: number }> {
    const conversation = await conversationOf(this.db, userId);
    return { lastSeq: conversation?.lastSeq ?? 0, ...readsOf(conversation) };
  }

  // ---- The agents' desk ----

  /** Conversations of `status` with at least one message: unassigned first, the oldest waiting first. */
  async list(params: { status: ChatStatus; cursor?: string | undefined; limit?: number | undefined }) {
    const limit = params.limit ?? 20;
    const offset = params.cursor ? Number(params.cursor) : 0;
    const rows = await deskQueue(this.db, params.status, offset, limit);
    return {
      items: await this.#conversations(this.db, rows),
      nextCursor: rows.length === limit ? String(offset + limit) : null,
    };
  }

  /** A conversation's messages with its notes (marked), and the conversation. */
  async adminHistory(params: {
    userId: string;
    afterSeq?: number | undefined;
    beforeSeq?: number | undefined;
    limit?: number | undefined;
  }) {
    const userId = existingRowId(params.userId);
    const desk = await deskRowOf(this.db, userId);
    if (!desk) throw notFound();
    const limit = params.limit ?? CHAT_HISTORY_LIMIT_DEFAULT;
    const id = desk.conversation.id;
    const rows =
      params.afterSeq !== undefined
        ? await messagesAfter(this.db, id, params.afterSeq, limit, true)
        : await messagesBefore(this.db, id, params.beforeSeq, limit, true);
    const [conversation] = await this.#conversations(this.db, [desk]);
    if (!conversation) throw notFound();
    return { items: rows.map(toAdminMessage), lastSeq: desk.conversation.lastSeq, conversation };
  }

  /**
   * An agent's reply, or with `internal` a note only agents see (it takes the seq of the message
   * it follows, so the customer's numbering has no gap). Audited; a repeated `clientMsgId` answers
   * the stored message.
   */
  async reply(
    ctx: RequestContext,
    params: {
      userId: string;
      clientMsgId?: string | undefined;
      text?: string | undefined;
      imageUrl?: string | undefined;
      internal: boolean;
    },
  ): Promise<AdminChatMessage> {
    const userId = existingRowId(params.userId);
    const agentId = operatorIdOf(ctx);
    const clientMsgId = params.clientMsgId ?? `agent-${crypto.randomUUID()}`;
    const written: { row: ChatMessageRow | null } = { row: null };
    const answer = await this.commands.run(ctx, async (tx) => {
      if (!(await findUserById(tx, userId))) throw notFound();
      const now = this.clock.now();
      const conversation = await lockOrCreateConversation(tx, userId, now);
      const stored = await messageByClientId(tx, conversation.id, clientMsgId);
      if (stored) return toAdminMessage(stored);
      const imageId =
        params.imageUrl === undefined
          ? null
          : await this.#ownImage(tx, params.imageUrl, { operatorId: agentId });
      const agent = agentId === null ? undefined : await findOperatorById(tx, agentId);
      const seq = params.internal ? conversation.lastSeq : conversation.lastSeq + 1;
      const message = await insertMessage(tx, {
        conversationId: conversation.id,
        userId,
        seq,
        clientMsgId,
        sender: 'agent',
        agentId,
        agentName: agent?.displayName ?? DEFAULT_AGENT_NAME,
        text: imageId === null ? (params.text ?? '') : null,
        imageId,
        internal: params.internal,
        createdAt: now,
      });
      if (!params.internal) {
        await updateConversation(tx, conversation.id, {
          lastSeq: seq,
          lastAgentSeq: seq,
          lastAgentAt: now,
          // The agents have read what they answered.
          agentReadSeq: seq,
          status: conversation.status === 'open' ? 'pending' : conversation.status,
          waitingSince: null,
          updatedAt: now,
        });
        await this.#changed(tx, userId, [message]);
      }
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: params.internal ? 'chat.note' : 'chat.reply',
        target: `user:${userId}`,
        detail: { messageId: String(message.id), seq, image: imageId !== null },
        at: now,
      });
      written.row = message;
      return toAdminMessage(message);
    });
    const row = written.row;
    if (row === null) return answer;
    await this.#announce(userId, answer, !row.internal);
    if (!row.internal) this.notifier.notify(userId, { kind: 'support_reply' });
    return answer;
  }

  /** Assigns the conversation to an operator (absent: the caller; null: nobody). Audited. */
  assign(ctx: RequestContext, params: { userId: string; operatorId?: string | null | undefined }) {
    const userId = existingRowId(params.userId);
    return this.#deskChange(ctx, userId, 'chat.assign', async (tx) => {
      const assigneeId =
        params.operatorId === null
          ? null
          : params.operatorId === undefined
            ? operatorIdOf(ctx)
            : existingRowId(params.operatorId);
      if (assigneeId !== null) {
        const operator = await findOperatorById(tx, assigneeId);
        if (!operator || operator.disabled || !['support', 'superadmin'].includes(operator.role))
          throw invalidField('operatorId');
      }
      return { assigneeId };
    });
  }

  /** Resolves the conversation (a new customer message opens it again). Audited. */
  resolve(ctx: RequestContext, params: { userId: string }) {
    const userId = existingRowId(params.userId);
    return this.#deskChange(ctx, userId, 'chat.resolve', () =>
      Promise.resolve({ status: 'resolved' as const, waitingSince: null }),
    );
  }

  /** The agents have read up to `seq` (the customer's ticks). */
  async adminRead(
    ctx: RequestContext,
    params: { userId: string; seq: number },
  ): Promise<AdminChatConversation> {
    const userId = existingRowId(params.userId);
    const moved = { yes: false };
    const conversation = await this.commands.run(ctx, async (tx) => {
      const row = await conversationOf(tx, userId, true);
      if (!row) throw notFound();
      const seq = Math.min(params.seq, row.lastSeq);
      if (seq > row.agentReadSeq) {
        await updateConversation(tx, row.id, { agentReadSeq: seq, updatedAt: this.clock.now() });
        await this.#changed(tx, userId, []);
        moved.yes = true;
      }
      return this.#conversationOf(tx, userId);
    });
    if (moved.yes) await this.#emit({ kind: 'read', userId, by: 'agent', seq: conversation.agentReadSeq });
    return conversation;
  }

  /** The customer beside the conversation: real name, balances, pending withdrawals, deposits, feedback. Audited. */
  context(ctx: RequestContext, params: { userId: string }): Promise<AdminChatContext> {
    const userId = existingRowId(params.userId);
    return this.db.transaction(async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw notFound();
      const now = this.clock.now();
      const accounts = await listAccounts(tx, userId);
      const [balances, identity, deposits, feedback, withdrawals] = await Promise.all([
        accountBalances(
          tx,
          accounts.map((account) => account.id),
        ),
        latestSubmissionOf(tx, userId),
        depositsOfUser(tx, userId, RECENT_DEPOSITS),
        listFeedbackOf(tx, userId, undefined, 50),
        Promise.all(
          accounts.map((account) => withdrawalsOfAccount(tx, { accountId: account.id, limit: 50 })),
        ),
      ]);
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'chat.context',
        target: `user:${userId}`,
        detail: {},
        at: now,
      });
      return {
        user: {
          id: String(user.id),
          email: user.email,
          nickname: user.nickname,
          frozen: user.frozen,
          language: user.lang,
          createdAt: user.createdAt.toISOString(),
        },
        identityStatus: (identity?.status ?? 'not_verified') as IdentityStatus, // the table's check
        balances: accounts.flatMap((account) => {
          const held = balances.get(account.id);
          return held
            ? [
                {
                  ...toBalanceRecord(account.id, held, now),
                  accountId: String(account.id),
                  accountName: account.name,
                },
              ]
            : [];
        }),
        pendingWithdrawals: withdrawals
          .flat()
          .filter((row) => row.status === 'pending')
          .sort((a, b) => b.id - a.id)
          .map(toWithdrawalRecord),
        recentDeposits: deposits.map((row) => ({
          ...toDepositRecord(row),
          accountId: String(row.accountId),
        })),
        openFeedback: feedback.filter((row) => row.status === 'awaiting_reply').map(toFeedbackRecord),
      };
    });
  }

  // ---- Canned replies and settings ----

  async cannedList(params: { language?: Locale | undefined }) {
    return { items: (await cannedReplies(this.db, params.language)).map(toCanned) };
  }

  cannedSave(
    ctx: RequestContext,
    params: { code: string; language: Locale; text: string },
  ): Promise<CannedReply> {
    return this.commands.run(ctx, async (tx) => {
      const now = this.clock.now();
      const row = await saveCannedReply(tx, { ...params, updatedAt: now, updatedBy: actorOf(ctx) });
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'chat.canned_save',
        target: `canned:${row.id}`,
        detail: { code: row.code, language: row.language },
        at: now,
      });
      return toCanned(row);
    });
  }

  cannedDelete(ctx: RequestContext, params: { id: string }) {
    const id = existingRowId(params.id);
    return this.commands.run(ctx, async (tx) => {
      const row = await deleteCannedReply(tx, id);
      if (!row) throw notFound();
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'chat.canned_delete',
        target: `canned:${id}`,
        detail: { code: row.code, language: row.language },
        at: this.clock.now(),
      });
      return { done: true as const };
    });
  }

  /** The support hours and community links (defaults until operators set them). */
  async settings(db: Executor = this.db): Promise<AdminChatSettings> {
    const row = await findSetting(db, SETTINGS_KEY);
    if (!row) return DEFAULT_SETTINGS;
    try {
      return { ...DEFAULT_SETTINGS, ...(JSON.parse(row.value) as Partial<AdminChatSettings>) }; // written by saveSettings only
    } catch {
      return DEFAULT_SETTINGS;
    }
  }

  saveSettings(
    ctx: RequestContext,
    params: {
      hours?: AdminChatSettings['hours'] | undefined;
      communities?: AdminChatSettings['communities'] | undefined;
    },
  ): Promise<AdminChatSettings> {
    return this.commands.run(ctx, async (tx) => {
      const current = await this.settings(tx);
      const next: AdminChatSettings = {
        hours: params.hours
          ? { ...params.hours, days: [...new Set(params.hours.days)].sort((a, b) => a - b) }
          : current.hours,
        communities: params.communities ?? current.communities,
      };
      const now = this.clock.now();
      await setSetting(tx, {
        key: SETTINGS_KEY,
        value: JSON.stringify(next),
        updatedAt: now,
        updatedBy: actorOf(ctx),
      });
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'chat.settings',
        target: null,
        detail: next,
        at: now,
      });
      return next;
    });
  }

  // ---- The unread reply e-mail (the chat-unread-mail job) ----

  /**
   * Mails each customer whose newest agent reply has been unread for CHAT_UNREAD_MAIL_AFTER_MS,
   * at most once per CHAT_UNREAD_MAIL_EVERY_MS: marks the replies as mailed in `tx` first (so a
   * mail is sent at most once per batch), then sends; a mail that fails is logged.
   */
  async mailUnread(tx: Executor, now: Date): Promise<{ mailed: number; failed: number }> {
    const due = await dueUnreadMails(
      tx,
      new Date(now.getTime() - CHAT_UNREAD_MAIL_AFTER_MS),
      new Date(now.getTime() - CHAT_UNREAD_MAIL_EVERY_MS),
      MAILS_PER_RUN,
    );
    let mailed = 0;
    let failed = 0;
    for (const conversation of due) {
      const count = await agentRepliesAfter(tx, conversation.id, conversation.customerReadSeq);
      await updateConversation(tx, conversation.id, { mailedSeq: conversation.lastAgentSeq, mailedAt: now });
      const letter: Letter = {
        subjectKey: 'mail.chat_reply_subject',
        paragraphs: [
          { key: 'mail.chat_reply_body', vars: { replies: count } },
          { key: 'mail.chat_reply_open', vars: { page: CHAT_PAGE } },
        ],
      };
      try {
        await this.mail.send(conversation.userId, letter, undefined, tx);
        mailed += 1;
      } catch (error) {
        failed += 1;
        this.logError(`chat unread mail to user ${conversation.userId} not sent: ${String(error)}`);
      }
    }
    return { mailed, failed };
  }

  // ---- Inside ----

  /** The upload id of `url` when it is the caller's own general upload; 400 on `imageUrl` otherwise. */
  async #ownImage(
    tx: Executor,
    url: string,
    owner: { userId: number } | { operatorId: number | null },
  ): Promise<string> {
    const upload = await findUpload(tx, idOfImageUrl(url));
    const mine =
      upload !== undefined &&
      upload.purpose === 'general' &&
      ('userId' in owner
        ? upload.ownerUserId === owner.userId
        : owner.operatorId === null
          ? upload.ownerOperatorId !== null
          : upload.ownerOperatorId === owner.operatorId);
    if (!upload || !mine) throw invalidField('imageUrl', 'server.chat_image_not_yours');
    return upload.id;
  }

  /** A status or assignee change of the desk, audited, then published. */
  async #deskChange(
    ctx: RequestContext,
    userId: number,
    action: string,
    decide: (tx: Executor, row: ChatConversationRow) => Promise<Partial<ChatConversationRow>>,
  ): Promise<AdminChatConversation> {
    const conversation = await this.commands.run(ctx, async (tx) => {
      const row = await conversationOf(tx, userId, true);
      if (!row) throw notFound();
      const change = await decide(tx, row);
      const now = this.clock.now();
      await updateConversation(tx, row.id, { ...change, updatedAt: now });
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action,
        target: `user:${userId}`,
        detail: { ...change },
        at: now,
      });
      return this.#conversationOf(tx, userId);
    });
    await this.#emit({ kind: 'conversation', userId, conversation });
    return conversation;
  }

  async #conversationOf(db: Executor, userId: number): Promise<AdminChatConversation> {
    const desk = await deskRowOf(db, userId);
    const [conversation] = desk ? await this.#conversations(db, [desk]) : [];
    if (!conversation) throw notFound();
    return conversation;
  }

  async #conversations(db: Executor, rows: DeskRow[]): Promise<AdminChatConversation[]> {
    const ids = rows.map((row) => row.conversation.id);
    const [unread, last] = await Promise.all([unreadByAgents(db, ids), lastMessagesOf(db, ids)]);
    return rows.map(({ conversation, email, nickname, assigneeName }) => {
      const lastMessage = last.get(conversation.id);
      return {
        userId: String(conversation.userId),
        email,
        nickname,
        status: conversation.status as ChatStatus, // the table's check
        assigneeId: conversation.assigneeId === null ? null : String(conversation.assigneeId),
        assigneeName: conversation.assigneeId === null ? null : (assigneeName ?? DEFAULT_AGENT_NAME),
        lastSeq: conversation.lastSeq,
        ...readsOf(conversation),
        unread: unread.get(conversation.id) ?? 0,
        waitingSince: conversation.waitingSince?.toISOString() ?? null,
        lastMessage: lastMessage ? toChatMessage(lastMessage) : null,
        lastCustomerAt: conversation.lastCustomerAt?.toISOString() ?? null,
        updatedAt: conversation.updatedAt.toISOString(),
      };
    });
  }

  /** Records the sync changes of new messages and of the read marks (which carry `lastSeq`). */
  #changed(tx: Executor, userId: number, messages: ChatMessageRow[]) {
    const at = this.clock.now();
    const changes: SyncChange[] = messages
      .filter((message) => !message.internal)
      .map((message) => ({
        collection: 'chat_messages',
        scopeId: userId,
        recordId: String(message.id),
        deleted: false,
        at,
      }));
    changes.push({ collection: 'chat_reads', scopeId: userId, recordId: String(userId), deleted: false, at });
    return recordChanges(tx, changes);
  }

  /** A committed message to the sockets, and the conversation's new state to the desk. */
  async #announce(userId: number, message: AdminChatMessage, conversationChanged: boolean): Promise<void> {
    await this.#emit({ kind: 'message', userId, message });
    if (conversationChanged) {
      const conversation = await this.#conversationOf(this.db, userId).catch(() => null);
      if (conversation) await this.#emit({ kind: 'conversation', userId, conversation });
    }
  }

  async #emit(event: ChatEvent): Promise<void> {
    try {
      await this.#publish(event);
    } catch (error) {
      // Committed: sockets catch up by seq, and the sync collections hold it.
      this.logError(`chat delivery not published: ${String(error)}`);
    }
  }
}

const toCanned = (row: CannedReplyRow): CannedReply => ({
  id: String(row.id),
  code: row.code,
  language: row.language as Locale, // written from the contract's list
  text: row.text,
  updatedAt: row.updatedAt.toISOString(),
});

const tooMany = (seconds: number) =>
  new BusinessError(
    BodyCode.tooManyRequests,
    'server.too_many_requests',
    { seconds },
    { retryAfter: seconds },
  );
