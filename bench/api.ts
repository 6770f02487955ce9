/**
 * `npm run bench:api`: requests per second of authenticated `user/info` (plain and through the
 * envelope), `user/assets` and `emailLogin`, in one run on the embedded PGlite and on
 * PostgreSQL, each beside two bare Fastify routes on the same machine: one answering with no
 * query, and the fair anchor doing the same single primary-key query (the user's row) straight
 * through the driver (`pg`'s pool of 10, Coffer's own size; on PGlite its one client). Prints the
 * ratio of each to both. Loopback only, fixed concurrency, fixed duration per scenario; stops by
 * itself.
 *
 * Environment:
 * - BENCH_SECONDS        seconds per scenario (default 5)
 * - BENCH_CONCURRENCY    requests in flight (default 16)
 * - BENCH_DATABASE_URL   a PostgreSQL database to use; it is migrated, and keeps the bench user
 *                        (a random address) and its sessions. Unset: a scratch database on the
 *                        server at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432),
 *                        dropped afterwards; when no server answers, only PGlite runs (it says so)
 * - COFFER_SCRYPT_COST   log2 of scrypt's N for passwords (default 15, the production default)
 *
 * The load is driven in-process with fetch, so client and servers share this process's CPU;
 * the bare routes pay the same client cost, which is what makes the ratios comparable.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { createServer, type CofferServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { sealRequest, type EnvelopeInner } from '../server/http/envelope-codec.js';
import { findRootInvite } from '../server/repositories/user.repository.js';
import { createPostgresDatabase, postgresReachable } from '../tests/helpers/database.js';
import { CapturingMailer } from '../tests/helpers/server.js';

const SECONDS = positiveNumber('BENCH_SECONDS', 5);
const CONCURRENCY = Math.floor(positiveNumber('BENCH_CONCURRENCY', 16));
const SCRYPT_COST = process.env['COFFER_SCRYPT_COST'] ?? '15';
const BENCH_DATABASE_URL = process.env['BENCH_DATABASE_URL'];
const PASSWORD = 'bench-secret-1';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${raw}`);
  return value;
}

/** A ratio to a bare route, with two significant digits when it is small. */
const ratio = (rate: number, bare: number) => {
  const value = rate / bare;
  return `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}x`;
};

/** One request; resolves true when it succeeded (HTTP 200 and, for Coffer, body code 200). */
type Request = () => Promise<boolean>;

interface Result {
  name: string;
  requests: number;
  errors: number;
  perSecond: number;
}

/** Runs `request` with CONCURRENCY in flight for `seconds`, after a short warm-up. */
async function drive(name: string, request: Request, seconds = SECONDS): Promise<Result> {
  const run = async (ms: number) => {
    let requests = 0;
    let errors = 0;
    const deadline = performance.now() + ms;
    const worker = async () => {
      while (performance.now() < deadline) {
        try {
          if (await request()) requests += 1;
          else errors += 1;
        } catch {
          errors += 1;
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return { requests, errors, elapsed: (performance.now() - started) / 1000 };
  };
  await run(Math.min(1000, seconds * 200)); // warm-up: JIT, connections, caches
  const { requests, errors, elapsed } = await run(seconds * 1000);
  return { name, requests, errors, perSecond: requests / elapsed };
}

/** True when a body is a Coffer answer (plain or sealed, whose `code` repeats the inner one) with code 200. */
async function answeredOk(response: Response): Promise<boolean> {
  if (response.status !== 200) {
    await response.arrayBuffer();
    return false;
  }
  const body: unknown = await response.json();
  return typeof body === 'object' && body !== null && 'code' in body && body.code === 200;
}

/** The fair anchor's one query: the user's row by primary key, as Coffer's own read of it. */
const ANCHOR_SQL = 'select * from users where id = $1';

/** A bare Fastify route on loopback; returns its URL and its closer. */
async function bareRoute(answer: () => Promise<unknown>): Promise<{ url: string; app: FastifyInstance }> {
  const app = Fastify({ logger: false });
  app.get('/bare', answer);
  return { url: `${await app.listen({ port: 0, host: '127.0.0.1' })}/bare`, app };
}

/** Runs every scenario against a Coffer server on one database; prints and returns nothing else. */
async function benchOn(databaseUrl: string | undefined): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    COFFER_RATE_LIMIT: '0',
    COFFER_SCRYPT_COST: SCRYPT_COST,
    COFFER_JOBS: 'off',
    LOG_LEVEL: 'silent',
  });
  const mailer = new CapturingMailer();
  let coffer: CofferServer | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  try {
    coffer = await createServer({
      config,
      mailer,
      logger: false,
      ...(databaseUrl ? {} : { database: await openDatabase({}) }),
    });
    const origin = await coffer.app.listen({ port: 0, host: '127.0.0.1' });
    const gateway = `${origin}/api/${config.gatewaySegment}`;

    const post = (uri: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
      fetch(`${origin}${uri}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(params),
      });
    const sealed = (inner: EnvelopeInner) =>
      fetch(gateway, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        // A fresh handshake, IV and sign every time: the gateway refuses a sign it has seen.
        body: new URLSearchParams({ ...sealRequest(inner, new Date()) }).toString(),
      });

    // One user, registered through the API with the code the mailer caught.
    const rootInvite = (await findRootInvite(coffer.database.db))?.code;
    if (!rootInvite) throw new Error('no root invite');
    const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const sent = await post('/api/v1/sso/sendRegisterCode', { email });
    if (!(await answeredOk(sent))) throw new Error('sendRegisterCode failed');
    const code = mailer.lastCode(email);
    const registered = await post('/api/v1/sso/register', {
      email,
      code,
      inviteCode: rootInvite,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    const registration: unknown = await registered.json();
    const data =
      typeof registration === 'object' && registration !== null && 'data' in registration
        ? registration.data
        : undefined;
    const token =
      typeof data === 'object' && data !== null && 'token' in data ? String(data.token) : undefined;
    const userId = typeof data === 'object' && data !== null && 'userId' in data ? Number(data.userId) : NaN;
    if (!token || !Number.isSafeInteger(userId))
      throw new Error(`register failed: ${JSON.stringify(registration)}`);
    const auth = { authorization: `Bearer ${token}` };
    const login = { email, password: PASSWORD };

    // The bare routes: no query, and the fair anchor's one query straight through the driver.
    const bare = await bareRoute(async () => ({ ok: true }));
    closers.push(() => bare.app.close());
    let anchorQuery: () => Promise<unknown>;
    if (databaseUrl) {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
      closers.push(() => pool.end());
      anchorQuery = async () => (await pool.query(ANCHOR_SQL, [userId])).rows[0];
    } else {
      // drizzle keeps its driver as $client: here the server's own in-memory PGlite.
      const client = (
        coffer.database.db as unknown as {
          $client: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
        }
      ).$client;
      anchorQuery = async () => (await client.query(ANCHOR_SQL, [userId])).rows[0];
    }
    const anchor = await bareRoute(async () => {
      const row = (await anchorQuery()) as Record<string, unknown> | undefined; // a row of users, or none
      return { ok: row !== undefined, email: row?.['email'] };
    });
    closers.push(() => anchor.app.close());
    const fetchOk = async (url: string) => {
      const response = await fetch(url);
      await response.arrayBuffer();
      return response.status === 200;
    };

    // The bare routes come first: every ratio is against them.
    const scenarios: Array<[string, Request]> = [
      ['bare fastify, no query', () => fetchOk(bare.url)],
      ['bare fastify + 1 pk query (anchor)', () => fetchOk(anchor.url)],
      [
        'user/info plain',
        async () => answeredOk(await fetch(`${origin}/api/v1/user/info`, { headers: auth })),
      ],
      [
        'user/info envelope',
        async () =>
          answeredOk(
            await sealed({
              method: 'GET',
              uri: '/api/v1/user/info',
              headers: { Authorization: `Bearer ${token}` },
              params: {},
            }),
          ),
      ],
      [
        'user/assets plain',
        async () => answeredOk(await fetch(`${origin}/api/v1/user/assets`, { headers: auth })),
      ],
      ['emailLogin plain', async () => answeredOk(await post('/api/v1/sso/emailLogin', login))],
      [
        'emailLogin envelope',
        async () =>
          answeredOk(
            await sealed({ method: 'POST', uri: '/api/v1/sso/emailLogin', headers: {}, params: login }),
          ),
      ],
    ];

    console.log('');
    console.log(
      `database ${coffer.database.kind}${databaseUrl ? '' : ' (in memory)'}, scrypt cost ${config.scryptCost}, concurrency ${CONCURRENCY}, ${SECONDS} s per scenario, client and servers in this process on loopback`,
    );

    const results: Result[] = [];
    for (const [name, request] of scenarios) {
      const result = await drive(name, request);
      results.push(result);
      const bareRate = results[0]?.perSecond ?? result.perSecond;
      const anchorRate = results[1]?.perSecond ?? result.perSecond;
      console.log(
        `${name}: ${Math.round(result.perSecond)} req/s (${ratio(result.perSecond, bareRate)} bare, ${ratio(result.perSecond, anchorRate)} anchor)${result.errors ? `, ${result.errors} errors` : ''}`,
      );
    }

    const bareRate = results[0]?.perSecond ?? 1;
    const anchorRate = results[1]?.perSecond ?? 1;
    const rows = results.map((result) => [
      result.name,
      String(Math.round(result.perSecond)),
      ratio(result.perSecond, bareRate),
      ratio(result.perSecond, anchorRate),
      String(result.requests),
      String(result.errors),
    ]);
    const header = [coffer.database.kind, 'req/s', 'vs bare', 'vs anchor', 'requests', 'errors'];
    const widths = header.map((title, column) =>
      Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
    );
    const line = (cells: string[]) =>
      cells
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
        )
        .join('  ');
    console.log('');
    console.log(line(header));
    console.log(line(widths.map((width) => '-'.repeat(width))));
    for (const row of rows) console.log(line(row));
  } finally {
    for (const close of closers.reverse()) await close();
    await coffer?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `Coffer API bench: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, node ${process.version}, ${process.platform}/${process.arch}`,
  );
  await benchOn(undefined);
  if (BENCH_DATABASE_URL) {
    await benchOn(BENCH_DATABASE_URL);
  } else if (await postgresReachable()) {
    const scratch = await createPostgresDatabase();
    try {
      await benchOn(scratch.url);
    } finally {
      await scratch.drop();
    }
  } else {
    console.log('');
    console.log('SKIPPED PostgreSQL: no server at TEST_DATABASE_URL (or BENCH_DATABASE_URL unset)');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
