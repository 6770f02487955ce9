/**
 * Two API instances on one PostgreSQL database and one Redis, behind a round-robin load balancer
 * of the test's own ("past one machine"): a user registered through one reads through
 * the other; a command sent to one instance and retried (same Idempotency-Key) to the other takes
 * effect once, money included, with the ledger check passing; a job run at the same moment on both
 * runs once (its advisory lock), and again on neither; a logout through one is refused at once on
 * the other. Needs PostgreSQL and Redis: without either it reports a clear skip.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import { createPostgresDatabase, postgresReachable } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { withdrawFixtures } from '../helpers/withdraw.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const redisUp = await redisReachable();
const postgresUp = await postgresReachable();
if (!redisUp || !postgresUp)
  console.warn(
    `[two-instances] SKIPPED: needs PostgreSQL at 127.0.0.1:5432 (${postgresUp ? 'up' : 'down'}) and Redis at ${REDIS_URL} (${redisUp ? 'up' : 'down'})`,
  );

/** A round-robin HTTP load balancer in front of the instances' Fastify apps; counts what each served. */
async function balancer(instances: readonly TestServer[]) {
  const served = instances.map(() => 0);
  let next = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = next++ % instances.length;
      served[index] = (served[index] ?? 0) + 1;
      const headers = { ...request.headers };
      delete headers['content-length'];
      void instances[index]?.server.app
        .inject({
          method: request.method === 'GET' ? 'GET' : 'POST',
          url: request.url ?? '/',
          headers,
          payload: Buffer.concat(chunks),
        })
        .then((answer) => {
          response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type']) });
          response.end(answer.rawPayload);
        });
    });
  });
  const port = await listenOnLoopback(server);
  const call = async (uri: string, params: Record<string, unknown>, token?: string, key?: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${uri}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
        'accept-language': 'en',
      },
      body: JSON.stringify(params),
    });
    return (await response.json()) as { code: number; message: string; data: Record<string, unknown> | null };
  };
  return { call, served, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!redisUp || !postgresUp)('two API instances on one PostgreSQL and Redis', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: TestServer;
  let b: TestServer;
  let lb: Awaited<ReturnType<typeof balancer>>;
  const fixtures = withdrawFixtures(() => a);

  beforeAll(async () => {
    database = await createPostgresDatabase();
    a = await startTestServer('postgres', { DATABASE_URL: database.url, REDIS_URL });
    b = await startTestServer('postgres', { DATABASE_URL: database.url, REDIS_URL });
    lb = await balancer([a, b]);
  }, 120_000);

  afterAll(async () => {
    await lb?.close();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  test('a user registered through one instance reads through both, the balancer alternating', async () => {
    const { token } = await a.register('plain', `both-${Date.now()}@example.com`);
    const before = [...lb.served];
    for (let i = 0; i < 4; i += 1) expect((await lb.call('/api/v1/user/info', {}, token)).code).toBe(200);
    expect(lb.served.map((count, index) => count - (before[index] ?? 0))).toEqual([2, 2]);
  });

  test('a transfer sent to one instance and retried to the other with its key moves the money once; ledger check passes', async () => {
    const [finance] = await fixtures.operators(`two-${Date.now()}`);
    const { token } = await a.register('plain', `money-${Date.now()}@example.com`);
    const accounts = await a.call<{ items: { id: string; kind: string }[] }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token },
    );
    const main = accounts.data.items.find((account) => account.kind === 'main')?.id ?? '';
    await fixtures.fund(finance, main, '100');
    const subKey = newKey();
    const created = await a.call(
      'plain',
      '/api/v1/account/createSubAccount',
      { name: 'Savings' },
      { token, key: subKey },
    );
    const again = await b.call(
      'plain',
      '/api/v1/account/createSubAccount',
      { name: 'Savings' },
      { token, key: subKey },
    );
    expect(created.code, created.message).toBe(200);
    expect(again).toEqual(created);
    const listed = await b.call<{ items: { id: string; kind: string }[] }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token },
    );
    const subs = listed.data.items.filter((account) => account.kind === 'sub');
    expect(subs).toHaveLength(1);

    const key = newKey();
    const params = { fromAccountId: main, toAccountId: subs[0]?.id ?? '', asset: 'USDT', amount: '40' };
    const first = await a.call('plain', '/api/v1/account/transfer', params, { token, key });
    const retried = await b.call('plain', '/api/v1/account/transfer', params, { token, key });
    expect(first.code, first.message).toBe(200);
    expect(retried).toEqual(first);
    const assets = await b.call<{ cash: string }>(
      'plain',
      '/api/v1/user/assets',
      { accountId: main },
      { token },
    );
    expect(assets.data.cash).toBe('60');
    await fixtures.expectLedgerOk(finance);
  });

  test('a job run at the same moment on both instances runs once, and again on neither', async () => {
    const results = await Promise.all([
      a.server.scheduler.runNow('hosting-accrual'),
      b.server.scheduler.runNow('hosting-accrual'),
    ]);
    const statuses = results.map((result) => result.status).sort();
    expect(statuses.filter((status) => status === 'done')).toHaveLength(1);
    expect(
      statuses
        .filter((status) => status !== 'done')
        .every((s) => s === 'locked_elsewhere' || s === 'already_done'),
    ).toBe(true);
    for (const t of [a, b])
      expect((await t.server.scheduler.runNow('hosting-accrual')).status).toBe('already_done');
  });

  test('a logout through one instance is refused at once on the other', async () => {
    const { token } = await a.register('plain', `logout-${Date.now()}@example.com`);
    expect((await b.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(200);
    expect((await a.call('plain', '/api/v1/sso/logout', {}, { token, key: newKey() })).code).toBe(200);
    expect((await b.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(401);
  });
});
