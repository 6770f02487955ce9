/**
 * `npm run chaos` ("Faults"): commands from simulated offline clients through a faulty
 * network to API instances that are killed, on a PostgreSQL that is restarted; at the end every
 * command took effect exactly once or ended visibly, and `ledger check` passes.
 *
 * - PostgreSQL: a private cluster of this run (tests/helpers/pg-cluster.ts, its own loopback
 *   port; the machine's shared server is never touched), restarted once mid-run in immediate
 *   mode (a crash: in-flight transactions are lost, recovery at start), down for a moment.
 * - API: CHAOS_INSTANCES child processes of the real server (`node --import tsx server/main.ts`,
 *   what `npm start` runs; jobs off so that no interest or output moves money under the count),
 *   killed with SIGKILL at random moments and restarted on the same port, one at a time.
 * - Network: a faulty TCP proxy in front of each instance (bench/chaos-proxy.ts): per connection
 *   it passes, delays, drops, cuts the answer after the server answered, stalls the request past
 *   the client's timeout and delivers it late, or delivers it twice at once.
 * - Clients: CHAOS_USERS users, registered, given a trade password and a sub-account, funded by a
 *   superadmin's ledger adjustment and issued tickets, through the API (in-process, before the
 *   chaos); half send plain JSON, half through the gateway (a new envelope for every attempt).
 *   Each sends its commands one after the other, as the client's outbox does, and now and then
 *   is offline for a moment and queues a few (drawn from what it knew then) to send when it is
 *   back. Each command gets an Idempotency-Key when made and is re-sent with the same key, with
 *   backoff and jitter, on every transport failure, timeout, HTTP 5xx and body code 500
 *   (docs/protocol.md section 5), until a definitive answer: 200, or a refusal that ends it
 *   visibly (470, 409, 400 ...). The commands: transfers between the user's two accounts,
 *   hosting orders made, added to and decreased (sections 13 and 20), machines bought with
 *   tickets or USDT (section 22).
 *
 * Every client keeps its own model of its accounts (cash, hosting, tickets, its orders' principal)
 * from the rules of the protocol, predicts each command's answer code and applies the effect of
 * each success. At the end, with every instance up and the proxies out of the way:
 * - each answered command's stored answer (idempotency_keys) is, byte for byte, the one it got,
 *   and no stored key belongs to no command;
 * - each successful transfer is exactly one ledger transfer `account_transfer:u<user>:<key>`,
 *   each successful hosting command exactly one change row (and its order), each buy exactly one
 *   holding, and no such record exists without a successful command (a refused one moved nothing);
 * - every answer code is the model's prediction, and every account's cash, hosting and available
 *   tickets, read through the API, are the model's (initial funding plus the successes' effects);
 * - `ledger check` passes (/api/admin/ledger/check).
 * It prints its counts and exits 1 on any violation, any command left unresolved, any instance
 * that died by itself (it is restarted, as a service manager would), or any HTTP 5xx or body code
 * 500 outside the PostgreSQL outage.
 *
 * Not part of `npm test` (minutes on a 2-core machine). Loopback only.
 *
 * Environment:
 * - CHAOS_COMMANDS    commands to send (default 10000)
 * - CHAOS_SECONDS     the most seconds to spend sending new commands (default 600); the ones in
 *                     flight then settle, within CHAOS_SETTLE_SECONDS (default 120)
 * - CHAOS_SEED        the random seed (default: from the clock, printed): the same seed gives each
 *                     client the same commands, and the proxies and the killer the same sequence
 *                     of draws (which request meets which fault still depends on timing)
 * - CHAOS_USERS       simulated clients, one user each (default 40)
 * - CHAOS_INSTANCES   API instances (default 2)
 * - CHAOS_KILL_SECONDS  mean seconds from an instance's restart to the next kill (default 6)
 * - CHAOS_TIMEOUT_MS  a client's timeout for one attempt (default 4000)
 * - REDIS_URL         Redis shared by the instances (default redis://127.0.0.1:6379/3); when it
 *                     does not answer, the run goes on without it and says so
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createServer, type CofferServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { moneyText, parseMoney } from '../contract/money.js';
import { openAnswer, sealRequest } from '../server/http/envelope-codec.js';
import { CapturingMailer } from '../tests/helpers/server.js';
import { clusterToolsMissing, freePort, PgCluster } from '../tests/helpers/pg-cluster.js';
import { FAULTS, FaultyProxy, type FaultPlan } from './chaos-proxy.js';
import { positiveNumber, seconds, seededRandom } from './report.js';
import { cliContext } from '../server/cli/cli-context.js';

const MAX_COMMANDS = Math.floor(positiveNumber('CHAOS_COMMANDS', 10_000));
const SEND_MS = positiveNumber('CHAOS_SECONDS', 600) * 1000;
const SETTLE_MS = positiveNumber('CHAOS_SETTLE_SECONDS', 120) * 1000;
const SEED = Number(process.env['CHAOS_SEED'] ?? Date.now() % 2 ** 31);
const USERS = Math.floor(positiveNumber('CHAOS_USERS', 40));
const INSTANCES = Math.floor(positiveNumber('CHAOS_INSTANCES', 2));
const KILL_MS = positiveNumber('CHAOS_KILL_SECONDS', 6) * 1000;
const TIMEOUT_MS = positiveNumber('CHAOS_TIMEOUT_MS', 4000);
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379/3';
const FAULT_PLAN: FaultPlan = {
  delay: 0.08,
  drop: 0.05,
  cut: 0.07,
  stall: 0.02,
  twice: 0.03,
  delayMs: 1500,
  stallMs: TIMEOUT_MS + 500,
};
const PASSWORD = 'chaos-secret-1';
const TRADE_PASSWORD = 'chaos-trade-1';
const ROOT_INVITE = 'CHAOSROOT1';
const GATEWAY_SEGMENT = 'gw';
/** Each main account's funding: two adjustments of 9000, each below the review threshold (10000). */
const FUNDING_STEP = parseMoney('9000');
const FUNDING = FUNDING_STEP * 2n;
const TICKETS = 60;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The seeded generator of report.ts, with amounts in whole cents. */
function generator(seed: number) {
  const { next, int, pick } = seededRandom(seed);
  /** An amount of whole cents from `low` to `high` minor units (inclusive, rounded to cents). */
  const cents = (low: bigint, high: bigint): bigint => {
    const cent = 10_000n;
    const from = (low + cent - 1n) / cent;
    const to = high / cent;
    if (to <= from) return from * cent;
    return (from + BigInt(Math.floor(next() * Number(to - from + 1n)))) * cent;
  };
  return { next, int, pick, cents };
}
type Generator = ReturnType<typeof generator>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = performance.now();
const elapsed = () => performance.now() - started;
const usdt = (amount: bigint) => moneyText(amount);
/** Rounded up to whole cents: an amount a user may enter (cash can hold 6 decimals after a penalty). */
const centsAbove = (amount: bigint) => ((amount + 9_999n) / 10_000n) * 10_000n;

// ---------------------------------------------------------------------------------------------
// The clients' model: what each command should answer and move

interface Rate {
  numerator: bigint;
  denominator: bigint;
}
/** An exact decimal rate ("0.01"), read independently of the server's code. */
function rateOf(text: string): Rate {
  const [whole = '0', fraction = ''] = text.split('.');
  return { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) };
}
const penaltyOf = (amount: bigint, rate: Rate) => (amount * rate.numerator) / rate.denominator;

interface Product {
  id: string;
  minimum: bigint;
  maximum: bigint;
  earlyExit: boolean;
  penalty: Rate;
}
interface MachineOffer {
  id: string;
  price: bigint;
  ticketPrice: number;
}
interface AccountModel {
  id: string;
  cash: bigint;
  hosting: bigint;
  tickets: number;
}
interface OrderModel {
  id: string;
  account: AccountModel;
  principal: bigint;
  product: Product;
  open: boolean;
}
interface User {
  index: number;
  userId: string;
  token: string;
  main: AccountModel;
  sub: AccountModel;
  orders: OrderModel[];
  /** How it sends (the web app's COFFER_CLIENT_TRANSPORT): half the clients each way. */
  transport: 'plain' | 'envelope';
  /** Draws its commands (the same for a seed) ... */
  random: Generator;
  /** ... and, apart, its backoff's jitter, which depends on how many attempts failed. */
  jitter: Generator;
}

type CommandKind =
  'transfer' | 'hosting-create' | 'hosting-add' | 'hosting-sub' | 'machine-ticket' | 'machine-usdt';
const COMMAND_KINDS: readonly CommandKind[] = [
  'transfer',
  'hosting-create',
  'hosting-add',
  'hosting-sub',
  'machine-ticket',
  'machine-usdt',
];

interface Answer {
  code: number;
  text: string;
  data: unknown;
}
interface Command {
  user: User;
  kind: CommandKind;
  path: string;
  params: Record<string, unknown>;
  key: string;
  attempts: number;
  /**
   * The model's prediction, made when the command is sent (its turn in the outbox: the model then
   * holds every earlier command's outcome): the answer code, and on 200 what to apply to the model
   * (it returns a violation's text, or undefined).
   */
  predict: () => Prediction;
  /** The predicted code, once sent. */
  expected?: number;
  answer?: Answer;
  /** The record the success made: a ledger key, a hosting change id or a holding id. */
  effect?: string | undefined;
}

interface Prediction {
  expected: number;
  apply: (data: unknown) => string | undefined;
}

const field = (data: unknown, ...names: string[]): string | undefined => {
  let value = data;
  for (const name of names)
    value =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined; // walking parsed JSON
  return typeof value === 'string' ? value : undefined;
};

/** The next command of `user`, drawn from its model as it is now, with the model's prediction for when it is sent. */
function nextCommand(user: User, products: Product[], machines: MachineOffer[]): Command {
  const random = user.random;
  const base = { user, key: crypto.randomUUID(), attempts: 0 };
  const roll = random.next();
  const account = random.next() < 0.5 ? user.main : user.sub;
  if (roll < 0.45) {
    const from = user.main.cash >= user.sub.cash === random.next() < 0.8 ? user.main : user.sub;
    const to = from === user.main ? user.sub : user.main;
    const amount =
      random.next() < 0.05 || from.cash < 1_000_000n
        ? centsAbove(from.cash) + random.cents(1_000_000n, 100_000_000n)
        : random.cents(1_000_000n, from.cash < 500_000_000n ? from.cash : 500_000_000n);
    const transferKey = `account_transfer:u${user.userId}:${base.key}`;
    return {
      ...base,
      kind: 'transfer',
      path: '/api/v1/account/transfer',
      params: { fromAccountId: from.id, toAccountId: to.id, asset: 'USDT', amount: usdt(amount) },
      predict: () => ({
        expected: amount > from.cash ? 470 : 200,
        apply: () => {
          from.cash -= amount;
          to.cash += amount;
          return undefined;
        },
      }),
      effect: transferKey,
    };
  }
  const open = user.orders.filter((order) => order.open);
  if (roll < 0.75 && (open.length === 0 || random.next() < 0.3)) {
    const product = random.next() < 0.1 ? (products[2] ?? products[0]) : random.pick(products.slice(0, 2));
    if (!product) throw new Error('no hosting product');
    const amount =
      random.next() < 0.05 || account.cash < product.minimum
        ? centsAbove(account.cash) + random.cents(product.minimum, product.minimum * 3n)
        : random.cents(
            product.minimum,
            account.cash < product.minimum * 10n ? account.cash : product.minimum * 10n,
          );
    return {
      ...base,
      kind: 'hosting-create',
      path: '/api/v1/hosting/create',
      params: {
        accountId: account.id,
        productId: product.id,
        amount: usdt(amount),
        tradePassword: TRADE_PASSWORD,
      },
      predict: () => ({
        expected: amount > account.cash ? 470 : 200,
        apply: (data) => {
          const id = field(data, 'order', 'id');
          if (!id) return 'no order id in the answer';
          account.cash -= amount;
          account.hosting += amount;
          user.orders.push({ id, account, principal: amount, product, open: true });
          return undefined;
        },
      }),
    };
  }
  if (roll < 0.75) {
    const order = random.pick(open);
    const target = order.account;
    if (random.next() < 0.5) {
      const amount =
        random.next() < 0.05
          ? centsAbove(target.cash) + random.cents(1_000_000n, 50_000_000n)
          : random.cents(10_000_000n, 300_000_000n);
      return {
        ...base,
        kind: 'hosting-add',
        path: '/api/v1/hosting/add',
        params: { orderId: order.id, amount: usdt(amount) },
        predict: () => ({
          expected: !order.open
            ? 409
            : amount > order.product.maximum - order.principal
              ? 400
              : amount > target.cash
                ? 470
                : 200,
          apply: (data) => {
            target.cash -= amount;
            target.hosting += amount;
            order.principal += amount;
            return field(data, 'change', 'kind') === 'add' ? undefined : 'the change is not an add';
          },
        }),
      };
    }
    const amount =
      random.next() < 0.03
        ? order.principal + random.cents(1_000_000n, 10_000_000n)
        : random.cents(10_000_000n, 200_000_000n);
    return {
      ...base,
      kind: 'hosting-sub',
      path: '/api/v1/hosting/sub',
      params: { orderId: order.id, amount: usdt(amount) },
      predict: () => ({
        expected: !order.open || !order.product.earlyExit ? 409 : amount > order.principal ? 400 : 200,
        apply: (data) => {
          // Below the product's minimum, the whole order is redeemed instead (section 20).
          const redeems = order.principal - amount < order.product.minimum;
          const out = redeems ? order.principal : amount;
          const penalty = penaltyOf(out, order.product.penalty);
          target.hosting -= out;
          target.cash += out - penalty;
          order.principal -= out;
          if (redeems) order.open = false;
          const kind = field(data, 'change', 'kind');
          if (kind !== (redeems ? 'redeem' : 'sub'))
            return `the change is a ${kind}, not a ${redeems ? 'redeem' : 'sub'}`;
          if (field(data, 'change', 'penalty') !== usdt(penalty))
            return `penalty ${field(data, 'change', 'penalty')}, not ${usdt(penalty)}`;
          return undefined;
        },
      }),
    };
  }
  if (roll < 0.93) {
    // Tickets are issued to the main account.
    const machine = random.next() < 0.8 ? machines[0] : machines[1];
    if (!machine) throw new Error('no machine');
    const quantity = 1 + random.int(3);
    const needed = machine.ticketPrice * quantity;
    return {
      ...base,
      kind: 'machine-ticket',
      path: '/api/v1/machine/buy',
      params: {
        accountId: user.main.id,
        machineId: machine.id,
        quantity,
        payWith: 'ticket',
        tradePassword: TRADE_PASSWORD,
      },
      predict: () => ({
        expected: machine.ticketPrice === 0 ? 409 : needed > user.main.tickets ? 470 : 200,
        apply: () => {
          user.main.tickets -= needed;
          return undefined;
        },
      }),
    };
  }
  const machine = machines[0];
  if (!machine) throw new Error('no machine');
  const quantity = 1 + random.int(2);
  const cost = machine.price * BigInt(quantity);
  return {
    ...base,
    kind: 'machine-usdt',
    path: '/api/v1/machine/buy',
    params: {
      accountId: account.id,
      machineId: machine.id,
      quantity,
      payWith: 'usdt',
      tradePassword: TRADE_PASSWORD,
    },
    predict: () => ({
      expected: cost > account.cash ? 470 : 200,
      apply: () => {
        account.cash -= cost;
        return undefined;
      },
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Sending, as an outbox does

type Failure = 'reset' | 'refused' | 'timeout' | 'http-5xx' | 'http-other' | 'body-500' | 'unreadable';
const FAILURES: readonly Failure[] = [
  'reset',
  'refused',
  'timeout',
  'http-5xx',
  'http-other',
  'body-500',
  'unreadable',
];

interface ServerError {
  at: number;
  what: string;
}

/**
 * One attempt on one connection (`connection: close`, so each attempt meets one proxy decision):
 * plain JSON, or through the gateway in a new envelope around the same call and key (section 3.4).
 */
function attempt(port: number, command: Command): Promise<Answer | { failure: Failure; detail: string }> {
  const inner = {
    authorization: `Bearer ${command.user.token}`,
    'idempotency-key': command.key,
    lang: 'EN',
  };
  const envelope = command.user.transport === 'envelope';
  const body = envelope
    ? new URLSearchParams({
        ...sealRequest(
          { method: 'POST', uri: command.path, headers: inner, params: command.params },
          new Date(),
        ),
      }).toString()
    : JSON.stringify(command.params);
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Answer | { failure: Failure; detail: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: envelope ? `/api/${GATEWAY_SEGMENT}` : command.path,
        agent: false,
        headers: {
          'content-type': envelope ? 'application/x-www-form-urlencoded' : 'application/json',
          'content-length': Buffer.byteLength(body),
          connection: 'close',
          ...(envelope ? {} : inner),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => done({ failure: 'reset', detail: 'answer cut' }));
        response.on('aborted', () => done({ failure: 'reset', detail: 'answer cut' }));
        response.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          if (status >= 500)
            return done({ failure: 'http-5xx', detail: `HTTP ${status}: ${text.slice(0, 160)}` });
          if (status !== 200)
            return done({ failure: 'http-other', detail: `HTTP ${status}: ${text.slice(0, 160)}` });
          try {
            if (envelope) {
              const sealed = JSON.parse(text) as { code?: unknown; handshake?: unknown; data?: unknown }; // checked here
              // A refused envelope (460) comes back unsealed; every other answer is sealed.
              if (typeof sealed.handshake === 'string' && typeof sealed.data === 'string')
                text = openAnswer({
                  code: Number(sealed.code),
                  handshake: sealed.handshake,
                  data: sealed.data,
                });
            }
            const parsed = JSON.parse(text) as { code?: unknown; message?: unknown; data?: unknown }; // checked below
            if (typeof parsed.code !== 'number')
              return done({ failure: 'unreadable', detail: text.slice(0, 160) });
            if (parsed.code === 500)
              return done({ failure: 'body-500', detail: `body 500: ${String(parsed.message)}` });
            done({ code: parsed.code, text, data: parsed.data });
          } catch {
            done({ failure: 'unreadable', detail: text.slice(0, 160) });
          }
        });
      },
    );
    const timer = setTimeout(
      () => done({ failure: 'timeout', detail: `no answer in ${TIMEOUT_MS} ms` }),
      TIMEOUT_MS,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      done({
        failure: error.code === 'ECONNREFUSED' ? 'refused' : 'reset',
        detail: error.code ?? error.message,
      }),
    );
    request.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// API instances and PostgreSQL

/**
 * One API instance: a child process of the real server on a fixed port. It is supervised as a
 * service manager would: when it dies by itself (a crash, not one of our kills) the crash is
 * counted, its last output kept, and it is started again.
 */
class Instance {
  child: ChildProcess | undefined;
  up = false;
  starts = 0;
  /** Exits we did not cause, with the last lines the process wrote. */
  readonly crashes: string[] = [];
  /** False once the run is over: an exit then is ours. */
  supervised = true;
  private starting: Promise<void> | undefined;
  private readonly log: fs.WriteStream;
  private tail = '';

  constructor(
    readonly index: number,
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    logDir: string,
  ) {
    this.log = fs.createWriteStream(path.join(logDir, `instance-${index}.log`));
  }

  /** Starts it unless it is up or starting; retries a failed start. */
  ensureUp(): Promise<void> {
    if (this.up) return Promise.resolve();
    this.starting ??= (async () => {
      for (let tries = 1; ; tries += 1) {
        try {
          await this.start();
          return;
        } catch (error) {
          if (tries >= 5) throw error;
          await sleep(1000);
        }
      }
    })().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** `node --import tsx server/main.ts` on its port; resolves at its banner. */
  private async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: repoRoot,
      env: { ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.starts += 1;
    this.tail = '';
    this.log.write(`--- start ${this.starts} at ${seconds(elapsed())}\n`);
    const hear = (chunk: Buffer) => {
      this.log.write(chunk);
      this.tail = (this.tail + chunk.toString('utf8')).slice(-3000);
    };
    child.stdout.on('data', hear);
    child.stderr.on('data', hear);
    child.once('exit', (code, signal) => {
      if (this.child !== child) return;
      const wasUp = this.up;
      this.up = false;
      if (!this.supervised || signal === 'SIGKILL') return;
      this.crashes.push(`exit ${code ?? signal} at ${seconds(elapsed())}:\n${this.tail}`);
      this.log.write(`--- crashed (exit ${code ?? signal}) at ${seconds(elapsed())}\n`);
      console.log(
        `[${seconds(elapsed())}] instance ${this.index}: CRASHED (exit ${code ?? signal}); restarting it`,
      );
      if (wasUp) setTimeout(() => void this.ensureUp().catch(() => undefined), 500);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`instance ${this.index}: no banner in 90 s:\n${this.tail}`));
      }, 90_000);
      const listen = () => {
        if (!this.tail.includes('Coffer is serving on')) return;
        clearTimeout(timer);
        child.stdout.off('data', listen);
        child.off('exit', early);
        resolve();
      };
      const early = () => {
        clearTimeout(timer);
        reject(new Error(`instance ${this.index} exited at start:\n${this.tail}`));
      };
      child.stdout.on('data', listen);
      child.once('exit', early);
    });
    this.up = true;
  }

  /** SIGKILL: no shutdown, no answer for the requests it was serving. */
  async kill(): Promise<void> {
    const child = this.child;
    this.up = false;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.log.write(`--- killed at ${seconds(elapsed())}\n`);
  }

  /** Error lines (pino level 50 and above) in its log so far. */
  errorLines(): string[] {
    const text = fs.readFileSync(this.log.path, 'utf8');
    return text.split('\n').filter((line) => /"level":(50|60)/.test(line));
  }
}

/**
 * pg_ctl on the run's cluster, as the helper runs it (as the postgres OS user when root), but
 * asynchronously: the helper's calls are synchronous and would freeze the proxies and clients
 * of this process for the outage, when the point is to serve them through it.
 */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

// ---------------------------------------------------------------------------------------------
// Setup through the API (in-process, before the chaos)

async function inject(
  coffer: CofferServer,
  uri: string,
  params: Record<string, unknown>,
  token?: string,
  ip = '127.0.0.1',
): Promise<{ code: number; message: string; data: unknown }> {
  const response = await coffer.app.inject({
    method: 'POST',
    url: uri,
    headers: {
      'content-type': 'application/json',
      lang: 'EN',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    remoteAddress: ip,
    payload: JSON.stringify(params),
  });
  const answer = JSON.parse(response.body) as { code: number; message: string; data: unknown }; // checked by callers
  if (answer.code !== 200) throw new Error(`${uri}: ${response.body.slice(0, 300)}`);
  return answer;
}

async function setUp(coffer: CofferServer) {
  await coffer.services.operators.create(cliContext(), {
    email: 'chaos.boss@example.com',
    role: 'superadmin',
    password: PASSWORD,
  });
  const operator = field(
    (await inject(coffer, '/api/admin/auth/login', { email: 'chaos.boss@example.com', password: PASSWORD }))
      .data,
    'token',
  );
  if (!operator) throw new Error('no operator token');
  const mailer = coffer.mailer as CapturingMailer; // the setup server was made with one
  const users: User[] = [];
  for (let index = 0; index < USERS; index += 1) {
    const email = `chaos.user${index}@example.com`;
    const ip = `10.9.${index >> 8}.${index & 255}`;
    await inject(coffer, '/api/v1/sso/sendRegisterCode', { email }, undefined, ip);
    const registered = await inject(
      coffer,
      '/api/v1/sso/register',
      {
        email,
        code: mailer.lastCode(email),
        inviteCode: ROOT_INVITE,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
      undefined,
      ip,
    );
    const token = field(registered.data, 'token');
    const userId = String((registered.data as { userId?: unknown }).userId); // checked by its use below
    if (!token) throw new Error('no token at registration');
    await inject(
      coffer,
      '/api/v1/user/bindTradePassword',
      { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
      token,
    );
    const sub = field(
      (await inject(coffer, '/api/v1/account/createSubAccount', { name: 'chaos' }, token)).data,
      'id',
    );
    const list = (await inject(coffer, '/api/v1/account/list', {}, token)).data as {
      items: Array<{ id: string; kind: string }>;
    }; // the contract's shape
    const main = list.items.find((item) => item.kind === 'main')?.id;
    if (!main || !sub) throw new Error('no accounts');
    for (let step = 0n; step < FUNDING; step += FUNDING_STEP)
      await inject(
        coffer,
        '/api/admin/ledger/adjust',
        { accountId: main, asset: 'USDT', amount: usdt(FUNDING_STEP), reason: 'chaos funding' },
        operator,
      );
    users.push({
      index,
      userId,
      token,
      main: { id: main, cash: FUNDING, hosting: 0n, tickets: TICKETS },
      sub: { id: sub, cash: 0n, hosting: 0n, tickets: 0 },
      orders: [],
      transport: index % 2 === 0 ? 'plain' : 'envelope',
      random: generator(SEED * 31 + index + 1),
      jitter: generator(SEED * 37 + index + 2),
    });
  }
  // At most 10,000 tickets in one issue: 100 accounts at a time.
  for (let from = 0; from < users.length; from += 100)
    await inject(
      coffer,
      '/api/admin/ticket/issue',
      {
        accountIds: users.slice(from, from + 100).map((user) => user.main.id),
        count: TICKETS,
        reason: 'chaos tickets',
      },
      operator,
    );
  const first = users[0];
  if (!first) throw new Error('CHAOS_USERS must be at least 1');
  const config = (await inject(coffer, '/api/v1/hosting/hosting-config', {}, first.token)).data as {
    products: Array<{
      id: string;
      minimum: string;
      maximum: string;
      earlyExit: boolean;
      penaltyRate: string;
    }>;
  }; // the contract's shape
  const products: Product[] = config.products.map((product) => ({
    id: product.id,
    minimum: parseMoney(product.minimum),
    maximum: parseMoney(product.maximum),
    earlyExit: product.earlyExit,
    penalty: rateOf(product.penaltyRate),
  }));
  const list = (await inject(coffer, '/api/v1/machine/list', {}, first.token)).data as {
    items: Array<{ id: string; price: string; ticketPrice: number }>;
  }; // the contract's shape
  const machines: MachineOffer[] = list.items.map((machine) => ({
    id: machine.id,
    price: parseMoney(machine.price),
    ticketPrice: machine.ticketPrice,
  }));
  if (products.length < 2 || machines.length < 2)
    throw new Error('the seeded products and machines are missing');
  return { operator, users, products, machines };
}

// ---------------------------------------------------------------------------------------------

interface World {
  cluster: PgCluster;
  databaseUrl: string;
  instances: Instance[];
  proxies: FaultyProxy[];
}
type Fixtures = Awaited<ReturnType<typeof setUp>>;
interface Run {
  commands: Command[];
  failures: Record<Failure, number>;
  serverErrors: ServerError[];
  violations: string[];
  kills: number;
  restarts: number;
  pgRestarts: number;
  offlineSpells: number;
  outage: { from: number; to: number } | undefined;
  sendMs: number;
}

/**
 * The chaos: every client sends until the budget (CHAOS_COMMANDS, CHAOS_SECONDS) is spent and
 * its last command is answered (or CHAOS_SETTLE_SECONDS pass), while instances are killed and
 * restarted and PostgreSQL is restarted once; then every instance is up and the proxies are
 * out of the way and empty.
 */
async function runChaos(world: World, fixtures: Fixtures): Promise<Run> {
  const { cluster, instances, proxies } = world;
  const { users, products, machines } = fixtures;
  const sendStarted = performance.now();
  const sendDeadline = sendStarted + SEND_MS;
  const settleDeadline = sendDeadline + SETTLE_MS;
  const commands: Command[] = [];
  const failures = Object.fromEntries(FAILURES.map((kind) => [kind, 0])) as Record<Failure, number>;
  const serverErrors: ServerError[] = [];
  const violations: string[] = [];
  let sending = true;
  let kills = 0;
  let restarts = 0;
  let pgRestarts = 0;
  let offlineSpells = 0;
  let outage: { from: number; to: number } | undefined;
  let pgRestart: Promise<void> | undefined;

  const restartPostgres = async () => {
    const from = performance.now();
    outage = { from, to: Number.POSITIVE_INFINITY };
    console.log(`[${seconds(elapsed())}] PostgreSQL: immediate stop (a crash)`);
    await cluster.stopInBackground('immediate');
    await sleep(1500);
    await cluster.startInBackground();
    outage.to = performance.now();
    pgRestarts += 1;
    console.log(`[${seconds(elapsed())}] PostgreSQL: started again after ${seconds(outage.to - from)}`);
  };

  /** Takes one command from the budget; triggers the PostgreSQL restart at 40 % of it. */
  const budget = () => {
    const now = performance.now();
    if (commands.length >= MAX_COMMANDS || now >= sendDeadline) return false;
    if (!pgRestart && (commands.length >= MAX_COMMANDS * 0.4 || now - sendStarted >= SEND_MS * 0.4))
      pgRestart = restartPostgres().catch((error: unknown) => {
        violations.push(`the PostgreSQL restart failed: ${String(error)}`);
      });
    return true;
  };

  /**
   * One simulated client. Online, it sends each command as it makes it; now and then it is
   * offline for a moment and queues a few commands in its outbox (each with its key, drawn from
   * its model as it was), then sends them in order when it is back. Either way one command at a
   * time, each until its definitive answer, as the real outbox does.
   */
  const runClient = async (user: User) => {
    let turn = user.index;
    for (;;) {
      const outbox: Command[] = [];
      const queued = user.random.next() < 0.2 ? 2 + user.random.int(7) : 1;
      while (outbox.length < queued && budget()) {
        const command = nextCommand(user, products, machines);
        commands.push(command);
        outbox.push(command);
      }
      if (outbox.length === 0) return;
      if (outbox.length > 1) {
        offlineSpells += 1;
        await sleep(200 + user.jitter.next() * 1000);
      }
      for (const command of outbox) {
        const prediction = command.predict();
        command.expected = prediction.expected;
        let backoff = 50;
        while (performance.now() < settleDeadline) {
          const proxy = proxies[turn++ % proxies.length];
          if (!proxy) break;
          command.attempts += 1;
          const result = await attempt(proxy.port, command);
          if ('code' in result) {
            command.answer = result;
            break;
          }
          failures[result.failure] += 1;
          if (['http-5xx', 'body-500', 'http-other', 'unreadable'].includes(result.failure))
            serverErrors.push({ at: performance.now(), what: `${command.path}: ${result.detail}` });
          await sleep(backoff * (0.5 + user.jitter.next()));
          backoff = Math.min(backoff * 2, 2000);
        }
        if (!command.answer) return; // the settle deadline passed: it and the rest stay unresolved
        if (command.answer.code === 200 && prediction.expected === 200) {
          const problem = prediction.apply(command.answer.data);
          if (problem) violations.push(`${command.kind} ${command.key}: ${problem}`);
          if (command.kind.startsWith('hosting')) command.effect = field(command.answer.data, 'change', 'id');
          if (command.kind.startsWith('machine'))
            command.effect = field(command.answer.data, 'machine', 'id');
        } else if (command.answer.code !== prediction.expected) {
          violations.push(
            `${command.kind} ${JSON.stringify(command.params)}: answered ${command.answer.code} where the model expects ${prediction.expected}: ${command.answer.text.slice(0, 200)}`,
          );
          return; // the model no longer knows this user's state: it sends nothing more
        }
      }
    }
  };

  const killer = generator(SEED + 7);
  const monkey = async () => {
    while (sending) {
      await sleep(KILL_MS * (0.5 + killer.next()));
      if (!sending || instances.some((instance) => !instance.up)) continue;
      const victim = killer.pick(instances);
      await victim.kill();
      kills += 1;
      console.log(`[${seconds(elapsed())}] instance ${victim.index}: SIGKILL`);
      await sleep(200 + killer.next() * 1800);
      await victim.ensureUp();
      restarts += 1;
    }
  };

  const monkeyDone = monkey().catch((error: unknown) => {
    violations.push(`an instance did not come back: ${String(error)}`);
  });
  const progress = setInterval(() => {
    const answered = commands.filter((command) => command.answer).length;
    console.log(`[${seconds(elapsed())}] ${commands.length} commands made, ${answered} answered`);
  }, 15_000);
  await Promise.all(users.map((user) => runClient(user)));
  const sendMs = performance.now() - sendStarted;
  sending = false;
  clearInterval(progress);
  await monkeyDone;
  await pgRestart;
  for (const instance of instances) await instance.ensureUp();
  for (const proxy of proxies) proxy.faulty = false;
  // Stalled requests may still be on their way: wait until the proxies are empty.
  const drainUntil = performance.now() + FAULT_PLAN.stallMs + 10_000;
  while (proxies.some((proxy) => proxy.open > 0) && performance.now() < drainUntil) await sleep(200);
  return {
    commands,
    failures,
    serverErrors,
    violations,
    kills,
    restarts,
    pgRestarts,
    offlineSpells,
    outage,
    sendMs,
  };
}

/** The checks of a run (see the top of this file); each violation is added to the run's. */
async function check(world: World, fixtures: Fixtures, run: Run) {
  const { commands, violations, serverErrors, outage, pgRestarts } = run;
  const { users, operator } = fixtures;
  const pool = new pg.Pool({ connectionString: world.databaseUrl, max: 2 });
  try {
    const owners = users.map((user) => `u${user.userId}`);
    const stored = new Map<string, string | null>();
    for (const row of (
      await pool.query<{ owner: string; key: string; answer: string | null }>(
        'select owner, key, answer from idempotency_keys where owner = any($1)',
        [owners],
      )
    ).rows)
      stored.set(`${row.owner}/${row.key}`, row.answer);
    const known = new Set(commands.map((command) => `u${command.user.userId}/${command.key}`));
    for (const key of stored.keys())
      if (!known.has(key)) violations.push(`a stored key of no command: ${key}`);

    const unresolved = commands.filter((command) => !command.answer);
    let answersDiffer = 0;
    let refusedUnstored = 0;
    for (const command of commands) {
      const answer = stored.get(`u${command.user.userId}/${command.key}`);
      if (!command.answer) continue;
      // A refusal of the parameters comes before the key is looked at: nothing ran, nothing stored.
      if (answer === undefined && command.answer.code !== 200) refusedUnstored += 1;
      else if (answer !== command.answer.text) {
        answersDiffer += 1;
        violations.push(`${command.kind} ${command.key}: the stored answer is not the one the client got`);
      }
    }

    const succeeded = commands.filter((command) => command.answer?.code === 200);
    const expectedEffects = new Map<string, Command>();
    let missing = 0;
    let duplicates = 0;
    for (const command of succeeded) {
      if (!command.effect) {
        violations.push(`${command.kind} ${command.key}: succeeded without a record id in its answer`);
        continue;
      }
      const name = `${command.kind.split('-')[0]}:${command.effect}`;
      if (expectedEffects.has(name)) {
        duplicates += 1;
        violations.push(`two commands answered with one record ${name}`);
      }
      expectedEffects.set(name, command);
    }
    const records: string[] = [
      ...(
        await pool.query<{ key: string }>("select key from ledger_transfers where kind = 'account_transfer'")
      ).rows.map((row) => `transfer:${row.key}`),
      ...(await pool.query<{ id: string }>('select id::text from hosting_order_changes')).rows.map(
        (row) => `hosting:${row.id}`,
      ),
      ...(await pool.query<{ id: string }>('select id::text from owned_machines')).rows.map(
        (row) => `machine:${row.id}`,
      ),
    ];
    const seen = new Set<string>();
    for (const record of records) {
      if (seen.has(record)) {
        duplicates += 1;
        violations.push(`a record twice: ${record}`);
      } else if (!expectedEffects.has(record)) {
        duplicates += 1;
        violations.push(`a record of no successful command: ${record}`);
      }
      seen.add(record);
    }
    for (const name of expectedEffects.keys())
      if (!seen.has(name)) {
        missing += 1;
        violations.push(`a successful command left no record: ${name}`);
      }
    const creates = succeeded.filter((command) => command.kind === 'hosting-create').length;
    const orders = Number(
      (await pool.query<{ n: string }>('select count(*) as n from hosting_orders')).rows[0]?.n,
    );
    if (orders !== creates) violations.push(`${orders} hosting orders for ${creates} successful creates`);

    // Balances and tickets through the API, straight to an instance.
    const direct = world.instances[0];
    const read = async (uri: string, params: Record<string, unknown>, token: string) => {
      if (!direct) throw new Error('no instance');
      const response = await fetch(`http://127.0.0.1:${direct.port}${uri}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(params),
      });
      return (await response.json()) as { code: number; data: unknown }; // the contract's answer
    };
    let balancesChecked = 0;
    for (const user of users)
      for (const account of [user.main, user.sub]) {
        const assets = await read('/api/v1/user/assets', { accountId: account.id }, user.token);
        const tickets = await read(
          '/api/v1/user/tickets',
          { accountId: account.id, status: 'available' },
          user.token,
        );
        const cash = field(assets.data, 'cash');
        const hosting = field(assets.data, 'hosting');
        const available = (tickets.data as { available?: unknown } | null)?.available; // the contract's shape
        if (cash !== usdt(account.cash) || hosting !== usdt(account.hosting) || available !== account.tickets)
          violations.push(
            `account ${account.id}: cash ${cash}, hosting ${hosting}, tickets ${String(available)}; the model: ${usdt(account.cash)}, ${usdt(account.hosting)}, ${account.tickets}`,
          );
        balancesChecked += 1;
      }
    const ledger = await read('/api/admin/ledger/check', {}, operator);
    const ledgerOk = ledger.code === 200 && (ledger.data as { ok?: unknown } | null)?.ok === true; // the contract's shape
    if (!ledgerOk) violations.push(`ledger check: ${JSON.stringify(ledger).slice(0, 500)}`);

    const outsideOutage = serverErrors.filter(
      (error) => !outage || error.at < outage.from || error.at > outage.to + 10_000,
    );
    const errorLines = world.instances.flatMap((instance) => instance.errorLines());
    const crashes = world.instances.flatMap((instance) => instance.crashes);

    if (crashes.length > 0)
      violations.unshift(`${crashes.length} instance crashes; the first one: ${crashes[0]?.slice(-1500)}`);
    if (unresolved.length > 0) violations.push(`${unresolved.length} commands unresolved`);
    if (pgRestarts !== 1) violations.push('PostgreSQL was not restarted');
    if (outsideOutage.length > 0)
      violations.push(`${outsideOutage.length} HTTP 5xx or body 500 answers outside the PostgreSQL outage`);
    return {
      unresolved,
      succeeded,
      duplicates,
      missing,
      answersDiffer,
      refusedUnstored,
      balancesChecked,
      ledgerOk,
      outsideOutage,
      errorLines,
      crashes,
    };
  } finally {
    await pool.end();
  }
}

/** Prints the run's counts. */
function report(world: World, run: Run, checks: Awaited<ReturnType<typeof check>>): void {
  const { commands, failures, serverErrors, kills, restarts, pgRestarts, offlineSpells, outage, sendMs } =
    run;
  const { proxies } = world;
  const { unresolved, succeeded, outsideOutage, crashes } = checks;
  const count = (kind: CommandKind) => commands.filter((command) => command.kind === kind).length;
  const succeededOf = (kind: CommandKind) => succeeded.filter((command) => command.kind === kind).length;
  const refusedByCode = new Map<number, number>();
  for (const command of commands)
    if (command.answer && command.answer.code !== 200)
      refusedByCode.set(command.answer.code, (refusedByCode.get(command.answer.code) ?? 0) + 1);
  const attempts = commands.reduce((sum, command) => sum + command.attempts, 0);
  const enveloped = commands
    .filter((command) => command.user.transport === 'envelope')
    .reduce((sum, command) => sum + command.attempts, 0);
  const proxyCounts = Object.fromEntries(
    [...FAULTS, 'upstreamRefused' as const].map((kind) => [
      kind,
      proxies.reduce((sum, proxy) => sum + proxy.counts[kind], 0),
    ]),
  );
  console.log(
    `\ncommands sent: ${commands.length} in ${seconds(sendMs)} (${(commands.length / (sendMs / 1000)).toFixed(0)} per second); ${offlineSpells} offline spells queued 2 to 8 in an outbox`,
  );
  for (const kind of COMMAND_KINDS)
    console.log(`  ${kind.padEnd(15)} ${String(count(kind)).padStart(6)}, succeeded ${succeededOf(kind)}`);
  console.log(
    `attempts: ${attempts} (${(attempts / Math.max(commands.length, 1)).toFixed(2)} per command; ${enveloped} through the gateway, each in a new envelope)`,
  );
  console.log(
    `transport failures seen by the clients (a reset: a drop, a cut answer or a killed instance behind its proxy): ${FAILURES.map((kind) => `${kind} ${failures[kind]}`).join(', ')}`,
  );
  console.log(
    `proxy decisions (upstreamRefused: its instance was down): ${Object.entries(proxyCounts)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
  );
  console.log(
    `instances: ${kills} kills (SIGKILL), ${restarts} restarts; PostgreSQL restarts (immediate): ${pgRestarts}${outage ? `, down ${seconds(outage.to - outage.from)}` : ''}`,
  );
  console.log(
    `succeeded: ${succeeded.length}; refused (ended visibly): ${[...refusedByCode].map(([code, n]) => `${code}: ${n}`).join(', ') || 'none'}`,
  );
  console.log(`instances that died by themselves (not killed by us): ${crashes.length}`);
  console.log(
    `unresolved: ${unresolved.length}; duplicates: ${checks.duplicates}; missing effects: ${checks.missing}; stored answers differing: ${checks.answersDiffer}; refusals of parameters (nothing stored): ${checks.refusedUnstored}`,
  );
  console.log(
    `balances checked: ${checks.balancesChecked} accounts; ledger check: ${checks.ledgerOk ? 'ok' : 'FAILED'}`,
  );
  console.log(
    `HTTP 5xx or body 500 answers: ${serverErrors.length} (${outsideOutage.length} outside the PostgreSQL outage); error lines in the instances' logs: ${checks.errorLines.length}`,
  );
  for (const error of outsideOutage.slice(0, 10))
    console.log(`  at ${seconds(error.at - started)}: ${error.what}`);
}

async function main(): Promise<void> {
  const missing = clusterToolsMissing();
  if (missing) {
    console.error(`chaos: cannot make a private PostgreSQL cluster: ${missing}`);
    process.exitCode = 1;
    return;
  }
  const redis = (await reachable(REDIS_URL)) ? REDIS_URL : undefined;
  console.log(
    `chaos: seed ${SEED}; ${MAX_COMMANDS} commands or ${seconds(SEND_MS)} of sending, ${USERS} clients, ` +
      `${INSTANCES} API instances, a kill ${seconds(KILL_MS)} on average after each restart, client timeout ${TIMEOUT_MS} ms`,
  );
  console.log(
    redis
      ? `Redis: ${redis} (shared by the instances)`
      : `Redis: ${REDIS_URL} does not answer: running WITHOUT Redis (each instance keeps its own counters and caches)`,
  );
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-chaos-'));
  const cluster = await PgCluster.create();
  leftovers.cluster = cluster;
  const closers: Array<() => Promise<void> | void> = [
    () => {
      cluster.destroy();
      leftovers.cluster = undefined;
    },
  ];
  let failed = false;
  try {
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('create database coffer');
    await admin.end();
    const databaseUrl = cluster.url('coffer');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: undefined,
      COFFER_NOW: undefined,
      SMTP_URL: undefined,
      HOST: '127.0.0.1',
      DATA_DIR: path.join(scratch, 'data'),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis,
      // This run's keys alone: limits and lockouts of earlier runs (an hour long) must not meet it.
      COFFER_REDIS_PREFIX: `coffer-chaos-${crypto.randomBytes(4).toString('hex')}:`,
      COFFER_ROOT_INVITE: ROOT_INVITE,
      COFFER_GATEWAY_SEGMENT: GATEWAY_SEGMENT,
      COFFER_SECRET_KEY: crypto.randomBytes(32).toString('hex'),
      COFFER_JOBS: 'off',
      COFFER_RATE_LIMIT: '0',
      COFFER_SCRYPT_COST: '10',
      COFFER_DEVNET: 'off',
      COFFER_CLIENT_BUILD: 'off',
      LOG_LEVEL: 'warn',
    };
    const configEnv = Object.fromEntries(
      Object.entries({ ...env, PORT: '0' }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const coffer = await createServer({
      config: loadConfig(configEnv),
      mailer: new CapturingMailer(),
      logger: false,
    });
    closers.push(() => coffer.close());
    const setupStarted = performance.now();
    const { operator, users, products, machines } = await setUp(coffer);
    console.log(
      `setup: ${users.length} users registered, funded ${usdt(FUNDING)} USDT and ${TICKETS} tickets each, in ${seconds(performance.now() - setupStarted)}`,
    );

    const instances: Instance[] = [];
    for (let index = 0; index < INSTANCES; index += 1)
      instances.push(new Instance(index, await freePort(), env, scratch));
    leftovers.instances = instances;
    closers.push(async () => {
      for (const instance of instances) {
        instance.supervised = false;
        await instance.kill();
      }
    });
    await Promise.all(instances.map((instance) => instance.ensureUp()));
    const proxies = await Promise.all(
      instances.map((instance) =>
        FaultyProxy.start(instance.port, FAULT_PLAN, generator(SEED + 1000 + instance.index).next),
      ),
    );
    closers.push(async () => {
      for (const proxy of proxies) await proxy.close();
    });
    console.log(
      `instances up on ports ${instances.map((instance) => instance.port).join(', ')}, behind proxies ${proxies.map((proxy) => proxy.port).join(', ')}; logs in ${scratch}`,
    );

    const world: World = { cluster, databaseUrl, instances, proxies };
    const fixtures: Fixtures = { operator, users, products, machines };
    const run = await runChaos(world, fixtures);
    const checks = await check(world, fixtures, run);
    report(world, run, checks);
    const { violations } = run;
    if (violations.length > 0) {
      failed = true;
      console.log(`\n${violations.length} violations (seed ${SEED}); the first 20:`);
      for (const violation of violations.slice(0, 20)) console.log(`  ${violation}`);
      console.log(`instance logs kept in ${scratch}`);
    }
  } finally {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        console.error('chaos: closing:', error);
      }
    }
    if (!failed) fs.rmSync(scratch, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
  console.log(`\ndone in ${seconds(elapsed())}: ${failed ? 'FAILED' : 'ok'}`);
}

/** What an exit before the closers ran (the watchdog, an uncaught error) must still end. */
const leftovers: { cluster: PgCluster | undefined; instances: Instance[] } = {
  cluster: undefined,
  instances: [],
};
process.once('exit', () => {
  for (const instance of leftovers.instances) instance.child?.kill('SIGKILL');
  leftovers.cluster?.destroy();
});

const watchdog = setTimeout(
  () => {
    console.error('chaos: the run did not end within its bound plus five minutes: stopping');
    process.exit(1);
  },
  SEND_MS + SETTLE_MS + 300_000,
);
watchdog.unref();
main().then(
  () => process.exit(),
  (error: unknown) => {
    console.error('chaos: could not run:', error);
    process.exit(1);
  },
);
