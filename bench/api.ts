/**
 * `npm run bench:api`: requests per second of `emailLogin` and `user/info`, plain and through
 * the envelope, beside a bare Fastify route on the same machine, with the ratio to the bare
 * route. Loopback only, fixed concurrency, fixed duration per scenario; stops by itself.
 *
 * Environment:
 * - BENCH_SECONDS        seconds per scenario (default 5)
 * - BENCH_CONCURRENCY    requests in flight (default 16)
 * - BENCH_DATABASE_URL   a PostgreSQL database to use (default: in-memory PGlite); it is migrated,
 *                        and keeps the bench user (a random address) and its sessions
 * - COFFER_SCRYPT_COST   log2 of scrypt's N for passwords (default 15, the production default)
 *
 * The load is driven in-process with fetch, so client and server share this process's CPU;
 * the bare route pays the same client cost, which is what makes the ratios comparable.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { createServer, type CofferServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { sealRequest, type EnvelopeInner } from '../server/http/envelope-codec.js';
import { findRootInvite } from '../server/repositories/users.repository.js';
import { CapturingMailer } from '../tests/helpers/server.js';

const SECONDS = positiveNumber('BENCH_SECONDS', 5);
const CONCURRENCY = Math.floor(positiveNumber('BENCH_CONCURRENCY', 16));
const SCRYPT_COST = process.env['COFFER_SCRYPT_COST'] ?? '15';
const DATABASE_URL = process.env['BENCH_DATABASE_URL'];
const PASSWORD = 'bench-secret-1';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${raw}`);
  return value;
}

/** A ratio to the bare route, with two significant digits when it is small. */
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

async function main(): Promise<void> {
  // The bare route: the ceiling of Fastify plus this load generator on this machine.
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ ok: true }));
  const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/bare`;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(DATABASE_URL ? { DATABASE_URL } : {}),
    COFFER_RATE_LIMIT: '0',
    COFFER_SCRYPT_COST: SCRYPT_COST,
    COFFER_JOBS: 'off',
    LOG_LEVEL: 'silent',
  });
  const mailer = new CapturingMailer();
  let coffer: CofferServer | undefined;
  try {
    coffer = await createServer({
      config,
      mailer,
      logger: false,
      ...(DATABASE_URL ? {} : { database: await openDatabase({}) }),
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
    const token =
      typeof registration === 'object' &&
      registration !== null &&
      'data' in registration &&
      typeof registration.data === 'object' &&
      registration.data !== null &&
      'token' in registration.data
        ? String(registration.data.token)
        : undefined;
    if (!token) throw new Error(`register failed: ${JSON.stringify(registration)}`);
    const auth = { authorization: `Bearer ${token}` };
    const login = { email, password: PASSWORD };

    // The bare route comes first: every ratio is against it.
    const scenarios: Array<[string, Request]> = [
      [
        'bare fastify',
        async () => {
          const response = await fetch(bareUrl);
          await response.arrayBuffer();
          return response.status === 200;
        },
      ],
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
      ['emailLogin plain', async () => answeredOk(await post('/api/v1/sso/emailLogin', login))],
      [
        'emailLogin envelope',
        async () =>
          answeredOk(
            await sealed({ method: 'POST', uri: '/api/v1/sso/emailLogin', headers: {}, params: login }),
          ),
      ],
    ];

    const cpus = os.cpus();
    console.log(
      `Coffer API bench: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, node ${process.version}, ${process.platform}/${process.arch}`,
    );
    console.log(
      `database ${coffer.database.kind}${DATABASE_URL ? '' : ' (in memory)'}, scrypt cost ${config.scryptCost}, concurrency ${CONCURRENCY}, ${SECONDS} s per scenario, client and servers in this process on loopback`,
    );

    const results: Result[] = [];
    for (const [name, request] of scenarios) {
      const result = await drive(name, request);
      results.push(result);
      const bareRate = results[0]?.perSecond ?? result.perSecond;
      console.log(
        `${name}: ${Math.round(result.perSecond)} req/s (${ratio(result.perSecond, bareRate)} bare)${result.errors ? `, ${result.errors} errors` : ''}`,
      );
    }

    const bareRate = results[0]?.perSecond ?? 1;
    const rows = results.map((result) => [
      result.name,
      String(Math.round(result.perSecond)),
      ratio(result.perSecond, bareRate),
      String(result.requests),
      String(result.errors),
    ]);
    const header = ['scenario', 'req/s', 'vs bare', 'requests', 'errors'];
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
    await coffer?.close();
    await bare.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
