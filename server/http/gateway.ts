/**
 * The envelope gateway (spec Reading A, CONTRACT.md "Envelope"): one POST path whose form
 * fields carry a sealed inner call. The inner call runs the same handler as the plain path
 * (through Fastify's inject), keeping the outer client address; its answer is sealed back.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { BodyCode } from '../../contract/codes.js';
import { ENVELOPE_MAX_AGE_SECONDS } from '../../contract/constants.js';
import type { Clock } from '../clock.js';
import type { Translator } from '../i18n/i18n.js';
import type { CounterStore } from '../security/counters.js';
import { BusinessError } from '../core/errors.js';
import {
  ENVELOPE_INNER_HEADERS,
  envelopeFieldsSchema,
  envelopeInnerSchema,
} from '../../contract/envelope.js';
import { EnvelopeError, open, randomHandshake, seal, signMatches, signOf } from './envelope-codec.js';
import { nestsTooDeep } from './params.js';
import { contextOf, sendAnswer } from './route.js';

/** Marks inject()ed inner calls so the rate limit counts the outer request only. */
export const INNER_CALL_HEADER = 'x-coffer-inner-call';

export interface GatewayOptions {
  segment: string;
  clock: Clock;
  counters: CounterStore;
  translator: Translator;
  innerSecret: string;
}

const refuse = (key: string) => new BusinessError(BodyCode.envelopeRefused, key);

export function registerGateway(app: FastifyInstance, options: GatewayOptions): void {
  app.post(`/api/${options.segment}`, { schema: { hide: true } }, async (request, reply) => {
    const ctx = contextOf(request, options.translator);
    const parsed = envelopeFieldsSchema.safeParse(request.body);
    if (!parsed.success) throw refuse('server.envelope_undecryptable');
    const fields = parsed.data;
    const now = options.clock.now().getTime() / 1000;
    if (Math.abs(now - Number(fields.timestamp)) > ENVELOPE_MAX_AGE_SECONDS)
      throw refuse('server.envelope_stale');
    if (!signMatches(signOf(fields.data, fields.timestamp, fields.handshake), fields.sign)) {
      throw refuse('server.envelope_bad_sign');
    }
    let plaintext: string;
    try {
      plaintext = open(fields.data, fields.handshake);
    } catch (error) {
      if (error instanceof EnvelopeError) throw refuse('server.envelope_undecryptable');
      throw error;
    }
    let inner: z.infer<typeof envelopeInnerSchema>;
    try {
      inner = envelopeInnerSchema.parse(JSON.parse(plaintext));
    } catch {
      throw refuse('server.envelope_undecryptable');
    }
    if (nestsTooDeep(inner.params))
      throw new BusinessError(BodyCode.invalidInput, 'server.malformed_request');
    // A sign is good once: remembered for twice the timestamp window, so it can never come back.
    if (!(await options.counters.claim(`envelope:${fields.sign}`, ENVELOPE_MAX_AGE_SECONDS * 2))) {
      throw refuse('server.envelope_replayed');
    }
    const headers: Record<string, string> = { [INNER_CALL_HEADER]: options.innerSecret };
    const given = new Map(
      Object.entries(inner.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    for (const name of ENVELOPE_INNER_HEADERS) {
      const value = given.get(name);
      if (value !== undefined) headers[name] = value;
    }
    if (headers['lang'] === undefined && typeof request.headers['lang'] === 'string')
      headers['lang'] = request.headers['lang'];
    // The device is the one that sent the envelope (sessions list it, sign-in alerts name it).
    const userAgent = request.headers['user-agent'];
    if (typeof userAgent === 'string') headers['user-agent'] = userAgent;
    const isGet = inner.method === 'GET';
    const query = isGet
      ? new URLSearchParams(
          Object.entries(inner.params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        ).toString()
      : '';
    const response = await app.inject({
      method: inner.method,
      url: query ? `${inner.uri}?${query}` : inner.uri,
      headers: isGet ? headers : { ...headers, 'content-type': 'application/json' },
      remoteAddress: request.ip,
      ...(isGet ? {} : { payload: JSON.stringify(inner.params) }),
    });
    if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) {
      // Images are fetched on the plain path with the Authorization header; the envelope carries JSON only.
      throw new BusinessError(BodyCode.notFound, 'server.no_such_route');
    }
    let code: number = BodyCode.internalError;
    try {
      code = answerCodeOf(response.body) ?? code;
    } catch {
      request.log.error({ uri: inner.uri }, 'inner call answered something other than JSON');
      throw new BusinessError(
        BodyCode.internalError,
        'server.internal_error',
        {},
        { requestId: ctx.requestId },
      );
    }
    const handshake = randomHandshake();
    return sendAnswer(reply, JSON.stringify({ code, handshake, data: seal(response.body, handshake) }));
  });
}

/**
 * The body code of an inner answer. Coffer's own answers begin `{"code":N,` (http/answer.ts), read
 * from that prefix: a pull's answer is megabytes, and parsing it whole only to read its code cost
 * a tenth of the pull. Anything else is parsed. Null when there is no numeric code.
 * @throws SyntaxError when the answer is not JSON at all.
 */
export function answerCodeOf(body: string): number | null {
  const prefix = /^\{"code":(\d+),/.exec(body);
  if (prefix) return Number(prefix[1]);
  const answer: unknown = JSON.parse(body);
  return typeof answer === 'object' && answer !== null && 'code' in answer && typeof answer.code === 'number'
    ? answer.code
    : null;
}

/** A random secret that marks inner calls; never leaves the process. */
export function newInnerSecret(): string {
  return crypto.randomBytes(24).toString('base64url');
}
