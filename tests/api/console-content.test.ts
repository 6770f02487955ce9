/**
 * A living first run: demo news in every language, notices and quotes on the embedded default
 * (once, marked demo), and quotes from an exchange's 24-hour ticker in Binance's documented shape.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCALES } from '../../contract/locales.js';
import { loadConfig } from '../../server/config.js';
import { QuotesFeed, pairOf } from '../../server/services/quotes-feed.js';
import { availableTiers } from '../helpers/database.js';
import { ok, readyOperator } from '../helpers/operator.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const tiers = await availableTiers('console content');

/** Binance's documented /api/v3/ticker/24hr answer for two symbols (fields trimmed to a few). */
const BINANCE_TICKERS = [
  {
    symbol: 'BTCUSDT',
    priceChange: '-94.99999800',
    priceChangePercent: '-95.960',
    weightedAvgPrice: '0.29628482',
    lastPrice: '64123.45000000',
    volume: '8913.30000000',
    openTime: 1499783499040,
    closeTime: 1499869899040,
    count: 76,
  },
  {
    symbol: 'ETHUSDT',
    priceChange: '12.5',
    priceChangePercent: '0.391',
    lastPrice: '3210.10000000',
    openTime: 1499783499040,
    closeTime: 1499869899040,
  },
];

describe.each(tiers)('demo content and the quotes feed on %s', (tier) => {
  let t: TestServer;
  let ticker: http.Server;
  let tickerUrl = '';
  let answer: unknown = BINANCE_TICKERS;
  const asked: string[] = [];

  beforeAll(async () => {
    t = await startTestServer(tier, { COFFER_DEMO: 'on' });
    ticker = http.createServer((request, response) => {
      asked.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(answer));
    });
    tickerUrl = `http://127.0.0.1:${await listenOnLoopback(ticker)}/api/v3/ticker/24hr`;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => ticker.close(resolve));
  });

  test('the first start adds demo news in each of the seven languages, notices and quotes, once, marked demo', async () => {
    const listed = ok(
      await t.call<{ items: Array<{ lang: string | null }> }>('plain', '/api/v1/news/list', { limit: 50 }),
      'news',
    );
    expect(new Set(listed.items.map((item) => item.lang))).toEqual(new Set(LOCALES));
    expect(listed.items.length).toBe(2 * LOCALES.length);
    const quotes = ok(
      await t.call<{ items: Array<{ id: string }> }>('plain', '/api/v1/common/forexProductList'),
      'quotes',
    );
    expect(quotes.items.map((item) => item.id)).toEqual(['BNB/USDT', 'BTC/USDT', 'ETH/USDT', 'TRX/USDT']);
    expect(await t.server.services.content.seedDemo()).toBe(false);

    const content = await readyOperator(t, 'content@coffer.test', 'content');
    const demo = ok(
      await content.call<{ news: string[]; notices: string[]; quotes: string[] }>('/api/admin/content/demo'),
      'demo',
    );
    expect(demo.news.length).toBe(2 * LOCALES.length);
    expect(demo.notices.length).toBe(LOCALES.length);
    expect(demo.quotes.length).toBe(4);
  });

  test('news carries the publish time an operator sets, never one in the future', async () => {
    const content = await readyOperator(t, 'editor@coffer.test', 'content');
    const news = { title: 'Maintenance', summary: 'Short', body: 'Longer text', lang: 'en' };
    const backdated = ok(
      await content.call<{ id: string; publishedAt: string }>('/api/admin/news/create', {
        ...news,
        publishedAt: '2026-01-04T08:00:00Z',
      }),
      'create',
    );
    expect(backdated.publishedAt).toBe('2026-01-04T08:00:00.000Z');
    const future = await content.call('/api/admin/news/create', {
      ...news,
      publishedAt: '2027-01-01T00:00:00Z',
    });
    expect(future).toMatchObject({
      code: 400,
      data: { field: 'publishedAt' },
      message: 'The publish time cannot be in the future',
    });
    const moved = ok(
      await content.call<{ publishedAt: string }>('/api/admin/news/update', {
        ...news,
        id: backdated.id,
        publishedAt: '2026-01-03T08:00:00Z',
      }),
      'update',
    );
    expect(moved.publishedAt).toBe('2026-01-03T08:00:00.000Z');
  });

  test('demo content is only for the embedded default: never with DATABASE_URL, in production, or with COFFER_DEMO=off', () => {
    const base = { COFFER_SECRET_KEY: '11'.repeat(32) };
    expect(loadConfig({ ...base }).demo).toBe(true);
    expect(loadConfig({ ...base, COFFER_DEMO: 'off' }).demo).toBe(false);
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://u@127.0.0.1:5432/coffer' }).demo).toBe(false);
  });

  test("the quotes feed reads Binance's 24-hour ticker shape for the configured symbols", async () => {
    expect(pairOf('BTCUSDT')).toEqual({ base: 'BTC', quote: 'USDT' });
    expect(pairOf('USDT')).toBeNull();
    const feed = new QuotesFeed(t.server.services.content, tickerUrl, ['BTCUSDT', 'ETHUSDT']);
    await feed.poll();
    expect(decodeURIComponent(asked.at(-1) ?? '')).toBe('/api/v3/ticker/24hr?symbols=["BTCUSDT","ETHUSDT"]');
    const quotes = ok(
      await t.call<{ items: Array<{ id: string; price: string; changePercent: string }> }>(
        'plain',
        '/api/v1/common/forexProductList',
      ),
      'quotes',
    );
    expect(quotes.items.find((item) => item.id === 'BTC/USDT')).toMatchObject({
      price: '64123.45',
      changePercent: '-95.96',
    });
    expect(quotes.items.find((item) => item.id === 'ETH/USDT')).toMatchObject({
      price: '3210.1',
      changePercent: '0.39',
    });

    // Another shape is refused whole: nothing changes.
    answer = [{ symbol: 'BTCUSDT', lastPrice: 'a lot' }];
    await expect(feed.poll()).rejects.toThrow();
    const after = ok(
      await t.call<{ items: Array<{ id: string; price: string }> }>(
        'plain',
        '/api/v1/common/forexProductList',
      ),
      'quotes',
    );
    expect(after.items.find((item) => item.id === 'BTC/USDT')?.price).toBe('64123.45');
  });
});
