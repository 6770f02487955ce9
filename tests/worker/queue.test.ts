/**
 * The request queue: the spec's 500 ms request debounce, CONTRACT.md's retry rule (same
 * Idempotency-Key, a new envelope each time, bounded jittered backoff) and the in-flight limit.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { REQUEST_DEBOUNCE_MS } from '../../contract/constants.js';
import { backoffDelayMs, MAX_ATTEMPTS, RETRY_BASE_MS, RETRY_CAP_MS } from '../../sync/retry.js';
import { DEFAULT_MAX_IN_FLIGHT, RequestQueue, type QueuedCall } from '../../worker/queue.js';
import { createSend, type Call, type Outcome, type Send } from '../../worker/transport.js';
import { fakeApi, ok, refusal, transportFor, type Reply } from './fake-api.js';

const anything = z.unknown();

const read = (overrides: Partial<QueuedCall<unknown>> = {}): QueuedCall<unknown> => ({
  method: 'GET',
  uri: '/api/v1/user/info',
  params: {},
  data: anything,
  token: 'tok',
  lang: 'EN',
  ...overrides,
});

const command = (key: string, overrides: Partial<QueuedCall<unknown>> = {}): QueuedCall<unknown> => ({
  method: 'POST',
  uri: '/api/v1/sso/sendRegisterCode',
  params: { email: 'a@example.com' },
  data: anything,
  token: null,
  lang: 'EN',
  idempotencyKey: key,
  ...overrides,
});

const OK: Outcome<unknown> = { kind: 'ok', message: 'OK', data: { n: 1 } };

/** A send that answers from a list of outcomes (the last one repeats) and counts its calls. */
function scriptedSend(outcomes: ReadonlyArray<Outcome<unknown>>) {
  const calls: Array<Call<unknown>> = [];
  const send: Send = async <T>(call: Call<T>) => {
    calls.push(call);
    const outcome = outcomes[Math.min(calls.length, outcomes.length) - 1] ?? OK;
    // The scripted outcomes carry plain test data; these tests never read T.
    return outcome as Outcome<T>;
  };
  return { send, calls };
}

const noSleep = { sleep: async () => {} };

afterEach(() => {
  vi.useRealTimers();
});

describe('the request debounce', () => {
  test("identical reads within 500 ms share one call and its result (the spec's debounce)", async () => {
    let now = 1_000;
    const { send, calls } = scriptedSend([OK]);
    const queue = new RequestQueue(send, { now: () => now });
    const first = queue.run(read());
    now += REQUEST_DEBOUNCE_MS - 1;
    const second = queue.run(read({ params: {} }));
    expect(await second).toBe(await first);
    expect(calls).toHaveLength(1);
  });

  test('identical reads 500 ms apart are two calls', async () => {
    let now = 1_000;
    const { send, calls } = scriptedSend([OK]);
    const queue = new RequestQueue(send, { now: () => now });
    await queue.run(read());
    now += REQUEST_DEBOUNCE_MS;
    await queue.run(read());
    expect(calls).toHaveLength(2);
  });

  test('params in another order are the same read; another param, token or language is not', async () => {
    const { send, calls } = scriptedSend([OK]);
    const queue = new RequestQueue(send, { now: () => 0 });
    await Promise.all([
      queue.run(read({ params: { a: 1, b: 2 } })),
      queue.run(read({ params: { b: 2, a: 1 } })),
      queue.run(read({ params: { a: 1, b: 3 } })),
      queue.run(read({ params: { a: 1, b: 2 }, token: 'other' })),
      queue.run(read({ params: { a: 1, b: 2 }, token: null })),
      queue.run(read({ params: { a: 1, b: 2 }, lang: 'CN' })),
    ]);
    expect(calls).toHaveLength(5);
  });

  test('a read after a command answered never shares a read from before it (a list refreshed after an add)', async () => {
    const { send, calls } = scriptedSend([OK]);
    const queue = new RequestQueue(send, { now: () => 0 });
    await queue.run(read());
    await queue.run(command('k1'));
    await queue.run(read());
    expect(calls.map((call) => call.idempotencyKey ?? 'read')).toEqual(['read', 'k1', 'read']);
  });

  test('commands are never shared, even with the same params', async () => {
    const { send, calls } = scriptedSend([OK]);
    const queue = new RequestQueue(send, { now: () => 0 });
    await Promise.all([queue.run(command('k1')), queue.run(command('k2'))]);
    expect(calls).toHaveLength(2);
  });

  test('a POST marked as a read without a key is shared; a POST without the mark is not', async () => {
    const { send, calls } = scriptedSend([OK]);
    const queue = new RequestQueue(send, { now: () => 0 });
    const post = read({ method: 'POST', uri: '/api/v1/sync/pull', read: true });
    await Promise.all([queue.run(post), queue.run(post)]);
    expect(calls).toHaveLength(1);
    const unmarked = read({ method: 'POST', uri: '/api/v1/other' });
    await Promise.all([queue.run(unmarked), queue.run(unmarked)]);
    expect(calls).toHaveLength(3);
  });
});

describe('retries (CONTRACT.md "Exactly once")', () => {
  const failures: ReadonlyArray<[string, Reply]> = [
    ['a network failure', { network: true }],
    ['HTTP 502', { status: 502, text: 'Bad Gateway' }],
    ['HTTP 503', { status: 503, text: 'Unavailable' }],
    ['body code 500', refusal(500, 'Internal error', { requestId: 'r1' })],
  ];

  test.each(failures)(
    '%s is retried with the same Idempotency-Key in a new envelope each time',
    async (_name, failure) => {
      const api = fakeApi('envelope', (_call, attempt) => (attempt < 3 ? failure : ok({ sent: true })));
      const queue = new RequestQueue(createSend(transportFor('envelope', api.fetch)), noSleep);
      const outcome = await queue.run(command('6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41'));
      expect(outcome).toEqual({ kind: 'ok', message: 'OK', data: { sent: true } });
      expect(api.seen).toHaveLength(3);
      expect(api.seen.map((call) => call.headers['idempotency-key'])).toEqual([
        '6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41',
        '6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41',
        '6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41',
      ]);
      expect(new Set(api.seen.map((call) => call.fields?.handshake)).size).toBe(3);
      expect(new Set(api.seen.map((call) => call.fields?.sign)).size).toBe(3);
      expect(new Set(api.seen.map((call) => call.fields?.data)).size).toBe(3);
    },
  );

  test('a timeout (60 s without an answer) is retried with the same key in a new envelope', async () => {
    vi.useFakeTimers();
    const api = fakeApi('envelope', (_call, attempt) =>
      attempt === 1 ? { hang: true } : ok({ sent: true }),
    );
    const queue = new RequestQueue(createSend(transportFor('envelope', api.fetch)), noSleep);
    const outcome = queue.run(command('key-timeout-1'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await outcome).toMatchObject({ kind: 'ok' });
    expect(api.seen.map((call) => call.headers['idempotency-key'])).toEqual([
      'key-timeout-1',
      'key-timeout-1',
    ]);
    expect(api.seen[0]?.fields?.sign).not.toBe(api.seen[1]?.fields?.sign);
  });

  test.each([400, 401, 403, 409, 423, 429, 460, 472, 4900])(
    'body code %i is final: no retry',
    async (code) => {
      const api = fakeApi('envelope', () =>
        code === 460 ? { unsealed: { code, message: 'refused', data: null } } : refusal(code),
      );
      const queue = new RequestQueue(createSend(transportFor('envelope', api.fetch)), noSleep);
      expect(await queue.run(command('key-final'))).toMatchObject({ kind: 'refused', code });
      expect(api.seen).toHaveLength(1);
    },
  );

  test.each([400, 404, 429])('HTTP %i is final: no retry', async (status) => {
    const api = fakeApi('plain', () => ({ status, text: 'no' }));
    const queue = new RequestQueue(createSend(transportFor('plain', api.fetch)), noSleep);
    expect(await queue.run(command('key-4xx'))).toEqual({
      kind: 'transport',
      status,
      message: `HTTP ${status}`,
    });
    expect(api.seen).toHaveLength(1);
  });

  test('a 2xx answer that does not parse is final: no retry', async () => {
    const { send, calls } = scriptedSend([{ kind: 'transport', status: 200, message: 'malformed answer' }]);
    const queue = new RequestQueue(send, noSleep);
    await queue.run(command('key-malformed'));
    expect(calls).toHaveLength(1);
  });

  test('a call that keeps failing stops after 5 attempts with jittered waits that grow from 500 ms', async () => {
    const waits: number[] = [];
    const { send, calls } = scriptedSend([{ kind: 'transport', status: null, message: 'fetch failed' }]);
    const queue = new RequestQueue(send, {
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
    });
    expect(await queue.run(command('key-give-up'))).toMatchObject({ kind: 'transport', status: null });
    expect(MAX_ATTEMPTS).toBe(5);
    expect(calls).toHaveLength(MAX_ATTEMPTS);
    expect(waits).toEqual([250, 500, 1_000, 2_000]);
  });

  test('every wait is jittered over [0, min(8 s, 500 ms x 2^n)] and never exceeds 8 s', () => {
    expect(RETRY_BASE_MS).toBe(500);
    expect(RETRY_CAP_MS).toBe(8_000);
    for (let retry = 1; retry <= 20; retry++) {
      const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** (retry - 1));
      expect(backoffDelayMs(retry, () => 0)).toBe(0);
      expect(backoffDelayMs(retry, () => 0.999_999)).toBeLessThanOrEqual(ceiling);
      expect(backoffDelayMs(retry, () => 0.999_999)).toBeGreaterThan(ceiling * 0.99);
      expect(backoffDelayMs(retry, Math.random)).toBeLessThanOrEqual(RETRY_CAP_MS);
    }
  });

  test('the real backoff waits on timers: no retry before its delay has passed', async () => {
    vi.useFakeTimers();
    const { send, calls } = scriptedSend([refusal500(), OK]);
    const queue = new RequestQueue(send, { random: () => 0.5 });
    const outcome = queue.run(command('key-timer'));
    await vi.advanceTimersByTimeAsync(249);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe(OK);
    expect(calls).toHaveLength(2);
  });

  test('identical reads sharing one call share its retries too', async () => {
    const { send, calls } = scriptedSend([refusal500(), OK]);
    const queue = new RequestQueue(send, { ...noSleep, now: () => 0 });
    const [a, b] = await Promise.all([queue.run(read()), queue.run(read())]);
    expect(a).toBe(OK);
    expect(b).toBe(OK);
    expect(calls).toHaveLength(2);
  });
});

function refusal500(): Outcome<unknown> {
  return { kind: 'refused', code: 500, message: 'Internal error', data: { requestId: 'r' } };
}

describe('the in-flight limit', () => {
  /** A send whose calls stay open until the test settles them, in the order they started. */
  function heldSend() {
    const started: string[] = [];
    const settle: Array<() => void> = [];
    const send: Send = <T>(call: Call<T>) =>
      new Promise<Outcome<T>>((resolve) => {
        started.push(call.idempotencyKey ?? call.uri);
        // Held calls in these tests resolve to plain test data; T is never read.
        settle.push(() => resolve(OK as Outcome<T>));
      });
    return { send, started, settle };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  test('at most 4 calls are in flight; the others wait and start in FIFO order', async () => {
    expect(DEFAULT_MAX_IN_FLIGHT).toBe(4);
    const held = heldSend();
    const queue = new RequestQueue(held.send);
    const keys = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    const outcomes = keys.map((key) => queue.run(command(key)));
    await tick();
    expect(held.started).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(queue.pending).toBe(3);
    held.settle[2]?.();
    await tick();
    expect(held.started).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    held.settle[0]?.();
    held.settle[1]?.();
    await tick();
    expect(held.started).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    for (const settle of held.settle) settle();
    await Promise.all(outcomes);
    expect(queue.pending).toBe(0);
  });

  test('the limit is configurable and never exceeded', async () => {
    let inFlight = 0;
    let most = 0;
    const send: Send = async <T>() => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      return OK as Outcome<T>; // plain test data; T is never read
    };
    const queue = new RequestQueue(send, { maxInFlight: 2 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => queue.run(command(`k${i}`))));
    expect(most).toBe(2);
  });

  test('a call waiting out its backoff does not hold a slot', async () => {
    const held = heldSend();
    let failFirst = true;
    const send: Send = <T>(call: Call<T>) => {
      if (failFirst) {
        failFirst = false;
        return Promise.resolve<Outcome<T>>({ kind: 'transport', status: null, message: 'fetch failed' });
      }
      return held.send(call);
    };
    let wake: () => void = () => {};
    const queue = new RequestQueue(send, {
      maxInFlight: 1,
      sleep: () => new Promise<void>((resolve) => (wake = resolve)),
    });
    const first = queue.run(command('backing-off'));
    const second = queue.run(command('other'));
    await tick();
    expect(held.started).toEqual(['other']);
    wake();
    held.settle[0]?.();
    await tick();
    expect(held.started).toEqual(['other', 'backing-off']);
    held.settle[1]?.();
    await Promise.all([first, second]);
  });
});
