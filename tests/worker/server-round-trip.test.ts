/**
 * The worker against the real server (PGlite), through both transports: its fetch goes to
 * Fastify's inject, so the envelope is opened by the server's own gateway.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { openSessionDb, type SessionDb } from '../../client-db/session-db.js';
import { createHandlers } from '../../worker/handlers/index.js';
import { DexieSessionStore } from '../../worker/session.js';
import type { Mode } from './fake-api.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const en = z
  .object({ server: z.object({ logged_in: z.string(), registered: z.string() }).loose() })
  .loose()
  .parse(JSON.parse(readFileSync(new URL('../../locales/en.json', import.meta.url), 'utf8')));

let t: TestServer;
let db: SessionDb;

beforeAll(async () => {
  t = await startTestServer('pglite');
  db = openSessionDb();
});

afterAll(async () => {
  // Either may be missing when the server failed to start.
  db?.close();
  await t?.close();
});

beforeEach(async () => {
  await db.session.clear();
  await db.prefs.clear();
});

/** A fetch that hands each request to the server in-process; `loseAnswers` drops that many answers after the server ran the call. */
function serverFetch(options: { loseAnswers?: number } = {}) {
  let toLose = options.loseAnswers ?? 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const target = input instanceof Request ? input.url : input.toString();
    const request = new Request(new URL(target, 'http://coffer.test'), init);
    const url = new URL(request.url);
    const headers = Object.fromEntries(request.headers.entries());
    const method = request.method === 'GET' ? 'GET' : 'POST';
    const body = method === 'GET' ? undefined : await request.text();
    const response = await t.server.app.inject({
      method,
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress: '203.0.113.77',
      ...(body === undefined ? {} : { payload: body }),
    });
    if (toLose > 0) {
      toLose--;
      throw new TypeError('fetch failed'); // the answer was lost on the way back
    }
    return new Response(response.body, {
      status: response.statusCode,
      headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') },
    });
  };
  return fetch;
}

function worker(mode: Mode, fetch = serverFetch()) {
  const session = new DexieSessionStore(db);
  const handlers = createHandlers({
    transport: { mode, gatewayPath: '/api/gw', fetch, nowSeconds: () => t.clock.now().getTime() / 1000 },
    session,
    queue: { sleep: async () => {} },
  });
  return { handlers, session };
}

describe.each(['envelope', 'plain'] as const)('through the %s transport', (mode) => {
  const email = (name: string) => `${name}.${mode}@example.com`;

  test('a user registers, reads the profile, logs out (the token then fails) and logs in again', async () => {
    const { handlers } = worker(mode);
    const address = email('alice');
    expect(await handlers['session-set-locale']({ locale: 'en' })).toMatchObject({ kind: 'ok' });

    const sent = await handlers['auth-send-register-code']({ email: address });
    expect(sent).toMatchObject({ kind: 'ok', data: { resendAfter: 60 } });
    const checked = await handlers['auth-check-register-info']({ email: address, inviteCode: t.rootInvite });
    expect(checked).toMatchObject({ kind: 'ok', data: { valid: true } });

    const registered = await handlers['auth-register']({
      email: address,
      code: t.mailer.lastCode(address),
      inviteCode: t.rootInvite,
      password: 'secret123',
      confirmPassword: 'secret123',
    });
    expect(registered).toMatchObject({ kind: 'ok', message: en.server.registered });
    if (registered.kind !== 'ok') throw new Error('not registered');
    const token = registered.data.token;
    expect(await handlers['session-get']()).toEqual({
      token,
      userId: registered.data.userId,
      email: address,
      locale: 'en',
    });

    const info = await handlers['user-info']();
    expect(info).toMatchObject({
      kind: 'ok',
      data: {
        id: registered.data.userId,
        email: address,
        kycStatus: 'not_verified',
        tradePasswordSet: false,
      },
    });

    expect(await handlers['auth-logout']()).toMatchObject({ kind: 'ok', data: { done: true } });
    expect(await handlers['session-get']()).toMatchObject({ token: null });
    const stale = await t.call('plain', '/api/v1/user/info', {}, { token, method: 'GET' });
    expect(stale.code).toBe(401);

    const login = await handlers['auth-login']({ email: address, password: 'secret123' });
    expect(login).toMatchObject({ kind: 'ok', message: en.server.logged_in });
    expect(await handlers['user-info']()).toMatchObject({ kind: 'ok', data: { email: address } });
  });

  test('a revoked token stored in the session gets 401 from the server and is cleared', async () => {
    const { handlers, session } = worker(mode);
    const { token, userId } = await t.register(mode, email('bob'));
    await t.call(mode, '/api/v1/sso/logout', {}, { token, key: crypto.randomUUID() });
    await session.saveSession({ token, userId, email: email('bob') });
    expect(await handlers['user-info']()).toMatchObject({ kind: 'refused', code: 401 });
    expect(await session.getSession()).toBeNull();
  });

  test('a command whose answer was lost is retried with its key and the server replays it, not 429', async () => {
    const { handlers } = worker(mode, serverFetch({ loseAnswers: 1 }));
    const address = email('carol');
    const sent = await handlers['auth-send-register-code']({ email: address });
    expect(sent).toMatchObject({ kind: 'ok', data: { resendAfter: 60 } });
    expect(t.mailer.sent.filter((mail) => mail.to === address)).toHaveLength(1);
  });

  test('public reads answer without a session', async () => {
    const { handlers } = worker(mode);
    expect(await handlers['common-config']()).toMatchObject({ kind: 'ok', data: { passwordMinLength: 6 } });
    expect(await handlers['common-version']()).toMatchObject({ kind: 'ok', data: { version_code: 10020 } });
    const languages = await handlers['common-lang']();
    expect(languages.kind === 'ok' ? languages.data.items.map((item) => item.code) : []).toContain('FH');
  });
});

test('a stale envelope (device clock 10 minutes off) is refused unsealed with 460 and not retried', async () => {
  let posts = 0;
  const counting: typeof fetch = (input, init) => {
    posts++;
    return serverFetch()(input, init);
  };
  const handlers = createHandlers({
    transport: {
      mode: 'envelope',
      gatewayPath: '/api/gw',
      fetch: counting,
      nowSeconds: () => t.clock.now().getTime() / 1000 - 600,
    },
    session: new DexieSessionStore(db),
    queue: { sleep: async () => {} },
  });
  expect(await handlers['common-version']()).toMatchObject({ kind: 'refused', code: 460, data: null });
  expect(posts).toBe(1);
});
