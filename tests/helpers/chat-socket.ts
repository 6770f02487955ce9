/**
 * A chat socket client for tests and the bench (ws, the server's own library): collects every
 * frame, waits for states (never for time), and tells how the server closed it.
 */
import { WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import type { TestServer } from './server.js';

export interface Frame {
  type: string;
  [key: string]: unknown;
}

export interface ChatClient {
  frames: Frame[];
  /** Messages received (customer: `message.seq`), in order. */
  seqs(): number[];
  send(frame: unknown): void;
  raw(data: string | Buffer): void;
  /** Resolves with the first frame (from `from` on) that `match` accepts; rejects after `timeoutMs` or on close. */
  next(match: (frame: Frame) => boolean, from?: number, timeoutMs?: number): Promise<Frame>;
  closed: Promise<{ code: number; reason: string }>;
  isOpen(): boolean;
  close(): void;
  /** Drops the TCP connection at once (a phone losing its network). */
  cut(): void;
}

/** Where a test server listens on loopback (started on the first call). */
export async function listenLoopback(t: TestServer): Promise<string> {
  const app = t.server.app;
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}`;
}

export function openChatSocket(base: string, path = '/api/v1/chat/socket'): Promise<ChatClient> {
  const socket = new WebSocket(`${base}${path}`);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  let closedInfo: { code: number; reason: string } | null = null;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      closedInfo = { code, reason: reason.toString() };
      resolve(closedInfo);
      for (const wake of waiters) wake();
    });
  });
  socket.on('error', () => undefined);
  socket.on('message', (data) => {
    try {
      frames.push(JSON.parse(String(data)) as Frame);
    } catch {
      frames.push({ type: 'unparsable' });
    }
    for (const wake of waiters) wake();
  });
  const client: ChatClient = {
    frames,
    seqs: () =>
      frames
        .filter((frame) => frame.type === 'message')
        .map((frame) => (frame['message'] as { seq: number }).seq),
    send: (frame) => socket.send(JSON.stringify(frame)),
    raw: (data) => socket.send(data),
    next(match, from = 0, timeoutMs = 15_000) {
      return new Promise<Frame>((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (closedInfo) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(
              new Error(
                `socket closed ${closedInfo.code} ${closedInfo.reason}; frames ${JSON.stringify(frames)}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such frame within ${timeoutMs} ms; frames ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    closed,
    isOpen: () => socket.readyState === WebSocket.OPEN,
    close: () => socket.close(),
    cut: () => socket.terminate(),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
  });
}

/** A socket signed in with `token`: resolves once `ready` came. */
export async function signedInSocket(base: string, token: string, path?: string): Promise<ChatClient> {
  const client = await openChatSocket(base, path);
  client.send({ type: 'auth', token });
  await client.next((frame) => frame.type === 'ready');
  return client;
}
