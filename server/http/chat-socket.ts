/**
 * The chat sockets (docs/protocol.md §35.3, §35.4): `/api/v1/chat/socket` for customers and
 * `/api/admin/chat/socket` for the agents' desk, on @fastify/websocket (ws). The first frame
 * authenticates with the same session service as the HTTP calls (never a token in the URL); the
 * hub then sends what happens. Each socket's frames are handled one at a time; garbage, floods,
 * a late or wrong `auth` and dead peers close that socket only.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import {
  adminChatClientFrameSchema,
  CHAT_AUTH_TIMEOUT_MS,
  CHAT_CLOSE,
  CHAT_FRAME_MAX_BYTES,
  CHAT_FRAMES_PER_MINUTE,
  CHAT_HEARTBEAT_MS,
  chatClientFrameSchema,
} from '../../contract/api/chat.js';
import type { Caller } from '../core/context.js';
import type { ChatHub, ChatLink, CustomerStream } from '../services/chat-hub.js';
import { OperatorService } from '../services/operator.service.js';
import type { SessionService } from '../services/session.service.js';

export const CHAT_SOCKET_PATH = '/api/v1/chat/socket';
export const ADMIN_CHAT_SOCKET_PATH = '/api/admin/chat/socket';

export interface ChatSocketOptions {
  /** Tests shorten these. */
  heartbeatMs?: number;
  authTimeoutMs?: number;
}

interface Live {
  socket: WebSocket;
  alive: boolean;
  token: string | null;
  close(code: number, reason: string): void;
}

const OPEN = 1;

/** What a socket reads of a client frame (the customer's and the desk's frames alike). */
interface ClientFrame {
  type: string;
  token?: string | undefined;
  afterSeq?: number | undefined;
}

/** Registers the plugin and both socket routes; call before the app's other routes are ready. */
export async function registerChatSockets(
  app: FastifyInstance,
  deps: { sessions: SessionService; hub: ChatHub },
  options: ChatSocketOptions = {},
): Promise<void> {
  const heartbeatMs = options.heartbeatMs ?? CHAT_HEARTBEAT_MS;
  const authTimeoutMs = options.authTimeoutMs ?? CHAT_AUTH_TIMEOUT_MS;
  await app.register(websocket, { options: { maxPayload: CHAT_FRAME_MAX_BYTES } });
  const sockets = new Set<Live>();

  // The heartbeat: a socket that did not answer the last ping is dropped; a session ended
  // meanwhile (signed out, revoked, frozen) closes its sockets.
  const heartbeat = setInterval(() => {
    for (const live of sockets) {
      if (!live.alive) {
        live.socket.terminate();
        continue;
      }
      live.alive = false;
      live.socket.ping();
      if (live.token !== null)
        void deps.sessions.authenticate(live.token).then(
          (caller) => {
            if (!caller || caller.kind === 'anonymous') live.close(CHAT_CLOSE.unauthorized, 'session ended');
          },
          () => undefined,
        );
    }
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const live of sockets) live.socket.terminate();
  });

  const serve = (
    socket: WebSocket,
    frameSchema: z.ZodType<ClientFrame>,
    admit: (
      caller: Caller | null,
      link: ChatLink,
    ) => { onFrame(frame: ClientFrame): void; gone(): void } | number,
  ) => {
    let frames = 0;
    let windowStart = Date.now();
    let session: ReturnType<typeof admit> | null = null;
    let chain: Promise<void> = Promise.resolve();
    let closed = false;
    const live: Live = {
      socket,
      alive: true,
      token: null,
      close(code, reason) {
        if (closed) return;
        closed = true;
        if (socket.readyState === OPEN) socket.send(JSON.stringify({ type: 'error', code, message: reason }));
        socket.close(code, reason);
      },
    };
    const link: ChatLink = {
      send(frame) {
        if (!closed && socket.readyState === OPEN) socket.send(JSON.stringify(frame));
      },
      close: (code, reason) => live.close(code, reason),
    };
    sockets.add(live);
    const timer = setTimeout(() => {
      if (session === null) live.close(CHAT_CLOSE.unauthorized, 'no auth frame');
    }, authTimeoutMs);
    socket.on('pong', () => {
      live.alive = true;
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      sockets.delete(live);
      if (session !== null && typeof session !== 'number') session.gone();
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', (data, isBinary) => {
      if (closed) return;
      const now = Date.now();
      if (now - windowStart >= 60_000) {
        windowStart = now;
        frames = 0;
      }
      frames += 1;
      if (frames > CHAT_FRAMES_PER_MINUTE) return live.close(CHAT_CLOSE.flood, 'too many frames');
      let frame: ClientFrame | null = null;
      if (!isBinary) {
        try {
          const parsed = frameSchema.safeParse(
            JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data)),
          );
          frame = parsed.success ? parsed.data : null;
        } catch {
          frame = null;
        }
      }
      if (frame === null) return live.close(CHAT_CLOSE.badFrame, 'bad frame');
      live.alive = true;
      const current = frame;
      chain = chain.then(async () => {
        if (closed) return;
        if (session === null) {
          if (current.type !== 'auth' || current.token === undefined)
            return live.close(CHAT_CLOSE.badFrame, 'auth first');
          session = 0; // authenticating: further frames wait on the chain
          const caller = await deps.sessions.authenticate(current.token).catch(() => null);
          if (closed) return;
          const admitted = admit(caller, link);
          if (typeof admitted === 'number') return live.close(admitted, 'not allowed');
          session = admitted;
          live.token = current.token;
          return;
        }
        if (typeof session === 'number' || current.type === 'auth')
          return live.close(CHAT_CLOSE.badFrame, 'auth once');
        if (current.type === 'ping') return link.send({ type: 'pong' });
        session.onFrame(current);
      });
    });
  };

  app.get(CHAT_SOCKET_PATH, { websocket: true, schema: { hide: true } }, (socket) =>
    serve(socket, chatClientFrameSchema, (caller, link) => {
      if (!caller || caller.kind !== 'user') return CHAT_CLOSE.unauthorized;
      const stream: CustomerStream = deps.hub.addCustomer(caller.userId, link);
      return {
        onFrame(frame) {
          if (frame.type === 'resume' && frame.afterSeq !== undefined) stream.resume(frame.afterSeq);
        },
        gone: () => deps.hub.removeCustomer(stream),
      };
    }),
  );

  app.get(ADMIN_CHAT_SOCKET_PATH, { websocket: true, schema: { hide: true } }, (socket) =>
    serve(socket, adminChatClientFrameSchema, (caller, link) => {
      if (!caller || caller.kind !== 'operator') return CHAT_CLOSE.unauthorized;
      if (!OperatorService.allowed(caller.role, ['support']) || caller.setupRequired)
        return CHAT_CLOSE.forbidden;
      deps.hub.addAgent(caller.operatorId, link);
      return { onFrame: () => undefined, gone: () => deps.hub.removeAgent(caller.operatorId, link) };
    }),
  );
}
