/** What every Redis client of the server shares (ioredis). */
import type { Redis } from 'ioredis';

/**
 * Ends a client: politely (QUIT) when it is connected, at once when it is not. A shutdown never
 * waits on, or fails for, a Redis that is gone: ioredis would queue the QUIT until it reconnects
 * and then reject it, and the rest of the shutdown (the database's pool) would not run.
 */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // the link went while quitting: cut it below
    }
  }
  redis.disconnect();
}
