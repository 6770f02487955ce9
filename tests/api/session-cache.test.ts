/**
 * The fast request path (issue 15): a token's caller is resolved with one query, a live
 * session's repeats with none (an in-process cache), hot reads take a few queries, and every
 * revocation is refused at once, on this instance and, through Redis, on another one sharing
 * the database.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { redisCounterStore } from '../../server/security/counters.js';
import { availableTiers, createPostgresDatabase, postgresReachable } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('session-cache');
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const redisUp = await redisCounterStore(REDIS_URL).then(
  async (store) => {
    await store.close();
    return true;
  },
  () => false,
);
const postgresUp = await postgresReachable();
if (!redisUp || !postgresUp)
  console.warn(
    `[session-cache] SKIPPED the two-instance tests: ${[!redisUp && `no Redis at ${REDIS_URL}`, !postgresUp && 'no PostgreSQL'].filter(Boolean).join(', ')}`,
  );

interface CountingClient {
  query: (...args: unknown[]) => Promise<unknown>;
}

/** The SQL statements the server's database runs during `action` (reads run outside transactions). */
async function queriesDuring(t: TestServer, action: () => Promise<unknown>): Promise<number> {
  // drizzle keeps its driver (a PGlite, or pg's Pool) as $client and sends each statement through its query().
  const client = (t.server.database.db as unknown as { $client: CountingClient }).$client;
  const original = client.query;
  let count = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    count += 1;
    return original.apply(this, args);
  };
  try {
    await action();
  } finally {
    client.query = original;
  }
  return count;
}

const okOrThrow = async (answer: Promise<{ code: number }>) => {
  const { code } = await answer;
  if (code !== 200) throw new Error(`answered ${code}`);
};

describe.each(tiers)('the caller cache on %s', (tier) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(tier);
  });
  afterAll(async () => {
    await t.close();
  });

  test('a repeated authenticated user/info runs at most 2 queries and user/assets at most 3', async () => {
    const { token } = await t.register('plain', 'hot-reads@example.com');
    const info = () => okOrThrow(t.call('plain', '/api/v1/user/info', {}, { token }));
    const assets = () => okOrThrow(t.call('plain', '/api/v1/user/assets', {}, { token }));
    await info();
    for (let i = 0; i < 3; i += 1) {
      expect(await queriesDuring(t, info)).toBeLessThanOrEqual(2);
      expect(await queriesDuring(t, assets)).toBeLessThanOrEqual(3);
    }
  });

  test('a token costs one query the first time, none while its session was seen in the last seconds, and its expiry still slides (one write a minute)', async () => {
    const { token } = await t.register('plain', 'one-query@example.com');
    const { sessions } = t.server.services;
    const header = `Bearer ${token}`;
    const first = await queriesDuring(t, () => sessions.authenticate(header));
    expect(first).toBe(1);
    expect(await queriesDuring(t, () => sessions.authenticate(header))).toBe(0);
    t.clock.advance(61); // past the cache's life and the touch interval: a read and the expiry's move
    expect(await queriesDuring(t, () => sessions.authenticate(header))).toBe(2);
    expect(await queriesDuring(t, () => sessions.authenticate(header))).toBe(0);
    expect(await sessions.authenticate(header)).toMatchObject({ kind: 'user' });
    // A month later the session has slid with its use: still live.
    t.clock.advance(29 * 24 * 3600);
    expect(await sessions.authenticate(header)).toMatchObject({ kind: 'user' });
    t.clock.advance(31 * 24 * 3600);
    expect(await sessions.authenticate(header)).toBeNull();
  });

  test('logout: the same token, its caller cached a moment ago, is refused at once', async () => {
    const { token } = await t.register('plain', 'cached-logout@example.com');
    expect((await t.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(200);
    expect((await t.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(200);
    expect((await t.call('plain', '/api/v1/sso/logout', {}, { token })).code).toBe(200);
    expect((await t.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.notLoggedIn);
    expect((await t.call('plain', '/api/v1/user/assets', {}, { token })).code).toBe(BodyCode.notLoggedIn);
  });

  test('a password reset: every cached token of the user is refused at once', async () => {
    const address = 'cached-reset@example.com';
    const { token } = await t.register('plain', address);
    const other = await t.call<{ token: string }>('plain', '/api/v1/sso/emailLogin', {
      email: address,
      password: 'secret123',
    });
    for (const each of [token, other.data.token])
      expect((await t.call('plain', '/api/v1/user/info', {}, { token: each })).code).toBe(200);
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: address });
    const code = t.mailer.lastCode(address);
    const reset = await t.call('plain', '/api/v1/sso/forgot', {
      email: address,
      code,
      password: 'newsecret',
      confirmPassword: 'newsecret',
    });
    expect(reset.code).toBe(200);
    for (const each of [token, other.data.token])
      expect((await t.call('plain', '/api/v1/user/info', {}, { token: each })).code).toBe(
        BodyCode.notLoggedIn,
      );
  });
});

describe('two instances on one PostgreSQL database and one Redis', () => {
  const started: TestServer[] = [];
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await server.close();
    for (const drop of drops.splice(0)) await drop();
  });

  async function twoInstances(): Promise<[TestServer, TestServer]> {
    const database = await createPostgresDatabase();
    drops.push(database.drop);
    const env = { DATABASE_URL: database.url, REDIS_URL };
    const a = await startTestServer('postgres', env);
    started.push(a);
    const b = await startTestServer('postgres', env);
    started.push(b);
    return [a, b];
  }

  test.skipIf(!redisUp || !postgresUp)(
    'a logout on one instance: the other, which had the caller cached, refuses the token at once',
    async () => {
      const [a, b] = await twoInstances();
      const { token } = await a.register('plain', 'two-instances@example.com');
      for (const each of [a, b, b])
        expect((await each.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(200);
      // b answers from its cache: no query resolves the caller.
      expect(await queriesDuring(b, () => b.server.services.sessions.authenticate(`Bearer ${token}`))).toBe(
        0,
      );
      expect((await a.call('plain', '/api/v1/sso/logout', {}, { token })).code).toBe(200);
      expect((await b.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.notLoggedIn);
      expect((await a.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.notLoggedIn);
    },
  );

  test.skipIf(!redisUp || !postgresUp)(
    'a password reset on one instance ends the user’s sessions cached on the other at once',
    async () => {
      const [a, b] = await twoInstances();
      const address = 'two-instances-reset@example.com';
      const { token } = await a.register('plain', address);
      expect((await b.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(200);
      await a.call('plain', '/api/v1/sso/sendForgetCode', { email: address });
      const reset = await a.call('plain', '/api/v1/sso/forgot', {
        email: address,
        code: a.mailer.lastCode(address),
        password: 'newsecret',
        confirmPassword: 'newsecret',
      });
      expect(reset.code).toBe(200);
      expect((await b.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.notLoggedIn);
    },
  );
});
