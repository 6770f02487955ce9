/** Customer service chat (docs/protocol.md §35): the customer's calls and the agents' desk. The sockets: http/chat-socket.ts. */
import * as chat from '../../contract/api/chat.js';
import { doneDataSchema } from '../../contract/api/sso.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const chatRoutes: RoutesOf = (define, { chat: service }) => {
  define({
    path: '/api/v1/chat/send',
    kind: 'command',
    access: 'user',
    params: chat.chatSendParamsSchema,
    data: chat.chatMessageSchema,
    summary:
      'Send a message to support (text or an own upload); a repeated clientMsgId answers the stored message',
    handle: (ctx, params) => service.send(ctx, params),
  });
  define({
    path: '/api/v1/chat/history',
    kind: 'read',
    access: 'user',
    params: chat.chatHistoryParamsSchema,
    data: chat.chatHistoryDataSchema,
    summary: "The caller's conversation after afterSeq or before beforeSeq, ascending, with the read marks",
    handle: (ctx, params) => service.history(ctx, params),
  });
  define({
    path: '/api/v1/chat/read',
    kind: 'command',
    access: 'user',
    params: chat.chatReadParamsSchema,
    data: chat.chatReadDataSchema,
    summary: 'The customer has read the conversation up to seq',
    handle: (ctx, params) => service.read(ctx, params),
  });
  define({
    path: '/api/v1/chat/info',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: chat.chatInfoDataSchema,
    summary: 'Support hours (and whether support is within them now) and the community links',
    handle: () => service.info(),
  });

  const desk = { roles: ['support'] } as const;
  define({
    path: '/api/admin/chat/list',
    kind: 'read',
    access: desk,
    params: chat.adminChatListParamsSchema,
    data: chat.adminChatListDataSchema,
    summary: 'Conversations by status: unassigned first, then the oldest waiting first',
    handle: (_ctx, params) => service.list(params),
  });
  define({
    path: '/api/admin/chat/history',
    kind: 'read',
    access: desk,
    params: chat.adminChatHistoryParamsSchema,
    data: chat.adminChatHistoryDataSchema,
    summary: "A customer's conversation with the internal notes (marked), and its state",
    handle: (_ctx, params) => service.adminHistory(params),
  });
  define({
    path: '/api/admin/chat/reply',
    kind: 'command',
    access: desk,
    params: chat.adminChatReplyParamsSchema,
    data: chat.adminChatReplyDataSchema,
    summary: 'Reply to a customer (text or an image), or write an internal note (audited)',
    handle: (ctx, params) => service.reply(ctx, params),
  });
  define({
    path: '/api/admin/chat/assign',
    kind: 'command',
    access: desk,
    params: chat.adminChatAssignParamsSchema,
    data: chat.adminChatConversationDataSchema,
    summary: 'Assign a conversation (to the caller by default; null: unassign) (audited)',
    handle: (ctx, params) => service.assign(ctx, params),
  });
  define({
    path: '/api/admin/chat/resolve',
    kind: 'command',
    access: desk,
    params: chat.adminChatUserParamsSchema,
    data: chat.adminChatConversationDataSchema,
    summary: 'Resolve a conversation; a new customer message opens it again (audited)',
    handle: (ctx, params) => service.resolve(ctx, params),
  });
  define({
    path: '/api/admin/chat/read',
    kind: 'command',
    access: desk,
    params: chat.adminChatReadParamsSchema,
    data: chat.adminChatConversationDataSchema,
    summary: "The agents have read a conversation up to seq (the customer's ticks)",
    handle: (ctx, params) => service.adminRead(ctx, params),
  });
  define({
    path: '/api/admin/chat/context',
    kind: 'read',
    access: desk,
    params: chat.adminChatUserParamsSchema,
    data: chat.adminChatContextDataSchema,
    summary:
      'The customer beside a conversation: real name, balances, pending withdrawals, deposits, feedback (audited)',
    handle: (ctx, params) => service.context(ctx, params),
  });
  define({
    path: '/api/admin/chat/canned-list',
    kind: 'read',
    access: desk,
    params: chat.adminCannedListParamsSchema,
    data: chat.adminCannedListDataSchema,
    summary: 'Canned replies (typed /code in the desk), of one language or all',
    handle: (_ctx, params) => service.cannedList(params),
  });
  define({
    path: '/api/admin/chat/canned-save',
    kind: 'command',
    access: desk,
    params: chat.adminCannedSaveParamsSchema,
    data: chat.cannedReplySchema,
    summary: 'Save the canned reply of a code and language (new, or its new text) (audited)',
    success: 'server.saved',
    handle: (ctx, params) => service.cannedSave(ctx, params),
  });
  define({
    path: '/api/admin/chat/canned-delete',
    kind: 'command',
    access: desk,
    params: chat.adminCannedDeleteParamsSchema,
    data: doneDataSchema,
    summary: 'Delete a canned reply (audited)',
    success: 'server.saved',
    handle: (ctx, params) => service.cannedDelete(ctx, params),
  });
  define({
    path: '/api/admin/chat/settings',
    kind: 'read',
    access: desk,
    params: noParamsSchema,
    data: chat.adminChatSettingsDataSchema,
    summary: 'Support hours and community links',
    handle: () => service.settings(),
  });
  define({
    path: '/api/admin/chat/settings-save',
    kind: 'command',
    access: desk,
    params: chat.adminChatSettingsParamsSchema,
    data: chat.adminChatSettingsDataSchema,
    summary: 'Set the support hours and/or the community links (audited)',
    success: 'server.saved',
    handle: (ctx, params) => service.saveSettings(ctx, params),
  });
};
