/** SQL of synced content: news, notices, quotes, feedback. */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { feedback, news, notices, quotes, users } from '../db/schema.js';
import { idIn, insertRow, rowsNewestFirst, updateRowIfAny, upsertRow } from './rows.js';

export type NewsRow = typeof news.$inferSelect;
export type NoticeRow = typeof notices.$inferSelect;
export type QuoteRow = typeof quotes.$inferSelect;
export type FeedbackRow = typeof feedback.$inferSelect;

export const newsByIds = (db: Executor, ids: number[]) => db.select().from(news).where(idIn(news.id, ids));
export const noticesByIds = (db: Executor, ids: number[]) =>
  db.select().from(notices).where(idIn(notices.id, ids));
export const quotesBySymbols = (db: Executor, symbols: string[]) =>
  db.select().from(quotes).where(inArray(quotes.symbol, symbols));
export const feedbackByIds = (db: Executor, userId: number, ids: number[]) =>
  db
    .select()
    .from(feedback)
    .where(and(eq(feedback.userId, userId), idIn(feedback.id, ids)));

/** Newest first; `beforeId` pages backwards. */
export const listNews = (db: Executor, beforeId: number | undefined, limit: number) =>
  rowsNewestFirst(db, news, { beforeId, limit });

export function listNotices(db: Executor) {
  return db.select().from(notices).orderBy(desc(notices.id)).limit(50);
}

export function listQuotes(db: Executor) {
  return db.select().from(quotes).orderBy(quotes.symbol);
}

export const insertNews = (db: Executor, row: typeof news.$inferInsert): Promise<NewsRow> =>
  insertRow(db, news, row);

export const updateNews = async (db: Executor, id: number, row: Partial<typeof news.$inferInsert>) =>
  (await updateRowIfAny(db, news, id, row)) ?? undefined;

export async function deleteNews(db: Executor, id: number): Promise<boolean> {
  return (await db.delete(news).where(eq(news.id, id)).returning({ id: news.id })).length > 0;
}

export const insertNotice = (db: Executor, row: typeof notices.$inferInsert): Promise<NoticeRow> =>
  insertRow(db, notices, row);

export async function deleteNotice(db: Executor, id: number): Promise<boolean> {
  return (await db.delete(notices).where(eq(notices.id, id)).returning({ id: notices.id })).length > 0;
}

/** Sets a quote's price, appending to its history (the last 96 points are kept). */
export async function upsertQuote(
  db: Executor,
  row: {
    symbol: string;
    name: string;
    price: string;
    at: Date;
    /** A feed's own 24-hour change; else computed from the kept history. */
    changePercent?: string;
    demo?: boolean;
  },
): Promise<QuoteRow> {
  const [existing] = await db.select().from(quotes).where(eq(quotes.symbol, row.symbol)).for('update');
  const previous = existing ? Number(existing.history[0]?.price ?? existing.price) : Number(row.price);
  const history = [...(existing?.history ?? []), { at: row.at.toISOString(), price: row.price }].slice(-96);
  const changePercent =
    row.changePercent ??
    (previous === 0 ? '0' : (((Number(row.price) - previous) / previous) * 100).toFixed(2));
  const values = {
    symbol: row.symbol,
    name: row.name,
    price: row.price,
    changePercent,
    history,
    demo: row.demo ?? false,
    updatedAt: row.at,
  };
  return upsertRow(db, quotes, quotes.symbol, values, values);
}

export async function insertFeedback(db: Executor, row: typeof feedback.$inferInsert): Promise<FeedbackRow> {
  const [inserted] = await db.insert(feedback).values(row).returning();
  if (!inserted) throw new Error('feedback insert returned nothing');
  return inserted;
}

export function listFeedbackOf(db: Executor, userId: number, beforeId: number | undefined, limit: number) {
  return db
    .select()
    .from(feedback)
    .where(and(eq(feedback.userId, userId), beforeId === undefined ? undefined : lt(feedback.id, beforeId)))
    .orderBy(desc(feedback.id))
    .limit(limit);
}

/** Every feedback ticket (or those with `status`) with its author's e-mail, newest first. */
export function listAllFeedback(
  db: Executor,
  beforeId: number | undefined,
  limit: number,
  status?: FeedbackRow['status'],
) {
  return db
    .select({ feedback, email: users.email })
    .from(feedback)
    .innerJoin(users, eq(users.id, feedback.userId))
    .where(
      and(
        beforeId === undefined ? undefined : lt(feedback.id, beforeId),
        status === undefined ? undefined : eq(feedback.status, status),
      ),
    )
    .orderBy(desc(feedback.id))
    .limit(limit);
}

export async function replyFeedback(
  db: Executor,
  id: number,
  reply: { reply: string; operatorId: number | null; at: Date },
) {
  const [updated] = await db
    .update(feedback)
    .set({
      reply: reply.reply,
      repliedBy: reply.operatorId,
      repliedAt: reply.at,
      status: 'replied',
      updatedAt: reply.at,
    })
    .where(eq(feedback.id, id))
    .returning();
  return updated;
}

/** True when any news exists (the first start adds demo content only to an empty database). */
export async function anyNews(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: news.id }).from(news).limit(1);
  return row !== undefined;
}

/** What the first start added as demo content and still stands. */
export async function demoContent(db: Executor) {
  const [newsRows, noticeRows, quoteRows] = await Promise.all([
    db.select({ id: news.id }).from(news).where(eq(news.demo, true)),
    db.select({ id: notices.id }).from(notices).where(eq(notices.demo, true)),
    db.select({ symbol: quotes.symbol }).from(quotes).where(eq(quotes.demo, true)),
  ]);
  return {
    news: newsRows.map((row) => String(row.id)),
    notices: noticeRows.map((row) => String(row.id)),
    quotes: quoteRows.map((row) => row.symbol),
  };
}

/** Waits for the lock that lets one of several instances starting at once add the demo content. */
export async function lockDemoSeed(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended('content:demo', 0))`);
}
