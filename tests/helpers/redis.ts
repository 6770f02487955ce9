/** The tests' Redis: TEST_REDIS_URL (default redis://127.0.0.1:6379), and whether it answers. */
import { redisCounterStore } from '../../server/security/counters.js';

export const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** True when the tests' Redis answers (callers print a SKIPPED line when it does not). */
export function redisReachable(): Promise<boolean> {
  return redisCounterStore(REDIS_URL).then(
    async (store) => {
      await store.close();
      return true;
    },
    () => false,
  );
}
