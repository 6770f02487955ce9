/**
 * A Coffer server for tests, on a chosen database tier, with a manual clock and a mailbox that
 * keeps every mail; and clients for both transports (plain and the envelope, the latter built
 * with the independent node:crypto codec).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createServer, type CofferServer } from '../../server/app.js';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import type { Mail, Mailer } from '../../server/mail/mailer.js';
import { openAnswer, sealRequest } from '../../server/http/envelope-codec.js';
import { openDatabase } from '../../server/db/database.js';
import { BusinessError } from '../../server/core/errors.js';
import { openTestDatabase, type Tier } from './database.js';

export type Transport = 'plain' | 'envelope';
export const TRANSPORTS: readonly Transport[] = ['plain', 'envelope'];

export interface Answer<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}

export interface CallOptions {
  token?: string;
  lang?: string;
  key?: string;
  method?: 'GET' | 'POST';
  ip?: string;
  /** The User-Agent header (light-my-request's own when absent). */
  userAgent?: string;
}

export class CapturingMailer implements Mailer {
  readonly description = 'the test mailbox';
  readonly sent: Mail[] = [];
  async send(mail: Mail) {
    this.sent.push(mail);
  }
  close() {}
  /** The 6-digit code of the newest mail to `to`. */
  lastCode(to: string): string {
    const mail = [...this.sent].reverse().find((item) => item.to === to.toLowerCase());
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  }
}

export interface TestServer {
  server: CofferServer;
  clock: ManualClock;
  mailer: CapturingMailer;
  rootInvite: string;
  dataDir: string;
  /** Calls a route through the chosen transport and returns the parsed answer. */
  call<T = Record<string, unknown>>(
    transport: Transport,
    uri: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Answer<T>>;
  /** Registers a user and returns its token; `options` (the client's address, device, language) go with both calls. */
  register(
    transport: Transport,
    email: string,
    password?: string,
    invite?: string,
    options?: CallOptions,
  ): Promise<{ token: string; userId: string }>;
  close(): Promise<void>;
}

export const ROOT_INVITE = 'ROOTTEST1';
export const newKey = () => crypto.randomUUID();

/**
 * The Redis prefix of this test process's servers (COFFER_REDIS_PREFIX): instances started here
 * share it, so they share limits and evictions with each other and with no other run.
 */
export const TEST_REDIS_PREFIX = `coffer-test-${process.pid}-${crypto.randomBytes(3).toString('hex')}:`;

export async function startTestServer(
  tier: Tier,
  env: Record<string, string> = {},
  distDir?: string,
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    COFFER_ROOT_INVITE: ROOT_INVITE,
    COFFER_SCRYPT_COST: '4',
    COFFER_JOBS: 'off',
    COFFER_DEMO: 'off',
    COFFER_RATE_LIMIT: '0',
    LOG_LEVEL: 'silent',
    // Limits and lockouts live in a shared Redis for an hour: this process's keys are its own.
    COFFER_REDIS_PREFIX: TEST_REDIS_PREFIX,
    ...env,
  });
  const clock = new ManualClock('2026-01-05T02:00:00Z');
  const mailer = new CapturingMailer();
  // A test that shares its database with a child process names it in DATABASE_URL (not dropped here).
  const database = env['DATABASE_URL']
    ? await openDatabase({
        databaseUrl: env['DATABASE_URL'],
        readUrl: env['DATABASE_READ_URL'],
        isReadAnswer: (error) => error instanceof BusinessError,
      })
    : await openTestDatabase(tier);
  const server = await createServer({
    config,
    clock,
    mailer,
    database,
    logger: false,
    ...(distDir ? { distDir } : {}),
  });
  await server.app.ready();

  const call: TestServer['call'] = async (transport, uri, params = {}, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (options.lang) headers['lang'] = options.lang;
    if (options.key) headers['idempotency-key'] = options.key;
    // Inside an envelope the device is the outer request's (the gateway passes it on).
    const outer: Record<string, string> = options.userAgent ? { 'user-agent': options.userAgent } : {};
    const method = options.method ?? 'POST';
    const remoteAddress = options.ip ?? '203.0.113.7';
    if (transport === 'plain') {
      const response = await server.app.inject({
        method,
        url:
          method === 'GET'
            ? `${uri}?${new URLSearchParams(params as Record<string, string>).toString()}`
            : uri,
        headers:
          method === 'GET'
            ? { ...headers, ...outer }
            : { ...headers, ...outer, 'content-type': 'application/json' },
        remoteAddress,
        ...(method === 'GET' ? {} : { payload: JSON.stringify(params) }),
      });
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
      return JSON.parse(response.body) as Answer<never>; // the test asserts on the shape
    }
    const fields = sealRequest({ method, uri, headers, params }, clock.now());
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/${config.gatewaySegment}`,
      headers: { ...outer, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields }).toString(),
      remoteAddress,
    });
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
    const sealed = JSON.parse(response.body) as {
      code: number;
      handshake?: string;
      data: string | null;
      message?: string;
    };
    if (sealed.handshake === undefined || typeof sealed.data !== 'string')
      return sealed as unknown as Answer<never>; // an unsealed refusal
    return JSON.parse(
      openAnswer({ code: sealed.code, handshake: sealed.handshake, data: sealed.data }),
    ) as Answer<never>;
  };

  const register: TestServer['register'] = async (
    transport,
    email,
    password = 'secret123',
    invite = ROOT_INVITE,
    options = {},
  ) => {
    const sent = await call(transport, '/api/v1/sso/sendRegisterCode', { email }, options);
    if (sent.code !== 200) throw new Error(`sendRegisterCode: ${JSON.stringify(sent)}`);
    const answer = await call<{ token: string; userId: string }>(
      transport,
      '/api/v1/sso/register',
      { email, code: mailer.lastCode(email), inviteCode: invite, password, confirmPassword: password },
      options,
    );
    if (answer.code !== 200) throw new Error(`register: ${JSON.stringify(answer)}`);
    return answer.data;
  };

  return {
    server,
    clock,
    mailer,
    rootInvite: ROOT_INVITE,
    dataDir,
    call,
    register,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test server of the calling suite: started on `tier` before its tests, closed after them;
 * `env` may be a function, read when the server starts (after the hooks registered before this).
 * Its members read the started server, so use them only inside tests, hooks and the helpers they
 * call (reading one before the suite's beforeAll ran throws).
 */
export function useTestServer(
  tier: Tier,
  env: Record<string, string> | (() => Record<string, string>) = {},
): TestServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(tier, typeof env === 'function' ? env() : env);
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestServer => {
    if (!started) throw new Error('the test server is not started yet');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get clock() {
      return current().clock;
    },
    get mailer() {
      return current().mailer;
    },
    get rootInvite() {
      return current().rootInvite;
    },
    get dataDir() {
      return current().dataDir;
    },
    call: (transport, uri, params, options) => current().call(transport, uri, params, options),
    register: (transport, email, password, invite, options) =>
      current().register(transport, email, password, invite, options),
    close: () => current().close(),
  };
}
