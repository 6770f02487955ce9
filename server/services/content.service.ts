/**
 * News, notices and quotes: public reads (the spec's list calls) and operators' writes, each
 * write audited and recorded in the sync change log in its transaction.
 */
import type { z } from 'zod';
import type {
  newsUpdateParamsSchema,
  newsWriteParamsSchema,
  noticeWriteParamsSchema,
  quoteWriteParamsSchema,
} from '../../contract/api/content.js';
import type { Executor } from '../db/database.js';
import { invalidField, notFound } from '../core/errors.js';
import { rowIdOf } from '../core/params.js';
import type { RequestContext } from '../core/context.js';
import {
  anyNews,
  deleteNews,
  demoContent,
  deleteNotice,
  insertNews,
  insertNotice,
  listNews,
  listNotices,
  listQuotes,
  lockDemoSeed,
  newsByIds,
  quotesBySymbols,
  updateNews,
  upsertQuote,
} from '../repositories/content.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import { actorOf } from './operator.service.js';
import { toNewsRecord, toNoticeRecord, toQuoteRecord } from './records.js';
import { DEMO_NEWS, DEMO_NOTICES, DEMO_QUOTES } from './demo-content.js';
import { LOCALES } from '../../contract/locales.js';
import { CoreService } from './service-core.js';

type NewsWrite = z.infer<typeof newsWriteParamsSchema>;
type NewsUpdate = z.infer<typeof newsUpdateParamsSchema>;
type NoticeWrite = z.infer<typeof noticeWriteParamsSchema>;
type QuoteWrite = z.infer<typeof quoteWriteParamsSchema>;

export class ContentService extends CoreService {
  async newsPage(params: { cursor?: string | undefined; limit?: number | undefined }) {
    const limit = params.limit ?? 20;
    const before = params.cursor && /^\d{1,15}$/.test(params.cursor) ? Number(params.cursor) : undefined;
    const rows = await listNews(this.db, before, limit);
    return {
      items: rows.map(toNewsRecord),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.id) : null,
    };
  }

  async newsGet(id: string) {
    const [row] = /^\d{1,15}$/.test(id) ? await newsByIds(this.db, [Number(id)]) : [];
    if (!row) throw notFound();
    return toNewsRecord(row);
  }

  async notices() {
    return { items: (await listNotices(this.db)).map(toNoticeRecord) };
  }

  async quotes() {
    return { items: (await listQuotes(this.db)).map(toQuoteRecord) };
  }

  async quote(symbol: string) {
    const [row] = await quotesBySymbols(this.db, [symbol.toUpperCase()]);
    if (!row) throw notFound();
    return toQuoteRecord(row);
  }

  createNews(ctx: RequestContext, params: NewsWrite) {
    return this.commands.run(ctx, (tx) => this.createNewsIn(tx, actorOf(ctx), params));
  }

  private async createNewsIn(tx: Executor, actor: string, params: NewsWrite) {
    const now = this.clock.now();
    const row = await insertNews(tx, {
      ...newsText(params),
      publishedAt: this.publishTime(params, now) ?? now,
      updatedAt: now,
    });
    await this.changed(tx, actor, 'news.create', 'news', String(row.id), false, now);
    return toNewsRecord(row);
  }

  /** The publish time an operator set: now or a time already past (a news item is public once saved). */
  private publishTime(params: NewsWrite, now: Date): Date | undefined {
    if (!params.publishedAt) return undefined;
    const at = new Date(params.publishedAt);
    if (at > now) throw invalidField('publishedAt', 'server.publish_time_future');
    return at;
  }

  updateNews(ctx: RequestContext, params: NewsUpdate) {
    return this.commands.run(ctx, async (tx) => {
      const now = this.clock.now();
      const id = rowIdOf(params.id);
      const publishedAt = this.publishTime(params, now);
      const row =
        id === null
          ? undefined
          : await updateNews(tx, id, {
              ...newsText(params),
              ...(publishedAt ? { publishedAt } : {}),
              updatedAt: now,
            });
      if (!row) throw notFound();
      await this.changed(tx, actorOf(ctx), 'news.update', 'news', params.id, false, now);
      return toNewsRecord(row);
    });
  }

  deleteNews(ctx: RequestContext, id: string) {
    return this.deleteItem(ctx, id, deleteNews, 'news.delete', 'news');
  }

  createNotice(ctx: RequestContext, params: NoticeWrite) {
    return this.commands.run(ctx, (tx) => this.createNoticeIn(tx, actorOf(ctx), params));
  }

  private async createNoticeIn(tx: Executor, actor: string, params: NoticeWrite) {
    const now = this.clock.now();
    const row = await insertNotice(tx, {
      text: params.text,
      lang: params.lang ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await this.changed(tx, actor, 'notice.create', 'notices', String(row.id), false, now);
    return toNoticeRecord(row);
  }

  deleteNotice(ctx: RequestContext, id: string) {
    return this.deleteItem(ctx, id, deleteNotice, 'notice.delete', 'notices');
  }

  /** Deletes one news item or notice (404 when there is no such id), audited and synced. */
  private deleteItem(
    ctx: RequestContext,
    id: string,
    remove: (tx: Executor, rowId: number) => Promise<boolean>,
    action: string,
    collection: string,
  ) {
    return this.commands.run(ctx, async (tx) => {
      const rowId = rowIdOf(id);
      if (rowId === null || !(await remove(tx, rowId))) throw notFound();
      await this.changed(tx, actorOf(ctx), action, collection, id, true, this.clock.now());
      return { done: true as const };
    });
  }

  setQuote(ctx: RequestContext, params: QuoteWrite) {
    return this.commands.run(ctx, (tx) => this.setQuoteIn(tx, actorOf(ctx), params));
  }

  private async setQuoteIn(tx: Executor, actor: string, params: QuoteWrite) {
    const now = this.clock.now();
    const row = await upsertQuote(tx, { ...params, at: now });
    await this.changed(tx, actor, 'quote.set', 'quotes', row.symbol, false, now);
    return toQuoteRecord(row);
  }

  /**
   * The first start's demo content (config.demo): two news per language, a notice per language
   * and four quotes, marked `demo`, added once to a database with no news. Returns whether it did.
   */
  async seedDemo(): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await lockDemoSeed(tx);
      if (await anyNews(tx)) return false;
      const now = this.clock.now();
      for (const lang of LOCALES) {
        for (const item of DEMO_NEWS[lang]) {
          const row = await insertNews(tx, { ...item, lang, demo: true, publishedAt: now, updatedAt: now });
          await this.changed(tx, 'system', 'news.create_demo', 'news', String(row.id), false, now);
        }
        const notice = await insertNotice(tx, {
          text: DEMO_NOTICES[lang],
          lang,
          demo: true,
          createdAt: now,
          updatedAt: now,
        });
        await this.changed(tx, 'system', 'notice.create_demo', 'notices', String(notice.id), false, now);
      }
      for (const quote of DEMO_QUOTES) {
        const row = await upsertQuote(tx, { ...quote, at: now, demo: true });
        await this.changed(tx, 'system', 'quote.set_demo', 'quotes', row.symbol, false, now);
      }
      return true;
    });
  }

  /** Ids of the demo items still there, for the console's mark. */
  demoContent() {
    return demoContent(this.db);
  }

  /**
   * Prices from a quotes feed (quotes-feed.ts): written and synced like an operator's, but not
   * audited (no person moved them); a feed price replaces the demo mark.
   */
  async feedQuotes(
    items: ReadonlyArray<{ symbol: string; name: string; price: string; changePercent: string }>,
  ) {
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      for (const item of items) {
        const row = await upsertQuote(tx, { ...item, at: now });
        await recordChange(tx, {
          collection: 'quotes',
          scopeId: 0,
          recordId: row.symbol,
          deleted: false,
          at: now,
        });
      }
    });
  }

  /** Audits an operator's write and records it for sync, in the same transaction. */
  private async changed(
    tx: Executor,
    actor: string,
    action: string,
    collection: string,
    recordId: string,
    deleted: boolean,
    at: Date,
  ) {
    await appendAudit(tx, { actor, action, target: `${collection}:${recordId}`, detail: {}, at });
    await recordChange(tx, { collection, scopeId: 0, recordId, deleted, at });
  }
}

/** The text of a news item as an operator writes it (no image and no language stored as null). */
function newsText(params: NewsWrite) {
  return {
    title: params.title,
    summary: params.summary,
    body: params.body,
    imageUrl: params.imageUrl || null,
    lang: params.lang ?? null,
  };
}
