/**
 * Customer service chat (docs/protocol.md §35), the worker's side. The conversation itself is the
 * synced `chat_messages` and `chat_reads` (read by the UI from IndexedDB, so the room opens
 * offline); the socket (`chat/chat-socket.ts`) writes what arrives live into the same tables, and
 * messages are sent by the outbox command `chat-send` (chat.commands.ts). Here: the socket's
 * start and stop, the support entry's info (kept for offline), paging back through history, the
 * customer's read mark (kept on the device and sent until the server has it), and images read
 * with the token and kept as data: URLs.
 */
import {
  chatHistoryDataSchema,
  chatInfoDataSchema,
  chatReadDataSchema,
  CHAT_HISTORY_LIMIT_DEFAULT,
} from '../../contract/api/chat.js';
import { DexieChatStore, type ChatStore, type KeptChatInfo } from '../../client-db/caches/chat.js';
import type { Outcome } from '../../sync/ports.js';
import { ChatSocket, chatSocketUrl, type SocketLike } from '../chat/chat-socket.js';
import { readCached, type CachedResult } from './cached-read.js';
import { commandNow, type HandlerDeps } from './deps.js';

/** What the chat handlers need beyond the common deps; browser defaults for each. */
export interface ChatDeps {
  store?: ChatStore;
  /** Opens the socket (the browser's WebSocket). */
  connect?: (url: string) => SocketLike;
  /** The socket's URL (the worker's own origin's). */
  socketUrl?: () => string;
  /** `fetch` for images (with the token). */
  fetch?: typeof fetch;
  /** Origin put before image paths; empty means same origin. */
  baseUrl?: string;
  now?: () => Date;
}

/** The result of paging back: how many older messages came, and whether the first one is held now. */
export type HistoryPage =
  { kind: 'ok'; count: number; reachedStart: boolean } | Exclude<Outcome<unknown>, { kind: 'ok' }>;

function defaultConnect(url: string): SocketLike {
  if (typeof WebSocket === 'undefined') throw new Error('no WebSocket here');
  // The browser's WebSocket has every member SocketLike names.
  return new WebSocket(url) as unknown as SocketLike;
}

function defaultSocketUrl(): string {
  return chatSocketUrl(globalThis.location.origin);
}

function dataUrlOf(type: string, bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}

/** Builds the chat handlers and the socket they drive (returned too, so logout can stop it first). */
export function chatHandlers(
  deps: Pick<HandlerDeps, 'api' | 'session' | 'newIdempotencyKey'>,
  chat: ChatDeps = {},
) {
  const store = chat.store ?? new DexieChatStore();
  const now = chat.now ?? (() => new Date());
  const send = commandNow(deps);

  /** Sends the device's read mark when the server's is lower; keeps what the server took. Never throws. */
  async function flushReadMark(userId: string, serverSeq: number): Promise<void> {
    const mark = await store.readMark(userId).catch(() => null);
    if (mark === null || mark.seq <= serverSeq) return;
    const outcome = await send('/api/v1/chat/read', chatReadDataSchema, { seq: mark.seq });
    if (outcome.kind !== 'ok') return;
    const current = await deps.session.getSession();
    if (current?.userId !== userId) return;
    await store.raiseReads(userId, outcome.data).catch(() => undefined);
    const latest = await store.readMark(userId).catch(() => mark);
    await store
      .putReadMark(userId, {
        seq: latest.seq,
        sentSeq: Math.max(latest.sentSeq, outcome.data.customerReadSeq),
      })
      .catch(() => undefined);
  }

  const socket = new ChatSocket({
    connect: chat.connect ?? defaultConnect,
    url: chat.socketUrl ?? defaultSocketUrl,
    session: deps.session,
    store,
    onReady: (ready) => {
      void deps.session
        .getSession()
        .then((session) =>
          session === null ? undefined : flushReadMark(session.userId, ready.customerReadSeq),
        );
    },
  });

  const handlers = {
    /**
     * Opens the live socket for the logged-in user (idempotent) or, when it waits to reconnect,
     * reconnects now (the window heard the network come back). Resolves before it is live.
     */
    async 'chat-connect'() {
      if (socket.state === 'waiting') await socket.nudge();
      else await socket.start();
      return socket.state;
    },

    /** Closes the socket and stops reconnecting (logout, or the app going away). */
    async 'chat-disconnect'() {
      await socket.stop();
    },

    /**
     * The support entry's hours and community links (no token needed), kept for offline; offline,
     * the kept answer. Never throws.
     */
    async 'chat-info'(): Promise<CachedResult<KeptChatInfo>> {
      return readCached(deps.session, now, () => deps.api.read('/api/v1/chat/info', chatInfoDataSchema), {
        record: (info, fetchedAt): KeptChatInfo => ({ info, fetchedAt }),
        keep: (userId, record) => store.putInfo(userId, record),
        kept: (userId) => store.info(userId),
      });
    },

    /**
     * One page of the messages before the oldest held (the newest page when none is held),
     * written to `chat_messages`. `reachedStart` once seq 1 is held (or the conversation is empty).
     */
    async 'chat-history-before'(): Promise<HistoryPage> {
      const session = await deps.session.getSession();
      if (session === null) return { kind: 'refused', code: 401, message: '', data: null };
      const lowest = await store.lowestSeq(session.userId);
      if (lowest === 1) return { kind: 'ok', count: 0, reachedStart: true };
      const params: Record<string, unknown> = { limit: CHAT_HISTORY_LIMIT_DEFAULT };
      if (lowest > 0) params['beforeSeq'] = lowest;
      const outcome = await deps.api.read('/api/v1/chat/history', chatHistoryDataSchema, params);
      if (outcome.kind !== 'ok') return outcome;
      const current = await deps.session.getSession();
      if (current?.userId !== session.userId) return { kind: 'ok', count: 0, reachedStart: false };
      await store.putMessages(session.userId, outcome.data.items);
      await store.raiseReads(session.userId, outcome.data);
      const first = outcome.data.items[0]?.seq;
      return {
        kind: 'ok',
        count: outcome.data.items.length,
        reachedStart: outcome.data.lastSeq === 0 || first === 1 || outcome.data.items.length === 0,
      };
    },

    /**
     * The customer has seen the conversation up to `seq`: kept on the device at once (the unread
     * count drops offline too), sent now when possible, else when the socket is next ready.
     * A mark never goes back. Never throws.
     */
    async 'chat-read'({ seq }: { seq: number }) {
      const session = await deps.session.getSession();
      if (session === null || !Number.isSafeInteger(seq) || seq <= 0) return;
      const mark = await store.readMark(session.userId).catch(() => null);
      if (mark === null || seq <= mark.seq) return;
      await store.putReadMark(session.userId, { seq, sentSeq: mark.sentSeq }).catch(() => undefined);
      await store.raiseReads(session.userId, { customerReadSeq: seq }).catch(() => undefined);
      await flushReadMark(session.userId, mark.sentSeq);
    },

    /**
     * An image of the conversation as a data: URL: the kept copy, else read with the token and
     * kept (the oldest go beyond a bound). Null when it cannot be had (offline and not kept, or
     * refused). Only upload paths are read. Never throws.
     */
    async 'chat-image'({ url }: { url: string }): Promise<string | null> {
      if (!/^\/api\/v1\/common\/img\/[A-Za-z0-9_-]{10,64}$/.test(url)) return null;
      const session = await deps.session.getSession();
      if (session === null) return null;
      const kept = await store.image(session.userId, url).catch(() => null);
      if (kept !== null) return kept;
      const doFetch = chat.fetch ?? globalThis.fetch.bind(globalThis);
      try {
        const response = await doFetch(`${chat.baseUrl ?? ''}${url}`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
        if (!response.ok || !/^image\/[a-z0-9.+-]+$/.test(type)) return null;
        const dataUrl = dataUrlOf(type, new Uint8Array(await response.arrayBuffer()));
        const current = await deps.session.getSession();
        if (current?.userId === session.userId)
          await store.putImage(session.userId, url, dataUrl, now().getTime()).catch(() => undefined);
        return dataUrl;
      } catch {
        return null;
      }
    },
  };
  return { handlers, socket };
}
