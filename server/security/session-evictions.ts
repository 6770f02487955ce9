/**
 * Evictions shared by every instance through Redis pub/sub (REDIS_URL): a revocation made on one
 * instance drops the token from every instance's caller cache at once, and a change to a user's
 * profile drops that user's cached profile (read-cache.ts).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { openRedisChannel } from './redis-channel.js';
import { closeRedis } from '../redis.js';

/** The channel every instance subscribes to. */
export const SESSION_EVICTION_CHANNEL = 'coffer:session-evictions';
/**
 * How long a publish waits for its own message to come back before it answers anyway. Redis
 * hands a message to every subscriber in one step, so the echo is the sign that the other
 * instances have it too; on a loaded machine it can take more than a quarter second, and an
 * answer sent before it would let another instance serve a revoked token a moment longer.
 */
const ECHO_WAIT_MS = 2_000;

const evictionMessageSchema = z.object({
  id: z.string(),
  tokenHashes: z.array(z.string()),
  userIds: z.array(z.number().int()).default([]),
});

/** What is evicted: sessions' token hashes and users' profiles. */
export interface EvictedKeys {
  tokenHashes: readonly string[];
  userIds: readonly number[];
}

/** What an eviction handler is given: the keys, or `'all'` when messages may have been missed. */
export type Eviction = EvictedKeys | 'all';

export interface EvictionChannel {
  /**
   * Sends the keys to every subscribed instance (this one too). Resolves once this instance
   * has received its own message back (Redis sent it to every subscriber in the same step), or
   * after ECHO_WAIT_MS, or at once while this instance cannot hear Redis (no echo would come);
   * never throws: the revocation is already committed, and an instance that cannot hear Redis
   * does not cache (`listening`).
   */
  publish(keys: EvictedKeys): Promise<void>;
  /** False while the subscription is down: messages may be missed, so callers must not be cached. */
  readonly listening: boolean;
  /** The subscriber's client name on the Redis server (CLIENT LIST), unique per channel. */
  readonly clientName: string;
  close(): Promise<void>;
}

/**
 * Subscribes to the eviction channel with ioredis (the same connection setup as the shared
 * counters, counters.ts) and calls `onEvict` for each message from any instance, and with `'all'`
 * after a reconnection, when messages may have been missed. Throws when Redis cannot be reached.
 */
export async function redisEvictionChannel(
  url: string,
  onEvict: (eviction: Eviction) => void,
  channel = SESSION_EVICTION_CHANNEL,
): Promise<EvictionChannel> {
  const clientName = `coffer-evictions-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const echoes = new Map<string, () => void>();
  const { publisher, subscriber } = await openRedisChannel(
    url,
    channel,
    clientName,
    evictionMessageSchema,
    (message) => {
      onEvict({ tokenHashes: message.tokenHashes, userIds: message.userIds });
      echoes.get(message.id)?.();
    },
  );
  // ioredis resubscribes by itself after a reconnection; what was sent meanwhile is lost. So
  // everything cached is forgotten the moment the subscription drops (nothing is cached while it
  // is down: `listening`) and again once it is back, for what was cached as it dropped.
  subscriber.on('close', () => onEvict('all'));
  subscriber.on('ready', () => onEvict('all'));
  return {
    get listening() {
      return subscriber.status === 'ready';
    },
    clientName,
    async publish({ tokenHashes, userIds }) {
      if (tokenHashes.length === 0 && userIds.length === 0) return;
      const id = crypto.randomUUID();
      const send = () =>
        void publisher.publish(channel, JSON.stringify({ id, tokenHashes, userIds })).catch(() => undefined);
      if (subscriber.status !== 'ready') return send();
      const echoed = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ECHO_WAIT_MS);
        echoes.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      send();
      await echoed;
      echoes.delete(id);
    },
    async close() {
      for (const resolve of echoes.values()) resolve();
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)]);
    },
  };
}
