/** One call over either transport: headers, parsing with the contract, and the three outcomes. */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { versionDataSchema } from '../../contract/api/common.js';
import { PROTOCOL_VERSION, REQUEST_TIMEOUT_MS } from '../../contract/constants.js';
import { sendOnce, type Call } from '../../worker/transport.js';
import { fakeApi, ok, readVersion, refusal, transportFor, type Mode, type Reply } from './fake-api.js';

const MODES: readonly Mode[] = ['envelope', 'plain'];

const version = {
  version: '1.0.20',
  version_code: 10020,
  hot_version_code: 10020,
  package_url: 'https://example.com/app.apk',
  hot_package_url: 'https://example.com/hot.zip',
};

const command: Call<{ done: true }> = {
  method: 'POST',
  uri: '/api/v1/sso/logout',
  params: { note: 'a+b/c=d', nested: { n: 1 } },
  data: z.object({ done: z.literal(true) }),
  token: 'tok_8Jd2kQ7pLxV4nR6s',
  lang: 'JP',
  idempotencyKey: '6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41',
};

function once<T>(mode: Mode, call: Call<T>, reply: Reply) {
  const api = fakeApi(mode, () => reply);
  return { outcome: sendOnce(transportFor(mode, api.fetch), call), seen: api.seen };
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(MODES)('the %s transport', (mode) => {
  test('a command carries lang, Authorization, Idempotency-Key and X-Coffer-Protocol', async () => {
    const { outcome, seen } = once(mode, command, ok({ done: true }));
    expect(await outcome).toEqual({ kind: 'ok', message: 'OK', data: { done: true } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      uri: '/api/v1/sso/logout',
      params: { note: 'a+b/c=d', nested: { n: 1 } },
      headers: {
        lang: 'JP',
        authorization: 'Bearer tok_8Jd2kQ7pLxV4nR6s',
        'idempotency-key': '6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41',
        'x-coffer-protocol': String(PROTOCOL_VERSION),
      },
    });
  });

  test('a call without a token or key sends neither header', async () => {
    const { outcome, seen } = once(mode, readVersion, ok(version));
    await outcome;
    expect(seen[0]?.headers).not.toHaveProperty('authorization');
    expect(seen[0]?.headers).not.toHaveProperty('idempotency-key');
    expect(seen[0]?.headers['lang']).toBe('EN');
  });

  test('a 200 answer is parsed with the contract schema (unknown fields dropped)', async () => {
    const { outcome } = once(mode, readVersion, ok({ ...version, extra: 'ignored' }, 'fine'));
    expect(await outcome).toEqual({ kind: 'ok', message: 'fine', data: version });
  });

  test('a 200 answer whose data breaks the schema is a transport outcome', async () => {
    const { outcome } = once(mode, readVersion, ok({ ...version, version_code: 'ten' }));
    expect(await outcome).toMatchObject({ kind: 'transport', status: 200 });
  });

  test('a 200 answer with null data is a transport outcome unless the schema takes null', async () => {
    expect(await once(mode, readVersion, ok(null)).outcome).toMatchObject({ kind: 'transport', status: 200 });
    const nullable = { ...readVersion, data: versionDataSchema.nullable() };
    expect(await once(mode, nullable, ok(null)).outcome).toEqual({ kind: 'ok', message: 'OK', data: null });
  });

  test('a body that is not an answer is a transport outcome', async () => {
    const html = once(mode, readVersion, { status: 200, text: '<html>captive portal</html>' });
    expect(await html.outcome).toMatchObject({ kind: 'transport', status: 200 });
    const shapeless = once(mode, readVersion, { unsealed: { hello: 'world' } });
    expect(await shapeless.outcome).toMatchObject({ kind: 'transport', status: 200 });
  });

  test('any body code other than 200 is a refused outcome with its message and data', async () => {
    const { outcome } = once(mode, readVersion, refusal(423, 'Locked', { retryAfter: 900 }));
    expect(await outcome).toEqual({
      kind: 'refused',
      code: 423,
      message: 'Locked',
      data: { retryAfter: 900 },
    });
  });

  test.each([404, 502])('HTTP %i is a transport outcome carrying the status', async (status) => {
    const { outcome } = once(mode, readVersion, { status, text: 'nope' });
    expect(await outcome).toMatchObject({ kind: 'transport', status });
  });

  test('a network failure is a transport outcome without a status', async () => {
    const { outcome } = once(mode, readVersion, { network: true });
    expect(await outcome).toMatchObject({ kind: 'transport', status: null });
  });

  test('a call with no answer gives up after 60 s as a transport outcome', async () => {
    vi.useFakeTimers();
    const { outcome } = once(mode, readVersion, { hang: true });
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toEqual({ kind: 'transport', status: null, message: 'timed out' });
  });
});

describe('the envelope transport', () => {
  test('the token, key and protocol travel only inside the seal; the outer request carries lang', async () => {
    const { outcome, seen } = once('envelope', command, ok({ done: true }));
    await outcome;
    const outer = seen[0]?.outerHeaders ?? {};
    expect(outer['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(outer['lang']).toBe('JP');
    expect(outer).not.toHaveProperty('authorization');
    expect(outer).not.toHaveProperty('idempotency-key');
    expect(seen[0]?.fields?.timestamp).toBe('1767225600');
  });

  test('a GET goes inside a POST envelope with its method and params', async () => {
    const { outcome, seen } = once('envelope', { ...readVersion, params: { cursor: '7' } }, ok(version));
    await outcome;
    expect(seen[0]).toMatchObject({ method: 'GET', uri: '/api/v1/common/version', params: { cursor: '7' } });
  });

  test("the gateway's 460 refusal comes back unsealed and is a refused outcome", async () => {
    const { outcome } = once('envelope', readVersion, {
      unsealed: { code: 460, message: 'Envelope refused', data: null },
    });
    expect(await outcome).toEqual({ kind: 'refused', code: 460, message: 'Envelope refused', data: null });
  });

  test('an unsealed success is a transport outcome: the gateway seals every success', async () => {
    const { outcome } = once('envelope', readVersion, {
      unsealed: { code: 200, message: 'OK', data: version },
    });
    expect(await outcome).toMatchObject({ kind: 'transport', status: 200 });
  });

  test('a sealed answer that does not open is a transport outcome', async () => {
    const { outcome } = once('envelope', readVersion, {
      unsealed: { code: 200, handshake: 'AAAAAAAAAAAAAAAA', data: 'bm90IHNlYWxlZA==' },
    });
    expect(await outcome).toMatchObject({ kind: 'transport', status: 200 });
  });

  test('a sealed answer whose outer code differs from the inner one is a transport outcome', async () => {
    const api = fakeApi('envelope', () => ok(version));
    const tampering: typeof fetch = async (input, init) => {
      const response = await api.fetch(input, init);
      const sealed = z
        .object({ code: z.number() })
        .loose()
        .parse(await response.json());
      return new Response(JSON.stringify({ ...sealed, code: 401 }), { status: 200 });
    };
    const outcome = await sendOnce(transportFor('envelope', tampering), readVersion);
    expect(outcome).toMatchObject({ kind: 'transport', status: 200 });
  });
});

describe('the plain transport', () => {
  test('a GET sends its params in the query string, non-strings as JSON', async () => {
    const api = fakeApi('plain', () => ok(version));
    const seenUrls: string[] = [];
    const recording: typeof fetch = (input, init) => {
      seenUrls.push(input instanceof Request ? input.url : input.toString());
      return api.fetch(input, init);
    };
    const call = { ...readVersion, params: { cursor: 'a b&c', limit: 20, skip: undefined } };
    await sendOnce(transportFor('plain', recording), call);
    expect(seenUrls).toEqual(['/api/v1/common/version?cursor=a+b%26c&limit=20']);
    expect(api.seen[0]?.params).toEqual({ cursor: 'a b&c', limit: '20' });
  });

  test('a POST sends its params as a JSON body', async () => {
    const { outcome, seen } = once('plain', command, ok({ done: true }));
    await outcome;
    expect(seen[0]?.outerHeaders['content-type']).toBe('application/json');
    expect(seen[0]?.params).toEqual(command.params);
  });

  test('a base URL is put before every path', async () => {
    const urls: string[] = [];
    const api = fakeApi('plain', () => ok(version));
    const recording: typeof fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : input.toString());
      return api.fetch(input, init);
    };
    await sendOnce({ ...transportFor('plain', recording), baseUrl: 'http://127.0.0.1:3000' }, readVersion);
    expect(urls).toEqual(['http://127.0.0.1:3000/api/v1/common/version']);
  });
});
