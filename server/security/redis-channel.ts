/**
 * A Redis pub/sub channel shared by every instance (ioredis, connected as counters.ts connects):
 * a publisher and a named subscriber, both connected or neither. Each message that parses with
 * the channel's schema reaches `onMessage`; anything else on the channel is not ours and is
 * passed over.
 */
import type { Redis } from 'ioredis';
import type { z } from 'zod';

export interface RedisChannel {
  publisher: Redis;
  subscriber: Redis;
}

/** Subscribes `clientName` to `channel`; throws when Redis cannot be reached. */
export async function openRedisChannel<T>(
  url: string,
  channel: string,
  clientName: string,
  schema: z.ZodType<T>,
  onMessage: (message: T) => void,
): Promise<RedisChannel> {
  const { Redis } = await import('ioredis');
  const publisher = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
  const subscriber = new Redis(url, {
    maxRetriesPerRequest: 2,
    lazyConnect: true,
    connectionName: clientName,
  });
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw error;
  }
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: T;
    try {
      message = schema.parse(JSON.parse(text));
    } catch {
      return; // not ours: someone else wrote to the channel
    }
    onMessage(message);
  });
  await subscriber.subscribe(channel);
  return { publisher, subscriber };
}
