/**
 * How chat deliveries reach every instance's sockets (docs/protocol.md §35.3): each committed
 * message, read mark and conversation change is published once; every instance (the publishing
 * one too, by the same path) hands it to its own sockets. In one process without REDIS_URL; with
 * it, through the Redis channel `<prefix>chat` (ioredis pub/sub, as the session evictions).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { openRedisChannel } from '../security/redis-channel.js';
import {
  adminChatConversationSchema,
  adminChatMessageSchema,
  CHAT_SENDERS,
  type AdminChatConversation,
  type AdminChatMessage,
  type ChatSender,
} from '../../contract/api/chat.js';
import { closeRedis } from '../redis.js';

export type ChatEvent =
  | { kind: 'message'; userId: number; message: AdminChatMessage }
  | { kind: 'read'; userId: number; by: ChatSender; seq: number }
  | { kind: 'conversation'; userId: number; conversation: AdminChatConversation };

const chatEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), userId: z.number().int(), message: adminChatMessageSchema }),
  z.object({
    kind: z.literal('read'),
    userId: z.number().int(),
    by: z.enum(CHAT_SENDERS),
    seq: z.number().int(),
  }),
  z.object({
    kind: z.literal('conversation'),
    userId: z.number().int(),
    conversation: adminChatConversationSchema,
  }),
]);

export interface ChatBusHandlers {
  /** An event from any instance. */
  event(event: ChatEvent): void;
  /** Events may have been missed (the subscription dropped and is back): sockets catch up from the database. */
  resync(): void;
}

export interface ChatBus {
  /** Sends to every instance (this one too); never throws (the event is committed: sockets catch up by seq). */
  publish(event: ChatEvent): Promise<void>;
  /** Sets who receives; one receiver per bus. */
  listen(handlers: ChatBusHandlers): void;
  close(): Promise<void>;
}

/** One process: a publish is handed over at once. */
export function memoryChatBus(): ChatBus {
  let handlers: ChatBusHandlers | null = null;
  return {
    publish(event) {
      handlers?.event(event);
      return Promise.resolve();
    },
    listen(next) {
      handlers = next;
    },
    close: () => Promise.resolve(),
  };
}

/** Every instance through the Redis channel `channel`. Throws when Redis cannot be reached. */
export async function redisChatBus(url: string, channel: string): Promise<ChatBus> {
  const clientName = `coffer-chat-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  let handlers: ChatBusHandlers | null = null;
  const { publisher, subscriber } = await openRedisChannel(
    url,
    channel,
    clientName,
    chatEventSchema,
    (event) => handlers?.event(event),
  );
  // ioredis resubscribes after a reconnection; what was published meanwhile is lost, so every
  // socket reads what it missed from the database (by seq) once the subscription is back.
  let wasReady = true;
  subscriber.on('close', () => {
    wasReady = false;
  });
  subscriber.on('ready', () => {
    if (!wasReady) handlers?.resync();
    wasReady = true;
  });
  return {
    async publish(event) {
      await publisher.publish(channel, JSON.stringify(event)).catch(() => undefined);
    },
    listen(next) {
      handlers = next;
    },
    async close() {
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)]);
    },
  };
}
