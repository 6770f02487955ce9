/**
 * `npm run fuzz` ("Hostile input and authorization"): schema-aware hostile requests to
 * every route of the OpenAPI document the server serves, on an in-process server (PGlite by
 * default). For each route, in turn: one field given a value hostile for its declared type (wrong
 * types, huge strings, NUL and control characters, lone surrogates, negative, exponent, NaN and
 * out-of-range amounts, unknown enum values), every field hostile at once, unknown fields, arrays
 * for scalars, deep nesting, and bodies that are not objects; as a JSON body, a form body, a query
 * string or inside an envelope at the gateway; anonymous and with a token of the caller the route
 * admits (a customer's, or a superadmin's for /api/admin/).
 *
 * Every answer must be what CONTRACT.md defines: HTTP 200 with JSON `{code, message, data}` (a
 * sealed `{code, handshake, data}` at the gateway that opens to it), a known body code, never 500.
 * It prints routes, requests, the count per body code and the seconds taken, and exits 1 on any
 * HTTP 5xx, any answer that is not the contract's, or any body code 500 (the first ones listed).
 *
 * Not part of `npm test`: thousands of requests take a minute or two on a busy 2-core machine
 * (tests/api/hostile.test.ts is the fixed, smaller sweep that is).
 *
 * Environment:
 * - FUZZ_REQUESTS  the most requests to send (default 10000)
 * - FUZZ_SECONDS   the most seconds to spend sending (default 90)
 * - FUZZ_SEED      the random seed, to replay a run (default: from the clock, printed)
 * - FUZZ_DATABASE  pglite (default) or postgres (a scratch database at TEST_DATABASE_URL)
 */
import crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { z } from 'zod';
import { BodyCode } from '../contract/codes.js';
import { openAnswer, sealRequest } from '../server/http/envelope-codec.js';
import { apiRoutesOf, type ApiRoute, type JsonSchema } from '../tests/helpers/openapi.js';
import { startTestServer, type TestServer } from '../tests/helpers/server.js';
import { positiveNumber, seconds, seededRandom } from './report.js';
import { cliContext } from '../server/cli/cli-context.js';

const MAX_REQUESTS = Math.floor(positiveNumber('FUZZ_REQUESTS', 10_000));
const MAX_MS = positiveNumber('FUZZ_SECONDS', 90) * 1000;
const SEED = Number(process.env['FUZZ_SEED'] ?? Date.now() % 2 ** 31);
const TIER = process.env['FUZZ_DATABASE'] === 'postgres' ? 'postgres' : 'pglite';

const random = seededRandom(SEED); // a failing run is replayed with FUZZ_SEED

// ---------------------------------------------------------------------------------------------
// Routes and fields, from the OpenAPI document

type Kind = 'string' | 'amount' | 'integer' | 'boolean' | 'enum' | 'array' | 'object' | 'id';
interface Field {
  name: string;
  kind: Kind;
  enumValues: unknown[];
}
type Route = Omit<ApiRoute, 'fields'> & { fields: Field[] };

const AMOUNT_NAME =
  /amount|price|volume|total|rate|fee|lots|margin|spread|profit|minimum|maximum|output|power|incentive|performance|hosting/i;

function kindOf(name: string, schema: JsonSchema | undefined): Field {
  let resolved = schema ?? {};
  for (const alternative of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) {
    if (alternative.type !== 'null') {
      resolved = alternative;
      break;
    }
  }
  const type = Array.isArray(resolved.type) ? resolved.type.find((item) => item !== 'null') : resolved.type;
  const enumValues = resolved.enum ?? [];
  let kind: Kind;
  if (enumValues.length > 0) kind = 'enum';
  else if (type === 'boolean') kind = 'boolean';
  else if (type === 'array') kind = 'array';
  else if (type === 'object') kind = 'object';
  else if (type === 'integer' || type === 'number') kind = AMOUNT_NAME.test(name) ? 'amount' : 'integer';
  else if (/^(id|.+Id|.+Ids)$/.test(name)) kind = 'id';
  else if (AMOUNT_NAME.test(name)) kind = 'amount';
  else kind = 'string';
  return { name, kind, enumValues };
}

function routesOf(document: unknown): Route[] {
  return apiRoutesOf(document).map((route) => ({
    ...route,
    fields: route.fields.map((field) => kindOf(field.name, field.schema)),
  }));
}

// ---------------------------------------------------------------------------------------------
// Values

/** A value of the right shape, so that one hostile field is the only thing wrong. */
function plausible(field: Field): unknown {
  switch (field.kind) {
    case 'enum':
      return field.enumValues[0];
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'id':
      return random.pick(['1', '2', '3']);
    case 'amount':
      return random.pick(['1', '10', '0.5']);
    case 'integer':
      return '1';
    default:
      return /mail/i.test(field.name)
        ? 'fuzz@example.com'
        : /password/i.test(field.name)
          ? 'secret123'
          : 'abc';
  }
}

/** A JSON text (so `__proto__` keys and deep nesting survive) for `nested` levels of arrays or objects. */
const nestedText = (levels: number, open: '[' | '{"a":') =>
  `${open.repeat(levels)}1${(open === '[' ? ']' : '}').repeat(levels)}`;

/** A marker object: the JSON text to splice in verbatim. */
class RawJson {
  constructor(readonly text: string) {}
}

const ANY_HOSTILE: readonly unknown[] = [
  null,
  [],
  {},
  ['a', 'b'],
  { $gt: '' },
  true,
  12345,
  -1,
  '',
  'a\u0000b',
  '\u0001\u001b\u007f',
  'a\r\nX-Injected: 1',
  '\ud800x',
  '\u202eevil',
  '\u200b\ufeff',
  "' OR 1=1 --",
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  new RawJson('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
];
const AMOUNT_HOSTILE: readonly unknown[] = [
  '-1',
  '-0.01',
  '-0',
  '0',
  '1e3',
  '1E-7',
  '1e400',
  '-1e400',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x1F',
  '1_000',
  '1,000',
  ' 1 ',
  '1.',
  '.5',
  '+1',
  '00001',
  '1.0000001',
  '0.001',
  '9'.repeat(40),
  '9007199254740993',
  '١٢٣',
  -1,
  1e308,
  0.30000000000000004,
  Number.MAX_SAFE_INTEGER + 2,
  new RawJson('1e400'),
  new RawJson('-0'),
];

function hostile(field: Field): unknown {
  const roll = random.next();
  if (roll < 0.08) return 'x'.repeat(random.pick([129, 1025, 10_000, 60_000, 70_000]));
  if (roll < 0.12)
    return new RawJson(nestedText(random.pick([50, 1000, 10_000]), random.pick(['[', '{"a":'])));
  if (roll < 0.3) return random.pick(ANY_HOSTILE);
  switch (field.kind) {
    case 'amount':
    case 'integer':
      return random.pick(AMOUNT_HOSTILE);
    case 'id':
      return random.pick(['0', '-1', '1.5', '1e3', '9'.repeat(30), '0x10', ' 1', '1 OR 1=1', 'NaN', -1, 1.5]);
    case 'enum': {
      const first = String(field.enumValues[0] ?? 'a');
      return random.pick([first.toUpperCase(), `${first}\u0000`, `${first} `, 'unknown_value', 1, [first]]);
    }
    case 'boolean':
      return random.pick(['yes', 'TRUE', '2', '', 2, -1, [true], 'true\u0000']);
    case 'array':
      return random.pick([
        'x',
        [null],
        [{}],
        Array.from({ length: 1000 }, () => 'a'),
        new RawJson(nestedText(200, '[')),
        { 0: 'a' },
      ]);
    case 'object':
      return random.pick(['x', ['a'], { a: { b: { c: 1 } } }, { x: 'x'.repeat(5000) }]);
    default:
      return random.pick(AMOUNT_HOSTILE.concat(ANY_HOSTILE));
  }
}

/** A path segment for `{id}`: encoded, under the router's 100-character limit; a lone surrogate as its raw bytes. */
function pathSegment(value: unknown): string {
  try {
    return encodeURIComponent(String(value ?? 'x')).slice(0, 90);
  } catch {
    return '%ED%A0%80x'; // encodeURIComponent refuses a lone surrogate: send its UTF-8 bytes as they are
  }
}

/** JSON text of a parameter object whose values may be RawJson. */
function jsonOf(params: Record<string, unknown>): string {
  const parts = Object.entries(params).map(
    ([key, value]) =>
      `${JSON.stringify(key)}:${value instanceof RawJson ? value.text : (JSON.stringify(value) ?? 'null')}`,
  );
  return `{${parts.join(',')}}`;
}

/** Form (or query) text: arrays as repeated keys, objects as `key[sub]=`, everything else as its text. */
function formOf(params: Record<string, unknown>): string {
  const pairs: Array<[string, string]> = [];
  const add = (key: string, value: unknown) => {
    if (value instanceof RawJson) pairs.push([key, value.text]);
    else if (Array.isArray(value)) for (const item of value.slice(0, 50)) add(key, item);
    else if (value !== null && typeof value === 'object')
      for (const [sub, item] of Object.entries(value)) add(`${key}[${sub}]`, item);
    else pairs.push([key, value === null ? '' : String(value)]);
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return new URLSearchParams(pairs).toString();
}

/** The envelope takes a plain object: RawJson values go in parsed where they parse. */
function plainOf(params: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // keeps a `__proto__` key a key
  for (const [key, value] of Object.entries(params)) {
    if (!(value instanceof RawJson)) plain[key] = value;
    else if (value.text.length > 2000)
      plain[key] = value.text; // deeper than JSON.stringify may walk here
    else {
      try {
        plain[key] = JSON.parse(value.text) as unknown; // nesting the server must refuse, or a plain value
      } catch {
        plain[key] = value.text;
      }
    }
  }
  return plain;
}

// ---------------------------------------------------------------------------------------------
// Requests

type Encoding = 'json' | 'form' | 'query' | 'envelope';
interface Probe {
  label: string;
  request: InjectOptions;
  sealed: boolean;
}

interface Callers {
  user: string;
  operator: string;
}

/** Routes that end the caller's session: fuzzed anonymously only, so the run's tokens stay valid. */
const SESSION_ENDING = new Set(['/api/v1/sso/logout', '/api/admin/auth/logout']);

function probeFor(route: Route, t: TestServer, callers: Callers): Probe {
  const method = random.pick(route.methods);
  const withToken = route.access !== 'public' && !SESSION_ENDING.has(route.path) && random.next() < 0.6;
  const token = withToken ? (route.access === 'operator' ? callers.operator : callers.user) : undefined;

  const params: Record<string, unknown> = {};
  for (const field of route.fields) params[field.name] = plausible(field);
  let mutation: string;
  let body: string | undefined; // a whole body that is not an object, JSON only
  const roll = random.next();
  if (route.fields.length > 0 && roll < 0.45) {
    const field = random.pick(route.fields);
    params[field.name] = hostile(field);
    mutation = `${field.name} (${field.kind}) hostile`;
  } else if (route.fields.length > 0 && roll < 0.6) {
    for (const field of route.fields) params[field.name] = hostile(field);
    mutation = 'every field hostile';
  } else if (roll < 0.72) {
    // defineProperty: a plain assignment to `__proto__` would set the prototype, not send the key.
    Object.defineProperty(
      params,
      random.pick(['extra', 'role', 'userId', 'isAdmin', 'balance', '__proto__', 'constructor']),
      { value: random.pick(ANY_HOSTILE), enumerable: true, writable: true, configurable: true },
    );
    mutation = 'unknown field';
  } else if (route.fields.length > 0 && roll < 0.84) {
    for (const field of route.fields) params[field.name] = [params[field.name], params[field.name]];
    mutation = 'arrays for scalars';
  } else if (roll < 0.92) {
    params['deep'] = new RawJson(
      nestedText(random.pick([64, 500, 5000, 20_000]), random.pick(['[', '{"a":'])),
    );
    mutation = 'deep nesting';
  } else {
    body = random.pick(['[]', '"text"', '42', 'null', '[{"a":1}]', '{"a":', '\ufeff{}', '']);
    mutation = `body ${JSON.stringify(body)}`;
  }

  const encodings: Encoding[] =
    method === 'GET' ? ['query', 'envelope'] : body !== undefined ? ['json'] : ['json', 'form', 'envelope'];
  const encoding = random.pick(encodings);
  const headers: Record<string, string> = { lang: random.pick(['EN', 'CN', 'zh-Hant']) };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (route.command) headers['idempotency-key'] = crypto.randomUUID();
  const label = `${method} ${route.path} ${withToken ? route.access : 'anonymous'} ${encoding}: ${mutation}`;
  const url = route.path.replace('{id}', pathSegment(params['id']));

  if (encoding === 'envelope') {
    const fields = sealRequest({ method, uri: url, headers, params: plainOf(params) }, t.clock.now());
    return {
      label,
      sealed: true,
      request: {
        method: 'POST',
        url: `/api/${t.server.config.gatewaySegment}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...fields }).toString(),
      },
    };
  }
  const plain = (request: InjectOptions): Probe => ({ label, sealed: false, request });
  const typed = (contentType: string, payload: string) =>
    plain({ method, url, headers: { ...headers, 'content-type': contentType }, payload });
  if (encoding === 'query') return plain({ method, url: `${url}?${formOf(params)}`, headers });
  if (encoding === 'form') return typed('application/x-www-form-urlencoded', formOf(params));
  return typed('application/json', body ?? jsonOf(params));
}

const answerSchema = z.strictObject({ code: z.number().int(), message: z.string(), data: z.unknown() });
const sealedSchema = z.strictObject({ code: z.number().int(), handshake: z.string(), data: z.string() });
const KNOWN_CODES = new Set<number>(Object.values(BodyCode));

interface Result {
  http: number;
  code: number | null;
  problem?: string;
}

async function send(t: TestServer, probe: Probe): Promise<Result> {
  let response;
  try {
    response = await t.server.app.inject(probe.request);
  } catch (error) {
    return { http: 0, code: null, problem: `inject threw ${String(error)}` };
  }
  const http = response.statusCode;
  if (http >= 500) return { http, code: null, problem: `HTTP ${http}: ${response.body.slice(0, 200)}` };
  if (http !== 200) return { http, code: null, problem: `HTTP ${http} (the contract answers 200)` };
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return { http, code: null, problem: `content-type ${String(response.headers['content-type'])}` };
  let text = response.body;
  try {
    if (probe.sealed) {
      const outer: unknown = JSON.parse(text);
      const sealed = sealedSchema.safeParse(outer);
      // A refused envelope (460) is answered unsealed; anything else is sealed.
      if (sealed.success) text = openAnswer(sealed.data);
    }
    const answer = answerSchema.safeParse(JSON.parse(text));
    if (!answer.success)
      return { http, code: null, problem: `not {code, message, data}: ${text.slice(0, 200)}` };
    const { code, message } = answer.data;
    if (code === BodyCode.internalError) return { http, code, problem: `body code 500: ${message}` };
    if (!KNOWN_CODES.has(code)) return { http, code, problem: `unknown body code ${code}` };
    return { http, code };
  } catch (error) {
    return { http, code: null, problem: `unreadable answer (${String(error)}): ${text.slice(0, 200)}` };
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  console.log(`fuzz: seed ${SEED}, at most ${MAX_REQUESTS} requests or ${seconds(MAX_MS)}, on ${TIER}`);
  const t = await startTestServer(TIER);
  try {
    const document = await t.server.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    const routes = routesOf(JSON.parse(document.body));
    const user = (await t.register('plain', 'fuzz.user@example.com')).token;
    await t.server.services.operators.create(cliContext(), {
      email: 'fuzz.boss@example.com',
      role: 'superadmin',
      password: 'secret123',
    });
    const login = await t.call<{ token: string }>('plain', '/api/admin/auth/login', {
      email: 'fuzz.boss@example.com',
      password: 'secret123',
    });
    const callers: Callers = { user, operator: login.data.token };

    const byCode = new Map<string, number>();
    const failures: string[] = [];
    const routesHit = new Set<string>();
    let requests = 0;
    let http5xx = 0;
    let notContract = 0;
    let code500 = 0;
    const sendStarted = performance.now();
    // Round-robin over the routes, a batch at a time, so a bound by count or time still covers each.
    while (requests < MAX_REQUESTS && performance.now() - sendStarted < MAX_MS) {
      const batch: Array<{ route: Route; probe: Probe }> = [];
      for (let index = 0; index < 16 && requests + batch.length < MAX_REQUESTS; index += 1) {
        const route = routes[(requests + batch.length) % routes.length];
        if (route) batch.push({ route, probe: probeFor(route, t, callers) });
      }
      const results = await Promise.all(batch.map(({ probe }) => send(t, probe)));
      for (const [index, result] of results.entries()) {
        const item = batch[index];
        if (!item) continue;
        requests += 1;
        routesHit.add(item.route.path);
        const key = result.code === null ? `HTTP ${result.http}` : String(result.code);
        byCode.set(key, (byCode.get(key) ?? 0) + 1);
        if (result.http >= 500 || result.http === 0) http5xx += 1;
        else if (result.code === null) notContract += 1;
        if (result.code === BodyCode.internalError) code500 += 1;
        if (result.problem) failures.push(`${item.probe.label}\n    ${result.problem}`);
      }
    }
    const sendMs = performance.now() - sendStarted;

    console.log(`\nroutes in the document: ${routes.length}; routes fuzzed: ${routesHit.size}`);
    console.log(
      `requests: ${requests} in ${seconds(sendMs)} (${(requests / (sendMs / 1000)).toFixed(0)} per second)`,
    );
    console.log('answers by body code (or HTTP status when there was no body code):');
    for (const [code, n] of [...byCode].sort(([a], [b]) => a.localeCompare(b)))
      console.log(`  ${code.padEnd(9)} ${String(n).padStart(7)}`);
    console.log(
      `HTTP 5xx: ${http5xx}; answers not {code, message, data}: ${notContract}; body code 500: ${code500}`,
    );
    if (failures.length > 0) {
      console.log(`\n${failures.length} failures (replay with FUZZ_SEED=${SEED}); the first 20:`);
      for (const failure of failures.slice(0, 20)) console.log(`  ${failure}`);
      process.exitCode = 1;
    }
    if (routesHit.size < routes.length) {
      console.log(
        `only ${routesHit.size} of ${routes.length} routes were reached: raise FUZZ_REQUESTS or FUZZ_SECONDS`,
      );
      process.exitCode = 1;
    }
  } finally {
    await t.close();
  }
  console.log(
    `\ndone in ${seconds(performance.now() - started)}: ${process.exitCode === 1 ? 'FAILED' : 'ok'}`,
  );
}

const watchdog = setTimeout(() => {
  console.error('fuzz: the run did not end within its bound plus two minutes: stopping');
  process.exit(1);
}, MAX_MS + 120_000);
watchdog.unref();
main().then(
  () => process.exit(),
  (error: unknown) => {
    console.error('fuzz: could not run:', error);
    process.exit(1);
  },
);
