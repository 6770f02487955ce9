/**
 * Content: news, notices, quotes and feedback.
 */
import { boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, at, optionalRef, userRef, updatedAt, timestamps } from './columns.js';

/** Financial news (public); `lang` null means every language. */
export const news = pgTable(
  'news',
  {
    id: id(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    body: text('body').notNull(),
    imageUrl: text('image_url'),
    lang: text('lang'),
    /** Added by the first start on the embedded default, so a new Home is not empty (the console marks it). */
    demo: boolean('demo').notNull().default(false),
    publishedAt: at('published_at').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [index('news_published').on(t.publishedAt)],
);

/** Marquee notices (public). */
export const notices = pgTable('notices', {
  id: id(),
  text: text('text').notNull(),
  lang: text('lang'),
  demo: boolean('demo').notNull().default(false),
  ...timestamps(),
});

/** Market quotes (public): the latest price and a short history for the chart. */
export const quotes = pgTable('quotes', {
  symbol: text('symbol').primaryKey(),
  name: text('name').notNull(),
  price: text('price').notNull(),
  changePercent: text('change_percent').notNull(),
  history: jsonb('history').$type<Array<{ at: string; price: string }>>().notNull(),
  demo: boolean('demo').notNull().default(false),
  updatedAt: updatedAt(),
});

/** Feedback tickets and their replies (a user's own). */
export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    userId: userRef(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    images: jsonb('images').$type<string[]>().notNull(),
    status: text('status', { enum: ['awaiting_reply', 'replied'] }).notNull(),
    reply: text('reply'),
    repliedAt: at('replied_at'),
    repliedBy: optionalRef('replied_by'),
    ...timestamps(),
  },
  (t) => [index('feedback_user').on(t.userId, t.createdAt)],
);
