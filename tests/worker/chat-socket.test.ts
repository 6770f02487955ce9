/**
 * The worker's chat socket (worker/chat/chat-socket.ts, docs/protocol.md §35.3) against an
 * in-memory server that speaks the protocol: auth first, `ready`, `resume` after a seq (backlog
 * in order, then live). A socket cut while messages are sent misses none and stores none twice;
 * the resume asks after the last seq held WITHOUT A GAP, never the highest seen; a live gap asks
 * for a resume; a refused session does not reconnect; a silent link is dropped and reopened.
 */
import { describe, expect, test } from 'vitest';
import { CHAT_CLOSE, type ChatClientFrame, type ChatMessage } from '../../contract/api/chat.js';
import { MemoryChatStore } from '../../client-db/caches/chat.js';
import {
  ChatSocket,
  chatSocketUrl,
  PING_AFTER_MS,
  PONG_WAIT_MS,
  type SocketLike,
  type SocketTimers,
} from '../../worker/chat/chat-socket.js';
import { SeqTracker } from '../../worker/chat/seq-tracker.js';
import { MemorySessionStore } from '../../worker/session.js';

/** Timers the test moves by hand. */
class ManualTimers implements SocketTimers {
  now = 0;
  private serial = 0;
  private readonly due = new Map<number, { at: number; task: () => void }>();

  setTimeout(task: () => void, ms: number): unknown {
    const handle = ++this.serial;
    this.due.set(handle, { at: this.now + ms, task });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.due.delete(handle);
  }

  /** Moves time on, running every task that falls due (in time order). */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const next = [...this.due].sort((a, b) => a[1].at - b[1].at)[0];
      if (next === undefined || next[1].at > end) break;
      this.due.delete(next[0]);
      this.now = next[1].at;
      next[1].task();
    }
    this.now = end;
  }
}

/** One socket as the server end sees it. */
class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly received: ChatClientFrame[] = [];
  authed = false;
  /** After `resume`: live messages are sent to it. */
  live = false;
  /** The highest seq sent on this socket (the server sends each once, in order). */
  sentUpTo = 0;

  constructor(private readonly server: FakeChatServer) {}

  send(data: string): void {
    const frame = JSON.parse(data) as ChatClientFrame; // the client's own frames, from JSON.stringify
    this.received.push(frame);
    this.server.handle(this, frame);
  }

  close(code = 1000): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.server.sockets.delete(this);
    queueMicrotask(() => this.onclose?.({ code }));
  }

  /** The server pushes a frame. */
  push(frame: unknown): void {
    if (this.readyState === 1) this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** The link dies: the client hears a close 1006 (or, `silently`, nothing at all). */
  cut(silently = false): void {
    this.readyState = 3;
    this.server.sockets.delete(this);
    if (!silently) queueMicrotask(() => this.onclose?.({ code: 1006 }));
  }
}

/** The conversation of user '7' and its sockets, as the server keeps them. */
class FakeChatServer {
  readonly messages: ChatMessage[] = [];
  readonly sockets = new Set<FakeSocket>();
  readonly opened: FakeSocket[] = [];
  token = 'tok-7';
  agentReadSeq = 0;
  /** Also send each live message a second time (a duplicate on the wire). */
  doubleLive = false;
  /** Seqs never sent live (lost between instances), which only a resume brings. */
  dropLive = new Set<number>();

  readonly connect = (url: string): SocketLike => {
    expect(url).toBe('ws://app.test/api/v1/chat/socket');
    const socket = new FakeSocket(this);
    this.sockets.add(socket);
    this.opened.push(socket);
    queueMicrotask(() => {
      if (socket.readyState !== 0) return;
      socket.readyState = 1;
      socket.onopen?.({});
    });
    return socket;
  };

  handle(socket: FakeSocket, frame: ChatClientFrame): void {
    if (frame.type === 'auth') {
      if (frame.token !== this.token) {
        socket.push({ type: 'error', code: CHAT_CLOSE.unauthorized, message: 'not logged in' });
        socket.close(CHAT_CLOSE.unauthorized);
        return;
      }
      socket.authed = true;
      socket.push({
        type: 'ready',
        lastSeq: this.messages.length,
        customerReadSeq: 0,
        agentReadSeq: this.agentReadSeq,
      });
      return;
    }
    if (frame.type === 'resume') {
      socket.live = true;
      for (const message of this.messages) {
        if (message.seq > frame.afterSeq) {
          socket.push({ type: 'message', message });
          socket.sentUpTo = Math.max(socket.sentUpTo, message.seq);
        }
      }
      return;
    }
    socket.push({ type: 'pong' });
  }

  /** A new message (from either side); delivered live to every resumed socket. */
  add(from: 'customer' | 'agent', text: string): ChatMessage {
    const seq = this.messages.length + 1;
    const message: ChatMessage = {
      id: `m${seq}`,
      seq,
      clientMsgId: `c${seq}-abcdefgh`,
      from,
      agentName: from === 'agent' ? 'Mia' : null,
      text,
      imageUrl: null,
      createdAt: new Date(Date.UTC(2026, 0, 5, 2, 0, seq)).toISOString(),
    };
    this.messages.push(message);
    if (this.dropLive.has(seq)) return message;
    for (const socket of this.sockets) {
      if (!socket.live) continue;
      socket.push({ type: 'message', message });
      if (this.doubleLive) socket.push({ type: 'message', message });
    }
    return message;
  }
}

/** Lets every queued microtask and frame handler run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

async function world() {
  const server = new FakeChatServer();
  const store = new MemoryChatStore();
  const session = new MemorySessionStore();
  await session.saveSession({ token: 'tok-7', userId: '7', email: 'u7@example.com' });
  const timers = new ManualTimers();
  const socket = new ChatSocket({
    connect: server.connect,
    url: () => chatSocketUrl('http://app.test'),
    session,
    store,
    timers,
    random: () => 0.5,
  });
  const held = async () => (await store.heldSeqs('7')).join(',');
  return { server, store, session, timers, socket, held };
}

describe('the seq tracker', () => {
  test('the watermark is the last seq held without a gap, from the lowest held', () => {
    expect(new SeqTracker().watermark).toBe(0);
    expect(new SeqTracker([1, 2, 3]).watermark).toBe(3);
    expect(new SeqTracker([3, 1, 2, 6]).watermark).toBe(3);
    // Older history is paged back on demand: a device holding the newest page counts from its first.
    expect(new SeqTracker([51, 52, 53]).watermark).toBe(53);
  });

  test('a seq held already is a duplicate; one past a missing seq is a gap until the gap fills', () => {
    const tracker = new SeqTracker([1, 2]);
    expect(tracker.add(2)).toBe('duplicate');
    expect(tracker.add(4)).toBe('gap');
    expect(tracker.watermark).toBe(2);
    expect(tracker.add(4)).toBe('duplicate');
    expect(tracker.add(3)).toBe('next');
    expect(tracker.watermark).toBe(4);
    expect(tracker.hasGap).toBe(false);
  });
});

describe('the chat socket', () => {
  test('authenticates in its first frame (no token in the URL), then resumes after the last seq held', async () => {
    const { server, store, socket, held } = await world();
    server.add('agent', 'hello');
    await store.putMessages('7', [server.add('customer', 'hi')]);
    await socket.start();
    await settle();
    const [first] = server.opened;
    expect(first?.received).toEqual([
      { type: 'auth', token: 'tok-7' },
      { type: 'resume', afterSeq: 2 },
    ]);
    expect(socket.state).toBe('live');
    // Seq 1 is older than the lowest held: paged back on demand, not resumed.
    expect(await held()).toBe('2');
    server.add('agent', 'live one');
    await settle();
    expect(await held()).toBe('2,3');
  });

  test('a socket cut while messages are sent: after the reconnect none is missed and none is stored twice', async () => {
    const { server, store, socket, timers, held } = await world();
    for (const text of ['a', 'b', 'c']) server.add('agent', text);
    await socket.start();
    await settle();
    expect(await held()).toBe('1,2,3');

    server.opened[0]?.cut();
    await settle();
    expect(socket.state).toBe('waiting');
    // While away: two agent replies, and the customer's own message sent over HTTP, whose answer
    // (seq 6) the device stores before the socket is back: the resume must still ask after 3.
    server.add('agent', 'd');
    server.add('agent', 'e');
    await store.putMessages('7', [server.add('customer', 'f')]);

    timers.advance(1_000);
    await settle();
    const second = server.opened[1];
    expect(second?.received).toEqual([
      { type: 'auth', token: 'tok-7' },
      { type: 'resume', afterSeq: 3 },
    ]);
    expect(await held()).toBe('1,2,3,4,5,6');
    server.add('agent', 'g');
    await settle();
    expect(await held()).toBe('1,2,3,4,5,6,7');
    // Every message written once: 1-3 live, 4-5 on resume, 6 by the send answer (not again), 7 live.
    expect(store.writes.map((message) => message.seq)).toEqual([1, 2, 3, 6, 4, 5, 7]);
  });

  test('a message delivered twice is stored once', async () => {
    const { server, store, socket, held } = await world();
    await socket.start();
    await settle();
    server.doubleLive = true;
    server.add('agent', 'once');
    server.add('agent', 'twice');
    await settle();
    expect(await held()).toBe('1,2');
    expect(store.writes.map((message) => message.seq)).toEqual([1, 2]);
  });

  test('a live message past a missing one asks for a resume from the last seq held without a gap', async () => {
    const { server, socket, held } = await world();
    server.add('agent', 'one');
    await socket.start();
    await settle();
    server.dropLive.add(2);
    server.add('agent', 'two (lost on the way)');
    server.add('agent', 'three');
    await settle();
    expect(server.opened[0]?.received.at(-1)).toEqual({ type: 'resume', afterSeq: 1 });
    expect(await held()).toBe('1,2,3');
  });

  test('read marks from ready and read frames only rise', async () => {
    const { server, store, socket } = await world();
    server.agentReadSeq = 4;
    await socket.start();
    await settle();
    expect(await store.reads('7')).toMatchObject({ agentReadSeq: 4 });
    server.opened[0]?.push({ type: 'read', by: 'agent', seq: 2 });
    server.opened[0]?.push({ type: 'read', by: 'customer', seq: 3 });
    await settle();
    expect(await store.reads('7')).toMatchObject({ agentReadSeq: 4, customerReadSeq: 3 });
  });

  test('a refused session (4401) does not reconnect until the session holds another token', async () => {
    const { server, session, socket, timers } = await world();
    server.token = 'another';
    await socket.start();
    await settle();
    expect(socket.state).toBe('idle');
    timers.advance(120_000);
    await settle();
    expect(server.opened).toHaveLength(1);
    await session.saveSession({ token: 'another', userId: '7', email: 'u7@example.com' });
    await socket.start();
    await settle();
    expect(server.opened).toHaveLength(2);
    expect(socket.state).toBe('live');
  });

  test('a link that dies without a close is pinged, then dropped and reopened', async () => {
    const { server, socket, timers, held } = await world();
    await socket.start();
    await settle();
    server.opened[0]?.cut(true);
    server.add('agent', 'while the link was dead');
    timers.advance(PING_AFTER_MS + PONG_WAIT_MS);
    await settle();
    expect(socket.state).toBe('waiting');
    timers.advance(1_000);
    await settle();
    expect(server.opened).toHaveLength(2);
    expect(await held()).toBe('1');
  });

  test('after stop nothing is written and nothing reconnects', async () => {
    const { server, socket, timers, held } = await world();
    await socket.start();
    await settle();
    await socket.stop();
    server.add('agent', 'after logout');
    timers.advance(60_000);
    await settle();
    expect(await held()).toBe('');
    expect(server.opened).toHaveLength(1);
  });
});
