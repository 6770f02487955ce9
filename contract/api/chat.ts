/**
 * Customer service chat (issue 25; docs/protocol.md §35): one conversation per customer with
 * support, its messages numbered by `seq` (rising by one within the conversation), read marks
 * both ways, the customers' socket and the agents' desk (console, roles support and superadmin).
 */
import { z } from 'zod';
import { LOCALES } from '../locales.js';
import {
  choiceOf,
  idParamsSchema,
  idSchema,
  isoTimeSchema,
  listOf,
  pageOf,
  pageParamsSchema,
  text,
  uploadUrlSchema,
  wholeNumberParam,
} from '../schema.js';
import { balanceRecordSchema } from './account.js';
import { feedbackRecordSchema } from './content.js';
import { IDENTITY_STATUSES } from './identity.js';
import { depositRecordSchema } from './recharge.js';
import { withdrawalRecordSchema } from './withdraw.js';

/** A message's text: 1 to 2,000 characters (after trimming), lines allowed. */
export const CHAT_TEXT_MAX = 2000;
/** Messages one history page holds at most (and by default). */
export const CHAT_HISTORY_LIMIT_MAX = 100;
export const CHAT_HISTORY_LIMIT_DEFAULT = 50;
/** Sockets one user (or one operator) holds at once; the oldest is closed for a new one beyond it. */
export const CHAT_SOCKETS_PER_USER = 5;
/** Frames a client may send on one socket per minute; beyond it the socket is closed (4429). */
export const CHAT_FRAMES_PER_MINUTE = 60;
/** Messages a customer may send per minute (`chat/send`; beyond it 429). */
export const CHAT_SENDS_PER_MINUTE = 30;
/** The largest frame a client may send (bytes); a bigger one closes the socket (1009). */
export const CHAT_FRAME_MAX_BYTES = 4096;
/** The first frame (`auth`) must arrive within this many milliseconds, or the socket is closed (4401). */
export const CHAT_AUTH_TIMEOUT_MS = 10_000;
/** The server pings every socket this often (WebSocket ping); one with no pong by the next ping is dropped. */
export const CHAT_HEARTBEAT_MS = 30_000;
/** An agent reply unread this long is e-mailed to the customer ... */
export const CHAT_UNREAD_MAIL_AFTER_MS = 2 * 60_000;
/** ... at most once per this long per customer. */
export const CHAT_UNREAD_MAIL_EVERY_MS = 10 * 60_000;
/** Community links operators may set, and canned replies per language. */
export const CHAT_COMMUNITIES_MAX = 10;
export const CHAT_CANNED_TEXT_MAX = 2000;

export const CHAT_STATUSES = ['open', 'pending', 'resolved'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];
export const CHAT_SENDERS = ['customer', 'agent'] as const;
export type ChatSender = (typeof CHAT_SENDERS)[number];

/** A client's own id for a message (a UUID from the outbox): letters, digits, `-` and `_`, 8 to 64. */
export const clientMsgIdSchema = text({ max: 64 }).refine((value) => /^[A-Za-z0-9_-]{8,64}$/.test(value), {
  error: 'server.field_invalid',
});
/** A seq on the wire: a whole number from 0 (0: before the first message). */
export const seqSchema = wholeNumberParam(0, Number.MAX_SAFE_INTEGER);

/** Exactly one of `text` and `imageUrl`. */
const oneBody = <T extends { text?: string | undefined; imageUrl?: string | undefined }>(value: T) =>
  (value.text === undefined) !== (value.imageUrl === undefined);
const ONE_BODY = { error: 'server.chat_text_or_image', path: ['text'] };

/** A message as the customer sees it (the `chat/send` answer, history items, the synced `chat_messages` record). */
export const chatMessageSchema = z.object({
  /** The message's id (also the sync record id). */
  id: z.string(),
  seq: z.number().int(),
  /** The sender's own id: the customer's outbox id, or the console's for an agent reply. */
  clientMsgId: z.string(),
  from: z.enum(CHAT_SENDERS),
  /** The agent's display name (never an e-mail); null for the customer's own messages. */
  agentName: z.string().nullable(),
  /** Plain text, shown as text (never HTML); null for an image. */
  text: z.string().nullable(),
  /** An upload URL (`/api/v1/common/img/<id>`); null for text. */
  imageUrl: z.string().nullable(),
  createdAt: isoTimeSchema,
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A message's body as sent: text, or an image the caller uploaded (the upload call's `url`); oneBody checks that one is given. */
const messageBody = {
  text: text({ max: CHAT_TEXT_MAX, multiline: true }).optional(),
  imageUrl: uploadUrlSchema.optional(),
};

/** `/api/v1/chat/send`: text or an image. */
export const chatSendParamsSchema = z
  .object({ clientMsgId: clientMsgIdSchema, ...messageBody })
  .refine(oneBody, ONE_BODY);

/** `/api/v1/chat/history`: after `afterSeq` oldest first, or before `beforeSeq` (neither: the newest page), ascending. */
/** A page of history: after `afterSeq`, or before `beforeSeq` (not both), at most `limit`. */
const historyWindow = {
  afterSeq: seqSchema.optional(),
  beforeSeq: seqSchema.optional(),
  limit: wholeNumberParam(1, CHAT_HISTORY_LIMIT_MAX).optional(),
};
const oneDirection = (value: { afterSeq?: number | undefined; beforeSeq?: number | undefined }) =>
  value.afterSeq === undefined || value.beforeSeq === undefined;
const ONE_DIRECTION = { error: 'server.field_invalid', path: ['beforeSeq'] };

export const chatHistoryParamsSchema = z.object(historyWindow).refine(oneDirection, ONE_DIRECTION);

/** The conversation's read marks: the last seq each side has read (0: none). */
export const chatReadsSchema = z.object({
  customerReadSeq: z.number().int(),
  agentReadSeq: z.number().int(),
});
export type ChatReads = z.infer<typeof chatReadsSchema>;

/** Items ascending by seq; `lastSeq` the conversation's newest (0: no message yet), plus the read marks. */
export const chatHistoryDataSchema = z.object({
  items: z.array(chatMessageSchema),
  lastSeq: z.number().int(),
  ...chatReadsSchema.shape,
});
export type ChatHistoryData = z.infer<typeof chatHistoryDataSchema>;

/** `/api/v1/chat/read`: the customer has read up to `seq` (a mark never goes back). Answer: the read marks. */
export const chatReadParamsSchema = z.object({ seq: seqSchema });
export const chatReadDataSchema = chatReadsSchema;

/** Support hours: `HH:MM` in `timezone`, on ISO weekdays `days` (1 Monday .. 7 Sunday). */
const hhmm = text({ max: 5 }).refine((value) => /^(?:[01]\d|2[0-3]):[0-5]\d$/.test(value), {
  error: 'server.field_invalid',
});
export const chatHoursSchema = z.object({
  opens: z.string(),
  closes: z.string(),
  days: z.array(z.number().int()),
});
export const chatCommunitySchema = z.object({ name: z.string(), url: z.string() });

/** `/api/v1/chat/info` (no token needed): what the support entry page shows. */
export const chatInfoDataSchema = z.object({
  hours: chatHoursSchema,
  timezone: z.string(),
  /** Whether support is within its hours now (a message outside them waits for the next opening). */
  openNow: z.boolean(),
  /** The community links operators set (international, Asia-Pacific, ...), in their order. */
  communities: z.array(chatCommunitySchema),
});
export type ChatInfoData = z.infer<typeof chatInfoDataSchema>;

/** The synced `chat_reads` record (user scope, one record, id = the user id). */
export const chatReadsRecordSchema = z.object({
  id: z.string(),
  ...chatReadsSchema.shape,
  lastSeq: z.number().int(),
  updatedAt: isoTimeSchema,
});
export type ChatReadsRecord = z.infer<typeof chatReadsRecordSchema>;

// ---- The customer's socket: /api/v1/chat/socket (JSON text frames) ----

/** Client -> server. The first frame must be `auth`; `resume` may follow any time. */
export const chatAuthFrameSchema = z.object({ type: z.literal('auth'), token: z.string().min(1).max(512) });
export const chatResumeFrameSchema = z.object({
  type: z.literal('resume'),
  afterSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export const chatPingFrameSchema = z.object({ type: z.literal('ping') });
export const chatClientFrameSchema = z.discriminatedUnion('type', [
  chatAuthFrameSchema,
  chatResumeFrameSchema,
  chatPingFrameSchema,
]);
export type ChatClientFrame = z.infer<typeof chatClientFrameSchema>;

/** Server -> client. */
export const chatReadyFrameSchema = z.object({
  type: z.literal('ready'),
  lastSeq: z.number().int(),
  ...chatReadsSchema.shape,
});
export const chatMessageFrameSchema = z.object({ type: z.literal('message'), message: chatMessageSchema });
/** A read mark moved: `by` who read, up to `seq`. */
export const chatReadFrameSchema = z.object({
  type: z.literal('read'),
  by: z.enum(CHAT_SENDERS),
  seq: z.number().int(),
});
export const chatPongFrameSchema = z.object({ type: z.literal('pong') });
/** Sent just before the server closes the socket with the same `code` (see CHAT_CLOSE). */
export const chatErrorFrameSchema = z.object({
  type: z.literal('error'),
  code: z.number().int(),
  message: z.string(),
});
export const chatServerFrameSchema = z.discriminatedUnion('type', [
  chatReadyFrameSchema,
  chatMessageFrameSchema,
  chatReadFrameSchema,
  chatPongFrameSchema,
  chatErrorFrameSchema,
]);
export type ChatServerFrame = z.infer<typeof chatServerFrameSchema>;

/** WebSocket close codes (also the `error` frame's code). Not listed: 1000 normal, 1001 going away, 1009 too big. */
export const CHAT_CLOSE = {
  /** A frame that is not JSON or not a frame of this protocol; or `auth` not first. */
  badFrame: 4400,
  /** `auth` missing within CHAT_AUTH_TIMEOUT_MS, or its token not a live session (a frozen user too). */
  unauthorized: 4401,
  /** An operator without the role (support, superadmin). */
  forbidden: 4403,
  /** More than CHAT_FRAMES_PER_MINUTE frames. */
  flood: 4429,
  /** Replaced: the user opened more than CHAT_SOCKETS_PER_USER sockets (the oldest goes). */
  tooManySockets: 4409,
} as const;

// ---- The agents' desk: /api/admin/chat/* and /api/admin/chat/socket ----

/** A message as agents see it: internal notes included and marked, the agent's id. */
export const adminChatMessageSchema = chatMessageSchema.extend({
  internal: z.boolean(),
  agentId: z.string().nullable(),
});
export type AdminChatMessage = z.infer<typeof adminChatMessageSchema>;

export const adminChatConversationSchema = z.object({
  userId: z.string(),
  email: z.string(),
  nickname: z.string(),
  status: z.enum(CHAT_STATUSES),
  assigneeId: z.string().nullable(),
  assigneeName: z.string().nullable(),
  lastSeq: z.number().int(),
  ...chatReadsSchema.shape,
  /** Customer messages after the agents' read mark. */
  unread: z.number().int(),
  /** The customer's first message not yet answered by an agent (null: nothing waits). */
  waitingSince: isoTimeSchema.nullable(),
  /** The newest message that is not an internal note (a preview), null for none. */
  lastMessage: chatMessageSchema.nullable(),
  lastCustomerAt: isoTimeSchema.nullable(),
  updatedAt: isoTimeSchema,
});
export type AdminChatConversation = z.infer<typeof adminChatConversationSchema>;

/** Conversations of a status: unassigned first, then the oldest waiting first; `cursor` an offset. */
export const adminChatListParamsSchema = z.object({
  status: choiceOf(CHAT_STATUSES).default('open'),
  cursor: text({ min: 0, max: 8 })
    .refine((value) => /^\d*$/.test(value), { error: 'server.field_invalid' })
    .optional(),
  limit: pageParamsSchema.shape.limit,
});
export const adminChatListDataSchema = pageOf(adminChatConversationSchema);

export const adminChatUserParamsSchema = z.object({ userId: idSchema });
export const adminChatHistoryParamsSchema = z
  .object({ userId: idSchema, ...historyWindow })
  .refine(oneDirection, ONE_DIRECTION);
export const adminChatHistoryDataSchema = z.object({
  items: z.array(adminChatMessageSchema),
  lastSeq: z.number().int(),
  conversation: adminChatConversationSchema,
});

/** A reply (or, `internal`, a note only agents see). `clientMsgId` makes a retry safe (the console's own id). */
export const adminChatReplyParamsSchema = z
  .object({
    userId: idSchema,
    clientMsgId: clientMsgIdSchema.optional(),
    ...messageBody,
    internal: z.boolean().default(false),
  })
  .refine(oneBody, ONE_BODY);
export const adminChatReplyDataSchema = adminChatMessageSchema;

/** Assign to an operator (absent: to the caller); `operatorId: null` unassigns. */
export const adminChatAssignParamsSchema = z.object({
  userId: idSchema,
  operatorId: idSchema.nullable().optional(),
});
export const adminChatReadParamsSchema = z.object({ userId: idSchema, seq: seqSchema });
/** assign, resolve and read answer the conversation. */
export const adminChatConversationDataSchema = adminChatConversationSchema;

/** Canned replies: typed `/code` in the desk, per language. */
export const cannedCodeSchema = text({ max: 32 }).refine(
  (value) => /^[a-z0-9][a-z0-9_-]{0,31}$/.test(value),
  {
    error: 'server.canned_code_invalid',
  },
);
export const cannedReplySchema = z.object({
  id: z.string(),
  code: z.string(),
  language: z.enum(LOCALES),
  text: z.string(),
  updatedAt: isoTimeSchema,
});
export type CannedReply = z.infer<typeof cannedReplySchema>;
export const adminCannedListParamsSchema = z.object({ language: choiceOf(LOCALES).optional() });
export const adminCannedListDataSchema = listOf(cannedReplySchema);
/** Saves by (code, language): a new one, or the text of the existing one. */
export const adminCannedSaveParamsSchema = z.object({
  code: cannedCodeSchema,
  language: choiceOf(LOCALES),
  text: text({ max: CHAT_CANNED_TEXT_MAX, multiline: true }),
});
export const adminCannedDeleteParamsSchema = idParamsSchema;

/** Support hours and community links (the `chat/info` answer's source). */
export const adminChatSettingsDataSchema = z.object({
  hours: chatHoursSchema,
  communities: z.array(chatCommunitySchema),
});
export type AdminChatSettings = z.infer<typeof adminChatSettingsDataSchema>;
export const adminChatSettingsParamsSchema = z.object({
  hours: z
    .object({
      opens: hhmm,
      closes: hhmm,
      days: z
        .array(z.number({ error: 'server.field_invalid' }).int().min(1).max(7))
        .min(1, { error: 'server.field_invalid' })
        .max(7, { error: 'server.field_invalid' }),
    })
    .optional(),
  communities: z
    .array(
      z.object({
        name: text({ max: 60 }),
        url: text({ max: 300 }).refine((value) => /^https:\/\/[^\s<>"']+$/.test(value), {
          error: 'server.field_invalid',
        }),
      }),
    )
    .max(CHAT_COMMUNITIES_MAX, { error: 'server.field_invalid' })
    .optional(),
});

/** The customer beside a conversation: each part links to its console page. */
export const adminChatContextDataSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    nickname: z.string(),
    frozen: z.boolean(),
    language: z.string(),
    createdAt: isoTimeSchema,
  }),
  identityStatus: z.enum(IDENTITY_STATUSES),
  /** Each account's balances. */
  balances: z.array(balanceRecordSchema.extend({ accountId: z.string(), accountName: z.string() })),
  /** Withdrawals not yet ended (pending review, approved, sending). */
  pendingWithdrawals: z.array(withdrawalRecordSchema),
  /** The newest deposits over all accounts (at most 10). */
  recentDeposits: z.array(depositRecordSchema.extend({ accountId: z.string() })),
  /** Feedback not yet replied to. */
  openFeedback: z.array(feedbackRecordSchema),
});
export type AdminChatContext = z.infer<typeof adminChatContextDataSchema>;

/** The agents' socket /api/admin/chat/socket: client frames `auth` (the operator token) and `ping`. */
export const adminChatClientFrameSchema = z.discriminatedUnion('type', [
  chatAuthFrameSchema,
  chatPingFrameSchema,
]);
/** Server -> desk: `ready`, a new message of any conversation, a read mark, a conversation changed, `pong`, `error`. */
export const adminChatServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('message'), userId: z.string(), message: adminChatMessageSchema }),
  z.object({ type: z.literal('read'), userId: z.string(), by: z.enum(CHAT_SENDERS), seq: z.number().int() }),
  z.object({ type: z.literal('conversation'), conversation: adminChatConversationSchema }),
  chatPongFrameSchema,
  chatErrorFrameSchema,
]);
export type AdminChatServerFrame = z.infer<typeof adminChatServerFrameSchema>;

/** An operator's display name (what customers see on replies): 1 to 40 characters. */
export const operatorDisplayNameParamsSchema = z.object({
  operatorId: idSchema,
  displayName: text({ max: 40 }),
});
