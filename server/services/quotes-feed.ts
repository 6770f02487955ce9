/**
 * Quotes from an exchange's public 24-hour ticker (COFFER_QUOTES_URL): Binance's documented
 * `GET /api/v3/ticker/24hr?symbols=["BTCUSDT",...]` answer, an array of
 * `{symbol, lastPrice, priceChangePercent, ...}`. Each poll writes the configured symbols as
 * `BTC/USDT` quotes; an answer of another shape is refused whole (logged), never half written.
 * Operators can still set quotes by hand.
 */
import { z } from 'zod';
import type { PollOutcome, Pollable } from '../core/poll.js';
import type { ContentService } from './content.service.js';

/** The quote names shown for well-known bases; others show the base's symbol. */
const NAMES: Record<string, string> = { BTC: 'Bitcoin', ETH: 'Ethereum', BNB: 'BNB', TRX: 'TRON' };
const QUOTE_ASSETS = ['USDT', 'USDC', 'BUSD', 'BTC', 'ETH'];

const decimalSchema = z.string().regex(/^-?\d{1,20}(\.\d{1,18})?$/);
const tickerSchema = z.array(
  z.object({ symbol: z.string(), lastPrice: decimalSchema, priceChangePercent: decimalSchema }),
);

/** `BTCUSDT` -> `BTC/USDT` (the quote asset found at its end). */
export function pairOf(symbol: string): { base: string; quote: string } | null {
  const quote = QUOTE_ASSETS.find((asset) => symbol.endsWith(asset) && symbol.length > asset.length);
  return quote ? { base: symbol.slice(0, -quote.length), quote } : null;
}

/** Trims a decimal's trailing zeros (`64000.01000000` -> `64000.01`). */
const trimmed = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

export class QuotesFeed implements Pollable {
  readonly name = 'quotes feed';

  constructor(
    private readonly content: ContentService,
    private readonly url: string,
    private readonly symbols: readonly string[],
    private readonly fetchJson: (url: string) => Promise<unknown> = defaultFetch,
  ) {}

  async poll(): Promise<PollOutcome> {
    const url = new URL(this.url);
    url.searchParams.set('symbols', JSON.stringify(this.symbols));
    const tickers = tickerSchema.parse(await this.fetchJson(url.toString()));
    const items = tickers.flatMap((ticker) => {
      const pair = this.symbols.includes(ticker.symbol) ? pairOf(ticker.symbol) : null;
      if (!pair) return [];
      return [
        {
          symbol: `${pair.base}/${pair.quote}`,
          name: NAMES[pair.base] ?? pair.base,
          price: trimmed(ticker.lastPrice),
          changePercent: Number(ticker.priceChangePercent).toFixed(2),
        },
      ];
    });
    await this.content.feedQuotes(items);
    return { log: null, again: false };
  }
}

async function defaultFetch(url: string): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(10_000),
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`quotes feed answered HTTP ${response.status}`);
  return response.json();
}
