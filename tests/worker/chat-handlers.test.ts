/**
 * The worker's chat handlers (worker/handlers/chat.handlers.ts): the customer's read mark is kept
 * on the device at once (the unread count drops offline) and sent until the server has it, never
 * going back; paging back asks for the page before the lowest seq held and stores it; images are
 * read only from upload paths, kept, and served from the copy offline.
 */
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import type { ChatMessage } from '../../contract/api/chat.js';
import { MemoryChatStore } from '../../client-db/caches/chat.js';
import type { Outcome } from '../../sync/ports.js';
import type { ApiClient } from '../../worker/api-client.js';
import { chatHandlers } from '../../worker/handlers/chat.handlers.js';
import { MemorySessionStore } from '../../worker/session.js';

const message = (seq: number): ChatMessage => ({
  id: `m${seq}`,
  seq,
  clientMsgId: `c${seq}-xxxxxxxx`,
  from: seq % 2 === 0 ? 'agent' : 'customer',
  agentName: seq % 2 === 0 ? 'Mia' : null,
  text: `t${seq}`,
  imageUrl: null,
  createdAt: new Date(Date.UTC(2026, 0, 5, 2, 0, seq)).toISOString(),
});

interface Seen {
  uri: string;
  params: Record<string, unknown>;
}

async function world(answer: (call: Seen) => Outcome<unknown>) {
  const seen: Seen[] = [];
  const respond = <T>(
    uri: string,
    schema: z.ZodType<T>,
    params: Record<string, unknown> = {},
  ): Promise<Outcome<T>> => {
    seen.push({ uri, params });
    const outcome = answer({ uri, params });
    if (outcome.kind !== 'ok') return Promise.resolve(outcome);
    return Promise.resolve({ kind: 'ok', message: 'OK', data: schema.parse(outcome.data) });
  };
  const api: ApiClient = { read: respond, command: (uri, schema, params) => respond(uri, schema, params) };
  const session = new MemorySessionStore();
  await session.saveSession({ token: 'tok-7', userId: '7', email: 'u7@example.com' });
  const store = new MemoryChatStore();
  const images: string[] = [];
  const fetchImage: typeof fetch = async (input) => {
    images.push(String(input));
    return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } });
  };
  const { handlers } = chatHandlers(
    { api, session, newIdempotencyKey: () => 'key' },
    {
      store,
      fetch: fetchImage,
      connect: () => {
        throw new Error('no socket in this test');
      },
    },
  );
  return { handlers, store, seen, images, session };
}

const offline: Outcome<unknown> = { kind: 'transport', status: null, message: 'fetch failed' };

describe('the chat handlers', () => {
  test('a read mark is kept on the device at once, sent, and never goes back', async () => {
    let online = false;
    const { handlers, store, seen } = await world(({ params }) =>
      online
        ? { kind: 'ok', message: 'OK', data: { customerReadSeq: Number(params['seq']), agentReadSeq: 0 } }
        : offline,
    );
    await handlers['chat-read']({ seq: 4 });
    expect(await store.readMark('7')).toEqual({ seq: 4, sentSeq: 0 });
    expect((await store.reads('7'))?.customerReadSeq).toBe(4);
    online = true;
    await handlers['chat-read']({ seq: 6 });
    expect(await store.readMark('7')).toEqual({ seq: 6, sentSeq: 6 });
    await handlers['chat-read']({ seq: 5 });
    expect(await store.readMark('7')).toEqual({ seq: 6, sentSeq: 6 });
    expect(seen.map((call) => call.params['seq'])).toEqual([4, 6]);
  });

  test('paging back asks for the page before the lowest seq held and stores it; from seq 1 nothing more is asked', async () => {
    const { handlers, store, seen } = await world(({ params }) => {
      const before = Number(params['beforeSeq'] ?? 101);
      const items = [];
      for (let seq = Math.max(1, before - 50); seq < before; seq++) items.push(message(seq));
      return {
        kind: 'ok',
        message: 'OK',
        data: { items, lastSeq: 100, customerReadSeq: 0, agentReadSeq: 0 },
      };
    });
    expect(await handlers['chat-history-before']()).toEqual({ kind: 'ok', count: 50, reachedStart: false });
    expect(seen[0]?.params).toEqual({ limit: 50 });
    expect(await handlers['chat-history-before']()).toEqual({ kind: 'ok', count: 50, reachedStart: true });
    expect(seen[1]?.params).toEqual({ limit: 50, beforeSeq: 51 });
    expect((await store.heldSeqs('7')).length).toBe(100);
    expect(await handlers['chat-history-before']()).toEqual({ kind: 'ok', count: 0, reachedStart: true });
    expect(seen).toHaveLength(2);
  });

  test('images are read only from upload paths, with the token, kept, and served from the copy afterwards', async () => {
    const { handlers, images } = await world(() => offline);
    expect(await handlers['chat-image']({ url: 'https://evil.example/x.png' })).toBeNull();
    const url = '/api/v1/common/img/abcdefghij12';
    expect(await handlers['chat-image']({ url })).toBe('data:image/png;base64,AQID');
    expect(await handlers['chat-image']({ url })).toBe('data:image/png;base64,AQID');
    expect(images).toEqual([url]);
  });
});
