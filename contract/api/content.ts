/** Synced content: news, notices, quotes (public); profile and feedback (the user's own). */
import { z } from 'zod';
import { NICKNAME_MAX_LENGTH, TEXTAREA_MAX_LENGTH } from '../constants.js';
import {
  idParamsSchema,
  idSchema,
  isoTimeParamSchema,
  isoTimeSchema,
  listOf,
  moneySchema,
  pageOf,
  pageParamsSchema,
  recordTimes,
  text,
  uploadUrlSchema,
} from '../schema.js';
import { profileFields } from './user.js';

export const newsRecordSchema = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  imageUrl: z.string().nullable(),
  /** A locale (zh-Hans, en, ...) or null for every language. */
  lang: z.string().nullable(),
  publishedAt: isoTimeSchema,
  updatedAt: isoTimeSchema,
});
export type NewsRecord = z.infer<typeof newsRecordSchema>;

export const noticeRecordSchema = z.object({
  id: z.string(),
  text: z.string(),
  lang: z.string().nullable(),
  updatedAt: isoTimeSchema,
});
export type NoticeRecord = z.infer<typeof noticeRecordSchema>;

export const quoteRecordSchema = z.object({
  /** The symbol, e.g. `BTC/USDT`. */
  id: z.string(),
  name: z.string(),
  price: z.string(),
  changePercent: z.string(),
  history: z.array(z.object({ at: isoTimeSchema, price: z.string() })),
  updatedAt: isoTimeSchema,
});
export type QuoteRecord = z.infer<typeof quoteRecordSchema>;

/** The user's own profile: one record per user, id = the user's id. */
export const profileRecordSchema = z.object({ ...profileFields, updatedAt: isoTimeSchema });
export type ProfileRecord = z.infer<typeof profileRecordSchema>;

export const feedbackStatusSchema = z.enum(['awaiting_reply', 'replied']);
export const feedbackRecordSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  images: z.array(z.string()),
  status: feedbackStatusSchema,
  reply: z.string().nullable(),
  repliedAt: isoTimeSchema.nullable(),
  ...recordTimes,
});
export type FeedbackRecord = z.infer<typeof feedbackRecordSchema>;

export const nameUpdateParamsSchema = z.object({ nickname: text({ max: NICKNAME_MAX_LENGTH }) });
export const avatarUpdateParamsSchema = z.object({ avatar: text({ max: 200 }) });
export const pushFeedbackParamsSchema = z.object({
  title: text({ max: 60 }),
  content: text({ max: TEXTAREA_MAX_LENGTH, multiline: true }),
  /** At most 9 images (the spec's album maximum). */
  images: z.array(uploadUrlSchema).max(9, { error: 'server.field_invalid' }).default([]),
});
export type PushFeedbackParams = z.infer<typeof pushFeedbackParamsSchema>;

export const newsListDataSchema = pageOf(newsRecordSchema);
export const newsGetParamsSchema = idParamsSchema;
export const noticeListDataSchema = listOf(noticeRecordSchema);
export const quoteListDataSchema = listOf(quoteRecordSchema);
export const quoteGetParamsSchema = z.object({ symbol: text({ max: 20 }) });
export const feedbackListParamsSchema = pageParamsSchema;
export const feedbackListDataSchema = pageOf(feedbackRecordSchema);

/** Operators' content calls. */
const langSchema = z.enum(['zh-Hans', 'zh-Hant', 'en', 'ja', 'ko', 'th', 'vi'], {
  error: 'server.field_invalid',
});
export const newsWriteParamsSchema = z.object({
  title: text({ max: 120 }),
  summary: text({ max: 300, multiline: true }),
  body: text({ max: 20_000, multiline: true }),
  imageUrl: text({ min: 0, max: 500 }).optional(),
  lang: langSchema.optional(),
  /** When it was published (shown with it): now when absent; never in the future. */
  publishedAt: isoTimeParamSchema.optional(),
});
export const newsUpdateParamsSchema = newsWriteParamsSchema.extend({ id: idSchema });
export { idParamsSchema };
export const noticeWriteParamsSchema = z.object({ text: text({ max: 300 }), lang: langSchema.optional() });
export const quoteWriteParamsSchema = z.object({
  symbol: text({ max: 20 }).refine((value) => /^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/.test(value), {
    error: 'server.field_invalid',
  }),
  name: text({ max: 40 }),
  price: moneySchema,
});
export const feedbackReplyParamsSchema = idParamsSchema.extend({
  reply: text({ max: 1000, multiline: true }),
});
/** Support's list: every ticket, or those with one status (the console opens on `awaiting_reply`). */
export const adminFeedbackListParamsSchema = pageParamsSchema.extend({
  status: feedbackStatusSchema.optional(),
});
export const adminFeedbackListDataSchema = pageOf(
  feedbackRecordSchema.extend({ userId: z.string(), email: z.string() }),
);

/** Ids of the demo items the first start added that still stand (news and notice ids, quote symbols). */
export const demoContentDataSchema = z.object({
  news: z.array(z.string()),
  notices: z.array(z.string()),
  quotes: z.array(z.string()),
});
