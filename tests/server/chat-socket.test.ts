/**
 * The chat socket's transport rules on a bare Fastify app with a short heartbeat (docs/protocol.md
 * §35.3): a peer that stops answering pings is dropped, a socket without `auth` in time is closed
 * (4401), a frame over 4 KiB closes with 1009, a binary frame with 4400; a socket whose session
 * ends is closed at the next heartbeat (4401); a socket that answers stays.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { CHAT_CLOSE } from '../../contract/api/chat.js';
import type { Caller } from '../../server/core/context.js';
import { registerChatSockets } from '../../server/http/chat-socket.js';
import { memoryChatBus } from '../../server/services/chat-bus.js';
import { ChatHub } from '../../server/services/chat-hub.js';
import type { SessionService } from '../../server/services/session.service.js';
import { openChatSocket, signedInSocket } from '../helpers/chat-socket.js';

const live = new Set(['token-of-user-1-aaaaaaaaaaaa', 'token-of-user-2-aaaaaaaaaaaa']);
const sessions = {
  authenticate: (token: string): Promise<Caller | null> =>
    Promise.resolve(
      live.has(token)
        ? { kind: 'user', userId: Number(token.split('-')[3]), tokenHash: token, frozen: false }
        : null,
    ),
} as unknown as SessionService;
const backlog = {
  after: () => Promise.resolve([]),
  state: () => Promise.resolve({ lastSeq: 0, customerReadSeq: 0, agentReadSeq: 0 }),
};

describe('chat socket transport', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    await registerChatSockets(
      app,
      { sessions, hub: new ChatHub(memoryChatBus(), backlog) },
      { heartbeatMs: 100, authTimeoutMs: 300 },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  test('heartbeat: a peer that stops answering pings is dropped; one that answers stays', async () => {
    const answering = await signedInSocket(base, 'token-of-user-1-aaaaaaaaaaaa');
    const dead = new WebSocket(`${base}/api/v1/chat/socket`, { autoPong: false });
    await new Promise((resolve) => dead.once('open', resolve));
    dead.send(JSON.stringify({ type: 'auth', token: 'token-of-user-2-aaaaaaaaaaaa' }));
    const code = await new Promise<number>((resolve) => dead.once('close', resolve));
    expect(code).toBe(1006); // terminated: no close frame for a peer that does not answer
    expect(answering.isOpen()).toBe(true);
    answering.close();
  });

  test('no auth frame in time: closed with 4401', async () => {
    const idle = await openChatSocket(base);
    expect((await idle.closed).code).toBe(CHAT_CLOSE.unauthorized);
  });

  test('a frame over 4 KiB closes with 1009; a binary frame with 4400', async () => {
    const big = await signedInSocket(base, 'token-of-user-1-aaaaaaaaaaaa');
    big.raw(JSON.stringify({ type: 'ping', pad: 'x'.repeat(5000) }));
    expect((await big.closed).code).toBe(1009);
    const binary = await signedInSocket(base, 'token-of-user-1-aaaaaaaaaaaa');
    binary.raw(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(CHAT_CLOSE.badFrame);
  });

  test('a socket whose session ended is closed at the next heartbeat with 4401', async () => {
    const token = 'token-of-user-3-aaaaaaaaaaaa';
    live.add(token);
    const socket = await signedInSocket(base, token);
    live.delete(token);
    expect((await socket.closed).code).toBe(CHAT_CLOSE.unauthorized);
  });
});
