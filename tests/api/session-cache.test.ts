/**
 * The fast request path: a token's caller is resolved with one query, a live
 * session's repeats with none (an in-process cache), hot reads take a few queries, and every
 * revocation is refused at once, on this instance and, through Redis, on another one sharing
 * the database.
 */
import { describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import { availableTiers, postgresReachable } from '../helpers/database.js';
import { newKey, type TestServer, useTestServer } from '../helpers/server.js';
import { twoInstancesPerTest } from '../helpers/two-instances.js';
import { totpCode } from '../../server/security/totp.js';
import { LoopbackProxy } from '../e2e/proxy.js';

const tiers = await availableTiers('session-cache');
const redisUp = await redisReachable();
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

/** Waits (up to 10 s) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const okOrThrow = async (answer: Promise<{ code: number }>) => {
  const { code } = await answer;
  if (code !== 200) throw new Error(`answered ${code}`);
};

describe.each(tiers)('the caller cache on %s', (tier) => {
  const t = useTestServer(tier);

  test('a repeated authenticated user/info runs no query (its profile is cached too) and user/assets at most 3', async () => {
    const { token } = await t.register('plain', 'hot-reads@example.com');
    const info = () => okOrThrow(t.call('plain', '/api/v1/user/info', {}, { token }));
    const assets = () => okOrThrow(t.call('plain', '/api/v1/user/assets', {}, { token }));
    await info();
    for (let i = 0; i < 3; i += 1) {
      expect(await queriesDuring(t, info)).toBe(0);
      expect(await queriesDuring(t, assets)).toBeLessThanOrEqual(3);
    }
    t.clock.advance(6); // past the cache's life: read again (the caller and the profile, 2 queries, and at most the session's touch)
    expect(await queriesDuring(t, info)).toBeLessThanOrEqual(4);
    expect(await queriesDuring(t, info)).toBe(0);
  });

  test('sync/pull with nothing new runs 2 queries, news/list 1', async () => {
    const { token } = await t.register('plain', 'hot-pull@example.com');
    const first = await t.call<{ cursors: Record<string, string> }>(
      'plain',
      '/api/v1/sync/pull',
      {},
      { token },
    );
    expect(first.code).toBe(200);
    const again = () =>
      okOrThrow(t.call('plain', '/api/v1/sync/pull', { cursors: first.data.cursors }, { token }));
    await again();
    expect(await queriesDuring(t, again)).toBe(2);
    const news = () => okOrThrow(t.call('plain', '/api/v1/news/list', {}, { token }));
    await news();
    expect(await queriesDuring(t, news)).toBe(1);
  });

  test('every change user/info shows is seen at once, though its profile was cached a moment before', async () => {
    const { token } = await t.register('plain', 'info-changes@example.com');
    type Info = {
      email: string;
      lang: string;
      nickname: string;
      tradePasswordSet: boolean;
      authenticatorBound: boolean;
      antiPhishingSet: boolean;
      defaultAccountId: string;
      accounts: Array<{ id: string }>;
    };
    const info = async () => {
      const answer = await t.call<Info>('plain', '/api/v1/user/info', {}, { token });
      expect(answer.code).toBe(200);
      return answer.data;
    };
    const command = async (uri: string, params: Record<string, unknown>) => {
      const answer = await t.call<{ id?: string }>('plain', uri, params, { token, key: newKey() });
      expect(answer.code, answer.message).toBe(200);
      return answer.data;
    };
    const before = await info();
    expect(await queriesDuring(t, info)).toBe(0); // cached

    await command('/api/v1/user/name-update', { nickname: 'Renamed' });
    expect((await info()).nickname).toBe('Renamed');

    await command('/api/v1/user/bindTradePassword', {
      tradePassword: 'trade123',
      confirmPassword: 'trade123',
    });
    expect((await info()).tradePasswordSet).toBe(true);

    const key = await t.call<{ secret: string }>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    await command('/api/v1/user/bindGoogle2Fa', { code: await totpCode(key.data.secret, t.clock.now()) });
    expect((await info()).authenticatorBound).toBe(true);

    const sub = await command('/api/v1/account/createSubAccount', { name: 'Savings' });
    expect((await info()).accounts.map((account) => account.id)).toEqual([
      ...before.accounts.map((account) => account.id),
      sub.id,
    ]);

    await command('/api/v1/account/switch', { accountId: sub.id });
    expect((await info()).defaultAccountId).toBe(sub.id);

    t.clock.advance(30); // the authenticator's next step
    await command('/api/v1/user/anti-phishing', {
      code: 'Cache7Fox',
      googleCode: await totpCode(key.data.secret, t.clock.now()),
    });
    expect((await info()).antiPhishingSet).toBe(true);

    // A sign-in elsewhere in another language: the language last used.
    const signIn = { email: 'info-changes@example.com', password: 'secret123' };
    expect((await t.call('plain', '/api/v1/sso/emailLogin', signIn, { lang: 'EN' })).code).toBe(200);
    expect((await info()).lang).toBe('en');

    const newEmail = 'info-changed@example.com';
    await command('/api/v1/user/sendEmailUpdateCode', { newEmail });
    await command('/api/v1/user/email-update', {
      newEmail,
      oldCode: t.mailer.lastCode('info-changes@example.com'),
      newCode: t.mailer.lastCode(newEmail),
    });
    expect((await info()).email).toBe(newEmail);
    expect(await queriesDuring(t, info)).toBe(0); // and cached again
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
  const twoInstances = twoInstancesPerTest();

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
    'a profile change through one instance is seen at once through the other, which had the profile cached',
    async () => {
      const [a, b] = await twoInstances();
      const { token } = await a.register('plain', 'two-instances-profile@example.com');
      const nickname = async (server: TestServer) =>
        (await server.call<{ nickname: string }>('plain', '/api/v1/user/info', {}, { token })).data.nickname;
      await nickname(b);
      expect(await queriesDuring(b, () => nickname(b))).toBe(0); // b answers from its cache
      const renamed = await a.call(
        'plain',
        '/api/v1/user/name-update',
        { nickname: 'Elsewhere' },
        { token, key: newKey() },
      );
      expect(renamed.code).toBe(200);
      expect(await nickname(b)).toBe('Elsewhere');
    },
  );

  test.skipIf(!redisUp || !postgresUp)(
    'while an instance cannot hear Redis it caches nothing, so a logout it did not hear is refused at once; once it hears again it caches again',
    async () => {
      // b reaches Redis through a proxy the test cuts, as a network fault would.
      const proxy = await LoopbackProxy.start(new URL(REDIS_URL));
      try {
        const [a, b] = await twoInstances({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
        const { sessions } = b.server.services;
        const { token } = await a.register('plain', 'redis-down@example.com');
        const info = (each: string) => okOrThrow(b.call('plain', '/api/v1/user/info', {}, { token: each }));
        await info(token);
        expect(await queriesDuring(b, () => info(token))).toBe(0); // b holds the caller and the profile

        proxy.down();
        await until(() => !sessions.evictionsHeard);
        // The logout's message never reaches b, which held the token a moment ago: refused anyway.
        expect((await a.call('plain', '/api/v1/sso/logout', {}, { token })).code).toBe(200);
        expect((await b.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.notLoggedIn);
        // Deaf, b caches nothing: every read asks the database.
        const { token: other } = await a.register('plain', 'redis-down-2@example.com');
        await info(other);
        expect(await queriesDuring(b, () => info(other))).toBeGreaterThan(0);
        expect(await queriesDuring(b, () => info(other))).toBeGreaterThan(0);

        proxy.up();
        await until(() => sessions.evictionsHeard);
        await info(other);
        expect(await queriesDuring(b, () => info(other))).toBe(0); // caching again

        // Redis gone for good: b still shuts down whole after the test (its Redis clients cut, its
        // database closed), instead of its QUIT waiting for a reconnection and failing.
        await proxy.close();
        await until(() => !sessions.evictionsHeard);
      } finally {
        await proxy.close();
      }
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
