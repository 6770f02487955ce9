/** Rate limits answer 200 with code 429, and with REDIS_URL the limits and the replay cache are shared. */
import { afterEach, describe, expect, test } from 'vitest';
import { sealRequest } from '../../server/http/envelope-codec.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { REDIS_URL, redisReachable } from '../helpers/redis.js';

const redisUp = await redisReachable();
if (!redisUp) console.warn(`[limits] SKIPPED the shared-instance tests: no Redis at ${REDIS_URL}`);

describe('limits', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  test('past the per-client request limit, calls answer HTTP 200 with code 429 and data.retryAfter', async () => {
    const t = await startTestServer('pglite', { COFFER_RATE_LIMIT: '5' });
    servers.push(t);
    const answers = [];
    for (let i = 0; i < 7; i += 1)
      answers.push(await t.call('plain', '/api/v1/common/config', {}, { ip: '192.0.2.200', lang: 'EN' }));
    expect(answers.slice(0, 5).every((answer) => answer.code === 200)).toBe(true);
    expect(answers[6]).toMatchObject({ code: 429, data: { retryAfter: expect.any(Number) } });
    expect(answers[6]?.message).toMatch(/^Too many requests/);
    expect((await t.call('plain', '/api/v1/common/config', {}, { ip: '192.0.2.201' })).code).toBe(200);
  });

  test.skipIf(!redisUp)(
    'with REDIS_URL two instances share the envelope replay cache and lockouts',
    async () => {
      const a = await startTestServer('pglite', { REDIS_URL });
      const b = await startTestServer('pglite', { REDIS_URL });
      servers.push(a, b);
      const fields = sealRequest(
        { method: 'GET', uri: '/api/v1/common/version', headers: {}, params: {} },
        a.clock.now(),
      );
      const post = (t: TestServer) =>
        t.server.app.inject({
          method: 'POST',
          url: '/api/gw',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ ...fields }).toString(),
        });
      expect(JSON.parse((await post(a)).body).code).toBe(200);
      expect(JSON.parse((await post(b)).body).code).toBe(460);
      const email = `shared-${Date.now()}@example.com`;
      for (let i = 0; i < 5; i += 1)
        await a.call(
          'plain',
          '/api/v1/sso/emailLogin',
          { email, password: 'wrongpass' },
          { ip: '192.0.2.210' },
        );
      expect(
        (
          await b.call(
            'plain',
            '/api/v1/sso/emailLogin',
            { email, password: 'wrongpass' },
            { ip: '192.0.2.211' },
          )
        ).code,
      ).toBe(423);
    },
  );
});
