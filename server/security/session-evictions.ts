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
 * How long a publish waits for every instance that received its message to say it has dropped
 * the keys, before it answers anyway (an instance that died meanwhile, or one of a version that
 * does not acknowledge). On a loaded machine the round can take more than a quarter second.
 */
const ACK_WAIT_MS = 2_000;

const evictionMessageSchema = z.object({
  id: z.string(),
  tokenHashes: z.array(z.string()),
  userIds: z.array(z.number().int()).default([]),
});
/** An instance's word that it has dropped the keys of eviction `ack` from its caches. */
const ackMessageSchema = z.object({ ack: z.string() });
const channelMessageSchema = z.union([evictionMessageSchema, ackMessageSchema]);

/** What is evicted: sessions' token hashes and users' profiles. */
export interface EvictedKeys {
  tokenHashes: readonly string[];
  userIds: readonly number[];
}

/** What an eviction handler is given: the keys, or `'all'` when messages may have been missed. */
export type Eviction = EvictedKeys | 'all';

export interface EvictionChannel {
  /**
   * Sends the keys to every subscribed instance (this one too). Resolves once every subscriber
   * Redis handed the message to has acknowledged it (each drops the keys, then publishes an ack),
   * so no instance serves a revoked token after the revocation's answer; or after ACK_WAIT_MS, or
   * at once while this instance cannot hear Redis (no ack would reach it). Never throws: the
   * revocation is already committed, and an instance that cannot hear Redis does not cache
   * (`listening`).
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
  /** This instance's evictions waiting for their acks, by id. */
  const waiting = new Map<string, AckCount>();
  const { publisher, subscriber } = await openRedisChannel(
    url,
    channel,
    clientName,
    channelMessageSchema,
    (message) => {
      if ('ack' in message) {
        waiting.get(message.ack)?.add();
        return;
      }
      onEvict({ tokenHashes: message.tokenHashes, userIds: message.userIds });
      void publisher.publish(channel, JSON.stringify({ ack: message.id })).catch(() => undefined);
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
      const message = JSON.stringify({ id, tokenHashes, userIds });
      if (subscriber.status !== 'ready') {
        void publisher.publish(channel, message).catch(() => undefined);
        return;
      }
      const acks = new AckCount();
      waiting.set(id, acks);
      // PUBLISH answers how many subscribers Redis handed the message to: each of them acks.
      acks.expect(await publisher.publish(channel, message).catch(() => 0));
      await acks.all(ACK_WAIT_MS);
      waiting.delete(id);
    },
    async close() {
      for (const acks of waiting.values()) acks.end();
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)]);
    },
  };
}

/** The acks of one eviction: resolves `all` once as many came as Redis had receivers. */
class AckCount {
  #count = 0;
  #expected = Number.POSITIVE_INFINITY;
  #end: () => void = () => undefined;
  readonly #ended = new Promise<void>((resolve) => (this.#end = resolve));

  add(): void {
    this.#count += 1;
    if (this.#count >= this.#expected) this.#end();
  }

  expect(receivers: number): void {
    this.#expected = receivers;
    if (this.#count >= receivers) this.#end();
  }

  end(): void {
    this.#end();
  }

  async all(timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#ended,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }
}
