/**
 * A scripted API behind a `fetch`, for the worker's tests. In envelope mode it checks the sign
 * and opens each request with the server's node:crypto codec (an implementation independent of
 * the worker's crypto-js one) and seals answers the same way the gateway does.
 */
import { Dexie } from 'dexie';
import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';
import { versionDataSchema } from '../../contract/api/common.js';
import { openUserDb, type UserDb } from '../../client-db/schema.js';
import type { UserInfo } from '../../contract/api/user.js';
import type { Locale } from '../../contract/locales.js';
import { MemorySyncStorage } from '../../sync/memory-storage.js';
import { createHandlers, type Handlers } from '../../worker/handlers/index.js';
import { MemorySessionStore } from '../../worker/session.js';
import type { Call } from '../../worker/transport.js';
import {
  open,
  randomHandshake,
  seal,
  signOf,
  type EnvelopeFields,
} from '../../server/http/envelope-codec.js';

export type Mode = 'envelope' | 'plain';

/** The call as the API saw it; header names in lower case. */
export interface SeenCall {
  method: string;
  uri: string;
  headers: Record<string, string>;
  params: Record<string, unknown>;
  /** The envelope's form fields (envelope mode only). */
  fields: EnvelopeFields | null;
  /** Headers of the outer HTTP request, names in lower case. */
  outerHeaders: Record<string, string>;
}

export type Reply =
  /** A `{code, message, data}` answer, sealed in envelope mode. */
  | { answer: { code: number; message: string; data: unknown } }
  /** Sent as is, never sealed (the gateway's own 460 refusal). */
  | { unsealed: unknown }
  /** An HTTP status and body text. */
  | { status: number; text: string }
  /** The connection fails. */
  | { network: true }
  /** No answer until the request is aborted. */
  | { hang: true };

/** What the scripted API answers to each call (`attempt` counts the same request's tries). */
export type Script = (call: SeenCall, attempt: number) => Reply;

export const ok = (data: unknown, message = 'OK'): Reply => ({ answer: { code: 200, message, data } });
export const refusal = (code: number, message = `refused ${code}`, data: unknown = null): Reply => ({
  answer: { code, message, data },
});

const innerSchema = z.object({
  method: z.string(),
  uri: z.string(),
  headers: z.record(z.string(), z.string()),
  params: z.record(z.string(), z.unknown()),
});

const fieldsSchema = z.object({
  handshake: z.string(),
  timestamp: z.string(),
  sign: z.string(),
  data: z.string(),
});

function lowerCased(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of entries) out[name.toLowerCase()] = value;
  return out;
}

async function seenOf(mode: Mode, request: Request): Promise<SeenCall> {
  const outerHeaders = lowerCased(request.headers.entries());
  const url = new URL(request.url);
  if (mode === 'envelope') {
    const fields = fieldsSchema.parse(Object.fromEntries(new URLSearchParams(await request.text())));
    if (signOf(fields.data, fields.timestamp, fields.handshake) !== fields.sign) throw new Error('bad sign');
    const inner = innerSchema.parse(JSON.parse(open(fields.data, fields.handshake)));
    return { ...inner, headers: lowerCased(Object.entries(inner.headers)), fields, outerHeaders };
  }
  const params: Record<string, unknown> =
    request.method === 'GET'
      ? Object.fromEntries(url.searchParams)
      : z.record(z.string(), z.unknown()).parse(JSON.parse(await request.text()));
  return {
    method: request.method,
    uri: url.pathname,
    headers: outerHeaders,
    params,
    fields: null,
    outerHeaders,
  };
}

function responseOf(mode: Mode, reply: Exclude<Reply, { network: true } | { hang: true }>): Response {
  const json = { 'content-type': 'application/json' };
  if ('status' in reply) return new Response(reply.text, { status: reply.status, headers: json });
  if ('unsealed' in reply) return new Response(JSON.stringify(reply.unsealed), { headers: json });
  const text = JSON.stringify(reply.answer);
  if (mode === 'plain') return new Response(text, { headers: json });
  const handshake = randomHandshake();
  return new Response(JSON.stringify({ code: reply.answer.code, handshake, data: seal(text, handshake) }), {
    headers: json,
  });
}

/**
 * A fake API: `script` answers each call (attempt counts from 1 across all calls); every call
 * is kept in `seen`.
 */
export function fakeApi(mode: Mode, script: Script) {
  const seen: SeenCall[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const target = input instanceof Request ? input.url : input.toString();
    const request = new Request(new URL(target, 'http://coffer.test'), init);
    const call = await seenOf(mode, request);
    seen.push(call);
    const reply = script(call, seen.length);
    if ('network' in reply) throw new TypeError('fetch failed');
    if ('hang' in reply) {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    return responseOf(mode, reply);
  };
  return { fetch, seen };
}

/** The version read: a GET with no token, the call transport tests send. */
export const readVersion: Call<z.infer<typeof versionDataSchema>> = {
  method: 'GET',
  uri: '/api/v1/common/version',
  params: {},
  data: versionDataSchema,
  token: null,
  lang: 'EN',
};

/** A user/info answer for a user with nothing bound and no real name yet; `overrides` say what differs. */
export function userInfo(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: '7',
    email: 'alice@example.com',
    nickname: 'alice',
    avatar: '/avatars/1.png',
    inviteCode: 'ALICE1',
    referrerInviteCode: null,
    kycStatus: 'not_verified',
    tradePasswordSet: false,
    authenticatorBound: false,
    antiPhishingSet: false,
    frozen: false,
    lang: 'en',
    defaultAccountId: '1',
    accounts: [],
    createdAt: '2026-01-05T02:00:00Z',
    ...overrides,
  };
}

/** Transport options around a fake fetch, with a fixed clock. */
export function transportFor(mode: Mode, fetch: typeof globalThis.fetch) {
  return { mode, gatewayPath: '/api/gw', fetch, nowSeconds: () => 1_767_225_600 };
}

/** The user `loggedInHandlers` logs in unless told another. */
export const USER_ID = '42';

/**
 * The worker's handlers for a logged-in user (token `tok-1`) over a scripted envelope API, with
 * the sync engine on in-memory storage; `online` is read at each call.
 */
export async function loggedInHandlers(
  script: Script,
  options: { userId?: string; online?: () => boolean; locale?: Locale; sync?: boolean } = {},
) {
  const api = fakeApi('envelope', script);
  const session = new MemorySessionStore();
  await session.saveSession({ token: 'tok-1', userId: options.userId ?? USER_ID, email: 'a@example.com' });
  if (options.locale !== undefined) await session.setLocale(options.locale);
  const storage = new MemorySyncStorage();
  const handlers = createHandlers({
    transport: transportFor('envelope', api.fetch),
    session,
    // Each call here is a new read: none shares the answer of the one before (the debounce window).
    queue: { sleep: async () => {}, debounceMs: 0 },
    ...(options.sync === false ? {} : { sync: { storage, online: options.online ?? (() => true) } }),
  });
  return { handlers, seen: api.seen, session, storage };
}

/** The call `seen` is a GET of `uri` with `params`, carrying the logged-in user's token (`tok-1`). */
export function expectUserRead(
  seen: SeenCall | undefined,
  uri: string,
  params: Record<string, unknown>,
): void {
  expect(seen).toMatchObject({ method: 'GET', uri, params });
  expect(seen?.headers['authorization']).toBe('Bearer tok-1');
}

/** What `read` finds in the user's IndexedDB database, opened for it and closed after. */
export async function readUserDb<T>(userId: string, read: (db: UserDb) => Promise<T>): Promise<T> {
  const db = openUserDb(userId);
  try {
    return await read(db);
  } finally {
    db.close();
  }
}

/** Deletes every IndexedDB database after each test of the calling file. */
export function deleteDatabasesAfterEach(): void {
  afterEach(async () => {
    for (const name of await Dexie.getDatabaseNames()) await Dexie.delete(name);
  });
}

/**
 * A test file's logged-in user (`USER_ID`): `setup` gives the worker's handlers over a scripted
 * API (`online` as given, with `options` as for `loggedInHandlers`), `readDb` reads the user's
 * database, and every database is deleted after each test.
 */
export function workerUser(options: { locale?: Locale; sync?: boolean } = {}) {
  deleteDatabasesAfterEach();
  const setup = (script: Script, online = true) =>
    loggedInHandlers(script, { ...options, userId: USER_ID, online: () => online });
  return {
    setup,
    readDb: <T>(read: (db: UserDb) => Promise<T>) => readUserDb(USER_ID, read),
    /** Offline, outbox-enqueue refuses each of `commands` (each carries a secret or a price) and nothing is sent. */
    async expectRefusedOffline(...commands: OutboxCommand[]): Promise<void> {
      const { handlers, seen } = await setup(() => ok(null), false);
      for (const command of commands) {
        expect(await handlers['outbox-enqueue'](command)).toEqual({ kind: 'refused', reason: 'offline' });
      }
      expect(seen).toHaveLength(0);
    },
    /** Online, outbox-enqueue refuses each command as invalid input naming its field. */
    async expectInvalid(...cases: Array<[command: OutboxCommand, field: string]>): Promise<void> {
      const { handlers } = await setup(() => ok(null));
      for (const [command, field] of cases) {
        expect(await handlers['outbox-enqueue'](command)).toMatchObject({
          kind: 'refused',
          reason: 'invalid_input',
          field,
        });
      }
    },
  };
}

/** A command as the UI hands it to `outbox-enqueue`. */
type OutboxCommand = Parameters<Handlers['outbox-enqueue']>[0];

/** How a file's read of the worker's handlers answers for one account. */
type LiveRead = (handlers: Handlers, accountId: string) => Promise<{ kind: string }>;

/**
 * The tests every read the worker keeps nothing of shares, each under `describe` of the caller:
 * offline it is a transport failure (no earlier `what` served in its place), a refusal comes back
 * with its code and message, and an answer of another shape (`odd`) is not trusted.
 */
export function liveReadTests(
  what: string,
  read: LiveRead,
  answers: { good: unknown; odd: unknown },
  refused: { why: string; accountId: string; code: number; message: string },
): void {
  const setup = (script: Script) => loggedInHandlers(script, { userId: USER_ID });
  test(`offline it is a transport failure: no earlier ${what} is served in its place`, async () => {
    let online = true;
    const { handlers } = await setup(() => (online ? ok(answers.good) : { network: true }));
    expect((await read(handlers, '7')).kind).toBe('ok');
    online = false;
    expect(await read(handlers, '7')).toMatchObject({ kind: 'transport', status: null });
  });

  test(`a refusal comes back with its code and message (${refused.why})`, async () => {
    const { handlers } = await setup(() => refusal(refused.code, refused.message));
    expect(await read(handlers, refused.accountId)).toMatchObject({
      kind: 'refused',
      code: refused.code,
      message: refused.message,
    });
  });

  test(`an answer of another shape is not trusted (a transport failure, never a half-parsed ${what})`, async () => {
    const { handlers } = await setup(() => ok(answers.odd));
    expect((await read(handlers, '7')).kind).toBe('transport');
  });
}
