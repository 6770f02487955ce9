/**
 * One call to the API over either transport (CONTRACT.md "Answers", "Envelope"; docs/protocol.md
 * sections 1-3): the envelope gateway (spec Reading A) or plain JSON (Reading C). Every answer is
 * parsed with the contract's schema before anything uses it (STYLE rule 5). No retries here:
 * `queue.ts` owns them.
 */
import { z } from 'zod';
import { BodyCode } from '../contract/codes.js';
import { PROTOCOL_VERSION, REQUEST_TIMEOUT_MS } from '../contract/constants.js';
import { sealedAnswerSchema } from '../contract/envelope.js';
import { answerOf } from '../contract/schema.js';
import type { Outcome } from '../sync/ports.js';
import type { ClientConfigSource, TransportRoute } from './client-config.js';
import { EnvelopeError, openAnswer, sealRequest } from './envelope.js';

interface TransportBase {
  fetch: typeof fetch;
  /** The device clock in Unix seconds (the envelope's `timestamp`). */
  nowSeconds(): number;
  /** Origin put before every path (`http://127.0.0.1:3000`); empty or absent means same origin. */
  baseUrl?: string;
}

/**
 * Either a fixed route (tests, benches, other clients: `mode` and `gatewayPath`, the gateway
 * being `/api/{COFFER_GATEWAY_SEGMENT}`), or the serving server's word, read at run time before
 * the first request (the web app: `serverConfig`).
 */
export type TransportOptions = TransportBase & (TransportRoute | { serverConfig: ClientConfigSource });

export interface Call<T> {
  method: 'GET' | 'POST';
  /** The absolute API path, `/api/v1/user/info`. */
  uri: string;
  params: Record<string, unknown>;
  /** Schema of the answer's `data` on success. */
  data: z.ZodType<T>;
  token: string | null;
  /** The spec's header code (`EN`, `CN`, ...). */
  lang: string;
  /** Made once when the user acts and reused on every retry (commands only). */
  idempotencyKey?: string;
}

/** What a call came to: declared by the sync engine, which takes the worker's outcomes. */
export type { Outcome } from '../sync/ports.js';

/** Sends one call and never throws: every failure is an `Outcome`. */
export type Send = <T>(call: Call<T>) => Promise<Outcome<T>>;

/** A refusal or any answer: `{code, message, data}` with `data` left unparsed. */
const anyAnswerSchema = answerOf(z.unknown());

function headersOf(call: Call<unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    lang: call.lang,
    'X-Coffer-Protocol': String(PROTOCOL_VERSION),
  };
  if (call.token !== null) headers['Authorization'] = `Bearer ${call.token}`;
  if (call.idempotencyKey !== undefined) headers['Idempotency-Key'] = call.idempotencyKey;
  return headers;
}

/** Query values as the server's gateway writes them: strings as they are, the rest as JSON. */
function queryOf(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    query.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return query.toString();
}

function requestOf(
  options: TransportOptions,
  route: TransportRoute,
  call: Call<unknown>,
): { url: string; init: RequestInit } {
  const base = options.baseUrl ?? '';
  const headers = headersOf(call);
  if (route.mode === 'envelope') {
    const fields = sealRequest(
      { method: call.method, uri: call.uri, headers, params: call.params },
      options.nowSeconds(),
    );
    return {
      url: `${base}${route.gatewayPath}`,
      init: {
        method: 'POST',
        // Only the inner headers count for the inner call; the outer `lang` makes the gateway's
        // own refusals (460) speak the user's language. The token never travels outside the seal.
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', lang: call.lang },
        // URLSearchParams percent-encodes `+`, `/` and `=` inside `data` (docs/protocol.md 3.7).
        body: new URLSearchParams({ ...fields }).toString(),
      },
    };
  }
  if (call.method === 'GET') {
    const query = queryOf(call.params);
    return { url: `${base}${call.uri}${query === '' ? '' : `?${query}`}`, init: { method: 'GET', headers } };
  }
  return {
    url: `${base}${call.uri}`,
    init: {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(call.params),
    },
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

/** The plain `{code, message, data}` answer inside a gateway answer, or null when malformed. */
async function unwrapEnvelope(body: unknown): Promise<unknown> {
  const sealed = sealedAnswerSchema.safeParse(body);
  if (!sealed.success) {
    // An unsealed answer (the 460 refusal, or another error the gateway raised itself) is plain;
    // the gateway never sends a success unsealed, so one that claims it is refused.
    const plain = anyAnswerSchema.safeParse(body);
    return plain.success && plain.data.code !== BodyCode.ok ? body : null;
  }
  let plaintext: string;
  try {
    plaintext = await openAnswer(sealed.data);
  } catch (error) {
    if (error instanceof EnvelopeError) return null;
    throw error;
  }
  const inner = parseJson(plaintext);
  if (!inner.ok) return null;
  // The outer code repeats the inner one; a mismatch means the answer was tampered with.
  const code = anyAnswerSchema.safeParse(inner.value);
  return code.success && code.data.code === sealed.data.code ? inner.value : null;
}

/** Turns a parsed answer body into an outcome with the call's data schema. */
function outcomeOf<T>(call: Call<T>, status: number, body: unknown): Outcome<T> {
  const malformed: Outcome<T> = { kind: 'transport', status, message: 'malformed answer' };
  const answer = anyAnswerSchema.safeParse(body);
  if (!answer.success) return malformed;
  if (answer.data.code !== BodyCode.ok) {
    return { kind: 'refused', code: answer.data.code, message: answer.data.message, data: answer.data.data };
  }
  const parsed = answerOf(call.data).safeParse(body);
  if (!parsed.success) return malformed;
  if (parsed.data.data !== null) return { kind: 'ok', message: parsed.data.message, data: parsed.data.data };
  // answerOf lets `data` be null; a success is only well-formed if the call's schema takes null.
  const nullData = call.data.safeParse(null);
  return nullData.success ? { kind: 'ok', message: parsed.data.message, data: nullData.data } : malformed;
}

type TransportFailure = Extract<Outcome<never>, { kind: 'transport' }>;
type Exchange = { kind: 'answer'; status: number; text: string } | TransportFailure;

/** One HTTP exchange, body read included; never throws. */
async function exchange(
  options: TransportOptions,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<Exchange> {
  try {
    const response = await options.fetch(url, { ...init, signal });
    const status = response.status;
    if (status < 200 || status > 299) {
      // The body of a failed status is not read; let the connection go.
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'transport', status, message: `HTTP ${status}` };
    }
    return { kind: 'answer', status, text: await response.text() };
  } catch (error) {
    return {
      kind: 'transport',
      status: null,
      message: error instanceof Error ? error.message : 'network failure',
    };
  }
}

/**
 * The route (read from the server first when `options` says so), then one exchange on it. A
 * gateway that is not there (HTTP 404) makes the next call read the configuration anew.
 */
async function exchangeOnRoute(
  options: TransportOptions,
  call: Call<unknown>,
  signal: AbortSignal,
): Promise<
  TransportFailure | { kind: 'answer'; status: number; text: string; mode: TransportRoute['mode'] }
> {
  const route = 'serverConfig' in options ? await options.serverConfig.route(signal) : options;
  if (route === null) return { kind: 'transport', status: null, message: 'client configuration unavailable' };
  const { url, init } = requestOf(options, route, call);
  const result = await exchange(options, url, init, signal);
  if (result.kind === 'transport') {
    if ('serverConfig' in options && route.mode === 'envelope' && result.status === 404)
      options.serverConfig.forget();
    return result;
  }
  return { ...result, mode: route.mode };
}

/**
 * Whether an envelope call's answer says the gateway is not there: the server answers an unknown
 * `/api/` path with an unsealed 404 (HTTP 200), which the gateway itself never sends to the
 * JSON calls this worker makes. It means the server now has another gateway segment.
 */
function gatewayMissing(
  options: TransportOptions,
  mode: TransportRoute['mode'],
  body: unknown,
): options is TransportBase & { serverConfig: ClientConfigSource } {
  if (!('serverConfig' in options) || mode !== 'envelope') return false;
  const plain = anyAnswerSchema.safeParse(body);
  return (
    plain.success && plain.data.code === BodyCode.notFound && !sealedAnswerSchema.safeParse(body).success
  );
}

/**
 * Sends `call` once over the route's transport and returns its outcome. Never throws for network,
 * HTTP or parse failures; gives up after REQUEST_TIMEOUT_MS (60 s, spec section 9), reading the
 * body included, even with a `fetch` that ignores its abort signal. Each envelope is sealed anew
 * (new handshake, IV and sign).
 */
export async function sendOnce<T>(options: TransportOptions, call: Call<T>): Promise<Outcome<T>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<TransportFailure>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: 'transport', status: null, message: 'timed out' });
    }, REQUEST_TIMEOUT_MS);
  });
  const result = await Promise.race([exchangeOnRoute(options, call, controller.signal), timeout]);
  clearTimeout(timer);
  if (result.kind === 'transport') return result;
  const body = parseJson(result.text);
  if (!body.ok) return { kind: 'transport', status: result.status, message: 'malformed answer' };
  if (gatewayMissing(options, result.mode, body.value)) {
    // Like a call that never arrived (status null), so the queue retries it (sync/retry.ts), and
    // the retry reads where the gateway went.
    options.serverConfig.forget();
    return { kind: 'transport', status: null, message: 'gateway moved' };
  }
  const answer = result.mode === 'envelope' ? await unwrapEnvelope(body.value) : body.value;
  return outcomeOf(call, result.status, answer);
}

/** A `Send` bound to one set of transport options. */
export function createSend(options: TransportOptions): Send {
  return (call) => sendOnce(options, call);
}
