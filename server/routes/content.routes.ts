/** Synced content: the pull, the spec's list calls for plain clients, profile and feedback commands, and operators' writes. */
import * as content from '../../contract/api/content.js';
import { doneDataSchema } from '../../contract/api/sso.js';
import { pageParamsSchema } from '../../contract/schema.js';
import { noParamsSchema } from '../../contract/schema.js';
import { pullDataSchema, pullParamsSchema } from '../../contract/sync.js';
import { SUPPORT, type RoutesOf } from './route-list.js';

export const contentRoutes: RoutesOf = (define, { sync, content: service, user, feedback }) => {
  define({
    path: '/api/v1/sync/pull',
    kind: 'read',
    access: 'public',
    params: pullParamsSchema,
    data: pullDataSchema,
    summary: "Changes since each cursor (public collections without a token; the user's own with one)",
    handle: (ctx, params) => sync.pull(ctx, params),
  });
  define({
    path: '/api/v1/notice/marquee',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: content.noticeListDataSchema,
    summary: 'Notices for the home marquee',
    handle: () => service.notices(),
  });
  define({
    path: '/api/v1/news/list',
    kind: 'read',
    access: 'public',
    params: pageParamsSchema,
    data: content.newsListDataSchema,
    summary: 'News, newest first',
    handle: (_ctx, params) => service.newsPage(params),
  });
  define({
    path: '/api/v1/news/get',
    kind: 'read',
    access: 'public',
    params: content.newsGetParamsSchema,
    data: content.newsRecordSchema,
    summary: 'One news article',
    handle: (_ctx, params) => service.newsGet(params.id),
  });
  define({
    path: '/api/v1/common/forexProductList',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: content.quoteListDataSchema,
    summary: 'Market quotes with their recent history',
    handle: () => service.quotes(),
  });
  define({
    path: '/api/v1/common/forexProduct',
    kind: 'read',
    access: 'public',
    params: content.quoteGetParamsSchema,
    data: content.quoteRecordSchema,
    summary: 'One market quote by symbol',
    handle: (_ctx, params) => service.quote(params.symbol),
  });
  define({
    path: '/api/v1/user/name-update',
    kind: 'command',
    access: 'user',
    params: content.nameUpdateParamsSchema,
    data: content.profileRecordSchema,
    summary: 'Set the nickname',
    success: 'server.saved',
    handle: (ctx, params) => user.updateNickname(ctx, params.nickname),
  });
  define({
    path: '/api/v1/user/avatar-update',
    kind: 'command',
    access: 'user',
    params: content.avatarUpdateParamsSchema,
    data: content.profileRecordSchema,
    summary: 'Set the avatar (one of common/avatarList)',
    success: 'server.saved',
    handle: (ctx, params) => user.updateAvatar(ctx, params.avatar),
  });
  define({
    path: '/api/v1/common/pushFeedback',
    kind: 'command',
    access: 'user',
    params: content.pushFeedbackParamsSchema,
    data: content.feedbackRecordSchema,
    summary: 'Submit a feedback ticket (title, content, up to 9 uploaded images)',
    success: 'server.submitted',
    handle: (ctx, params) => feedback.push(ctx, params),
  });
  define({
    path: '/api/v1/common/feedbackList',
    kind: 'read',
    access: 'user',
    params: content.feedbackListParamsSchema,
    data: content.feedbackListDataSchema,
    summary: "The caller's feedback tickets with replies, newest first",
    handle: (ctx, params) => feedback.listOwn(ctx, params),
  });
};

export const contentAdminRoutes: RoutesOf = (define, { content: service, feedback }) => {
  const editors = { roles: ['content'] } as const;
  define({
    path: '/api/admin/content/demo',
    kind: 'read',
    access: editors,
    params: noParamsSchema,
    data: content.demoContentDataSchema,
    summary: 'The demo news, notices and quotes the first start added (the console marks them)',
    handle: () => service.demoContent(),
  });
  define({
    path: '/api/admin/news/create',
    kind: 'command',
    access: editors,
    params: content.newsWriteParamsSchema,
    data: content.newsRecordSchema,
    summary: 'Publish a news article (content)',
    success: 'server.saved',
    handle: (ctx, params) => service.createNews(ctx, params),
  });
  define({
    path: '/api/admin/news/update',
    kind: 'command',
    access: editors,
    params: content.newsUpdateParamsSchema,
    data: content.newsRecordSchema,
    summary: 'Edit a news article (content)',
    success: 'server.saved',
    handle: (ctx, params) => service.updateNews(ctx, params),
  });
  define({
    path: '/api/admin/news/delete',
    kind: 'command',
    access: editors,
    params: content.idParamsSchema,
    data: doneDataSchema,
    summary: 'Remove a news article (content)',
    success: 'server.saved',
    handle: (ctx, params) => service.deleteNews(ctx, params.id),
  });
  define({
    path: '/api/admin/notice/create',
    kind: 'command',
    access: editors,
    params: content.noticeWriteParamsSchema,
    data: content.noticeRecordSchema,
    summary: 'Add a marquee notice (content)',
    success: 'server.saved',
    handle: (ctx, params) => service.createNotice(ctx, params),
  });
  define({
    path: '/api/admin/notice/delete',
    kind: 'command',
    access: editors,
    params: content.idParamsSchema,
    data: doneDataSchema,
    summary: 'Remove a notice (content)',
    success: 'server.saved',
    handle: (ctx, params) => service.deleteNotice(ctx, params.id),
  });
  define({
    path: '/api/admin/quote/set',
    kind: 'command',
    access: editors,
    params: content.quoteWriteParamsSchema,
    data: content.quoteRecordSchema,
    summary: 'Set a market quote (content)',
    success: 'server.saved',
    handle: (ctx, params) => service.setQuote(ctx, params),
  });
  define({
    path: '/api/admin/feedback/list',
    kind: 'read',
    access: SUPPORT,
    params: content.adminFeedbackListParamsSchema,
    data: content.adminFeedbackListDataSchema,
    summary: 'Every feedback ticket, or those with one status, newest first (support)',
    handle: (_ctx, params) => feedback.listAll(params),
  });
  define({
    path: '/api/admin/feedback/reply',
    kind: 'command',
    access: SUPPORT,
    params: content.feedbackReplyParamsSchema,
    data: content.feedbackRecordSchema,
    summary: 'Reply to a feedback ticket (support)',
    success: 'server.saved',
    handle: (ctx, params) => feedback.reply(ctx, params),
  });
};
