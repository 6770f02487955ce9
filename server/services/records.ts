/** Database rows to the contract's synced records (one mapping each, used by pulls and list calls). */
import type {
  FeedbackRecord,
  NewsRecord,
  NoticeRecord,
  ProfileRecord,
  QuoteRecord,
} from '../../contract/api/content.js';
import type { FeedbackRow, NewsRow, NoticeRow, QuoteRow } from '../repositories/content.repository.js';
import type { UserRow } from '../repositories/users.repository.js';

export const toNewsRecord = (row: NewsRow): NewsRecord => ({
  id: String(row.id),
  title: row.title,
  summary: row.summary,
  body: row.body,
  imageUrl: row.imageUrl,
  lang: row.lang,
  publishedAt: row.publishedAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toNoticeRecord = (row: NoticeRow): NoticeRecord => ({
  id: String(row.id),
  text: row.text,
  lang: row.lang,
  updatedAt: row.updatedAt.toISOString(),
});

export const toQuoteRecord = (row: QuoteRow): QuoteRecord => ({
  id: row.symbol,
  name: row.name,
  price: row.price,
  changePercent: row.changePercent,
  history: row.history,
  updatedAt: row.updatedAt.toISOString(),
});

export const toFeedbackRecord = (row: FeedbackRow): FeedbackRecord => ({
  id: String(row.id),
  title: row.title,
  content: row.content,
  images: row.images,
  status: row.status,
  reply: row.reply,
  repliedAt: row.repliedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const toProfileRecord = (row: UserRow): ProfileRecord => ({
  id: String(row.id),
  email: row.email,
  nickname: row.nickname,
  avatar: row.avatar,
  inviteCode: row.inviteCode,
  updatedAt: row.updatedAt.toISOString(),
});
