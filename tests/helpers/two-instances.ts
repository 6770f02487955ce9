/**
 * Two Coffer instances sharing one new PostgreSQL database and the test Redis, as production runs
 * several behind a balancer: made per test and closed (the database dropped) after it.
 */
import { afterEach } from 'vitest';
import { createPostgresDatabase } from './database.js';
import { REDIS_URL } from './redis.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * Registers the clean-up in the calling `describe` and returns the maker of a pair; `secondEnv`
 * changes the second instance's environment (e.g. its REDIS_URL through a proxy a test cuts).
 */
export function twoInstancesPerTest(): (
  secondEnv?: Record<string, string>,
) => Promise<[TestServer, TestServer]> {
  const started: TestServer[] = [];
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await server.close();
    for (const drop of drops.splice(0)) await drop();
  });
  return async (secondEnv = {}) => {
    const database = await createPostgresDatabase();
    drops.push(database.drop);
    const env = { DATABASE_URL: database.url, REDIS_URL };
    const a = await startTestServer('postgres', env);
    started.push(a);
    const b = await startTestServer('postgres', { ...env, ...secondEnv });
    started.push(b);
    return [a, b];
  };
}
