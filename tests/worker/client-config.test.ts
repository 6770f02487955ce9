/**
 * The worker reads its transport and gateway from the serving server before its first request
 * ("Configuration that cannot drift"): against the real server started with other
 * segments, through Fastify's inject; and what happens when the read fails or the gateway moves.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { versionDataSchema } from '../../contract/api/common.js';
import { CLIENT_CONFIG_PATH } from '../../contract/client-config.js';
import { clientConfigSource } from '../../worker/client-config.js';
import { sendOnce, type Call } from '../../worker/transport.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readVersion } from './fake-api.js';

/** A fetch into one test server that records each request's method and path. */
function serverFetch(server: () => TestServer, seen: string[]): typeof fetch {
  return async (input, init) => {
    const target = input instanceof Request ? input.url : input.toString();
    const request = new Request(new URL(target, 'http://coffer.test'), init);
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}`);
    const body = request.method === 'GET' ? undefined : await request.text();
    const response = await server().server.app.inject({
      method: request.method === 'GET' ? 'GET' : 'POST',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers.entries()),
      ...(body === undefined ? {} : { payload: body }),
    });
    return new Response(response.body, {
      status: response.statusCode,
      headers: { 'content-type': String(response.headers['content-type'] ?? 'application/json') },
    });
  };
}

const nowSeconds = () => Date.now() / 1000;

describe('the run-time client configuration, against the real server', () => {
  let first: TestServer;
  let second: TestServer;
  let current: TestServer;
  beforeAll(async () => {
    [first, second] = await Promise.all([
      startTestServer('pglite', { COFFER_GATEWAY_SEGMENT: 'gate7', COFFER_UPLOAD_SEGMENT: 'files7' }),
      startTestServer('pglite', { COFFER_GATEWAY_SEGMENT: 'gate8', COFFER_UPLOAD_SEGMENT: 'files8' }),
    ]);
    current = first;
  });
  /** The envelope's timestamp from the server's own (manual) clock. */
  const serverSeconds = () => current.clock.now().getTime() / 1000;
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  test('the first call reads /client-config.json, then goes through the envelope gateway it names; later calls read it no more', async () => {
    current = first;
    const seen: string[] = [];
    const fetch = serverFetch(() => current, seen);
    const options = { serverConfig: clientConfigSource({ fetch }), fetch, nowSeconds: serverSeconds };
    const [a, b] = await Promise.all([sendOnce(options, readVersion), sendOnce(options, readVersion)]);
    expect(a.kind).toBe('ok');
    expect(b.kind).toBe('ok');
    expect(await sendOnce(options, readVersion)).toMatchObject({ kind: 'ok' });
    expect(seen).toEqual([
      `GET ${CLIENT_CONFIG_PATH}`,
      'POST /api/gate7',
      'POST /api/gate7',
      'POST /api/gate7',
    ]);
  });

  test('a server restarted with another segment: the old gateway is not found, the call is a transport failure (so the queue retries it), and the next try reads the configuration again and reaches the new one', async () => {
    current = first;
    const seen: string[] = [];
    const fetch = serverFetch(() => current, seen);
    const options = { serverConfig: clientConfigSource({ fetch }), fetch, nowSeconds: serverSeconds };
    expect(await sendOnce(options, readVersion)).toMatchObject({ kind: 'ok' });
    current = second;
    expect(await sendOnce(options, readVersion)).toEqual({
      kind: 'transport',
      status: null,
      message: 'gateway moved',
    });
    expect(await sendOnce(options, readVersion)).toMatchObject({ kind: 'ok' });
    expect(seen).toEqual([
      `GET ${CLIENT_CONFIG_PATH}`,
      'POST /api/gate7',
      'POST /api/gate7',
      `GET ${CLIENT_CONFIG_PATH}`,
      'POST /api/gate8',
    ]);
  });

  test('a build-time transport override wins over the server’s: plain JSON, no gateway', async () => {
    current = first;
    const seen: string[] = [];
    const fetch = serverFetch(() => current, seen);
    const options = {
      serverConfig: clientConfigSource({ fetch, modeOverride: 'plain' }),
      fetch,
      nowSeconds: serverSeconds,
    };
    expect(await sendOnce(options, readVersion)).toMatchObject({ kind: 'ok' });
    expect(seen).toEqual([`GET ${CLIENT_CONFIG_PATH}`, 'GET /api/v1/common/version']);
  });
});

describe('when the configuration cannot be read', () => {
  test('offline, the call is a transport failure (retried by the queue like any other), and the next call tries the read again', async () => {
    const seen: string[] = [];
    let online = false;
    const fetch: typeof globalThis.fetch = async (input) => {
      const path = new URL(input.toString(), 'http://coffer.test').pathname;
      seen.push(path);
      if (!online) throw new TypeError('fetch failed');
      if (path === CLIENT_CONFIG_PATH)
        return Response.json({ transport: 'plain', gatewayPath: '/api/gw', uploadPath: '/api/up' });
      return Response.json({ code: 200, message: 'ok', data: null });
    };
    const options = { serverConfig: clientConfigSource({ fetch }), fetch, nowSeconds };
    const call: Call<null> = { ...readVersion, data: versionDataSchema.nullable().transform(() => null) };
    expect(await sendOnce(options, call)).toEqual({
      kind: 'transport',
      status: null,
      message: 'client configuration unavailable',
    });
    online = true;
    expect(await sendOnce(options, call)).toMatchObject({ kind: 'ok' });
    expect(seen).toEqual([CLIENT_CONFIG_PATH, CLIENT_CONFIG_PATH, '/api/v1/common/version']);
  });

  test('an answer that is not the configuration (an old server, a captive portal) is refused, not guessed around', async () => {
    const fetch: typeof globalThis.fetch = async () =>
      new Response('<html>portal</html>', { status: 200, headers: { 'content-type': 'text/html' } });
    const source = clientConfigSource({ fetch });
    expect(await source.route(new AbortController().signal)).toBeNull();
    const wrong: typeof globalThis.fetch = async () =>
      Response.json({
        transport: 'envelope',
        gatewayPath: 'https://evil.example/api/gw',
        uploadPath: '/api/up',
      });
    expect(await clientConfigSource({ fetch: wrong }).route(new AbortController().signal)).toBeNull();
  });
});
