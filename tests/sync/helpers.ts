/**
 * Test doubles for the sync engine: a clock and timers the test moves by hand, a scripted
 * network that behaves like the server where it matters (Idempotency-Key replays, 401 for an
 * unknown token, a change log behind the pull), record factories, and an engine builder.
 */
import { Dexie } from 'dexie';
import { afterEach, beforeEach } from 'vitest';
import { PULL_PAGE_SIZE, SYNC_COLLECTIONS, type CollectionName } from '../../contract/sync.js';
import type { FeedbackRecord, NewsRecord, ProfileRecord } from '../../contract/api/content.js';
import type { AccountRecord, BalanceRecord } from '../../contract/api/account.js';
import type { SyncClock, Timers } from '../../sync/clock.js';
import { createSyncEngine, type SyncEngine, type SyncEnvironment } from '../../sync/engine.js';
import { DexieSyncStorage } from '../../sync/dexie-storage.js';
import { commandRegistry, type EnqueueInput } from '../../worker/commands.js';
import { MemoryLocks } from '../../sync/lease.js';
import { MemorySyncStorage } from '../../sync/memory-storage.js';
import type { SyncStorage } from '../../sync/storage.js';
import type { LocalImage, Uploader, UploadOptions } from '../../sync/uploader.js';
import { createApiClient } from '../../worker/api-client.js';
import { RequestQueue } from '../../worker/queue.js';
import { MemorySessionStore, type SessionStore } from '../../worker/session.js';
import type { Call, Outcome } from '../../worker/transport.js';
import { uploadDataSchema, type UploadData } from '../../contract/api/common.js';
import { PIXEL_PNG } from '../helpers/uploads.js';

export const START = Date.parse('2026-01-05T02:00:00Z');

/** Repeating timers driven by a FakeClock; `frozen` models a tab the browser froze. */
export class FakeTimers implements Timers {
  frozen = false;
  private readonly entries = new Set<{ ms: number; task: () => void | Promise<void>; next: number }>();

  constructor(private readonly clock: FakeClock) {}

  every(ms: number, task: () => void | Promise<void>): () => void {
    const entry = { ms, task, next: this.clock.now() + ms };
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  get count(): number {
    return this.entries.size;
  }

  async fire(now: number): Promise<void> {
    if (this.frozen) return;
    for (const entry of [...this.entries]) {
      while (entry.next <= now && this.entries.has(entry)) {
        entry.next += entry.ms;
        await entry.task();
      }
    }
  }
}

/** A clock that moves only when told, firing the timers of every tab on the way. */
export class FakeClock implements SyncClock {
  private readonly sets: FakeTimers[] = [];

  constructor(private ms: number = START) {}

  now(): number {
    return this.ms;
  }

  timers(): FakeTimers {
    const timers = new FakeTimers(this);
    this.sets.push(timers);
    return timers;
  }

  /** Moves time on in steps of `step` ms, awaiting every timer task that falls due. */
  async advance(ms: number, step = 250): Promise<void> {
    const end = this.ms + ms;
    while (this.ms < end) {
      this.ms = Math.min(end, this.ms + step);
      for (const timers of this.sets) await timers.fire(this.ms);
    }
  }
}

/** A call as the fake network saw it. */
export interface FakeCall {
  uri: string;
  key: string | null;
  token: string | null;
  params: Record<string, unknown>;
}

/**
 * What happens to one call on the way:
 * - network: never reaches the server (no answer);
 * - lose-answer: the server acts, the answer is lost (no answer);
 * - hang: the server acts, the answer never comes (a tab killed mid-send);
 * - status: an HTTP error before the server;
 * - body500: the server fails (nothing stored, as a rolled-back transaction);
 * - until: the server acts at once, its answer arrives when the promise settles (a slow network).
 */
export type Fault =
  'network' | 'lose-answer' | 'hang' | { status: number } | 'body500' | { until: Promise<void> };

interface LogEntry {
  collection: string;
  /** '0' for public collections, the user's id for user ones, `a<accountId>` for account ones. */
  scope: string;
  seq: number;
  id: string;
  deleted: boolean;
  record: unknown;
}

const never = <T>() => new Promise<T>(() => undefined);

/** The server as the outbox and the pull see it, in memory. */
export class FakeServer {
  readonly seen: FakeCall[] = [];
  /** Commands that took effect (each at most once per key). */
  readonly effects: FakeCall[] = [];
  /** token -> user id */
  readonly tokens = new Map<string, string>();
  /** account id -> its owner's user id */
  readonly accountOwners = new Map<string, string>();
  /** user id -> the default account's id (account/switch sets it) */
  readonly defaultAccounts = new Map<string, string>();
  /** account id -> USDT cash in minor units (the transfers move it) */
  readonly cash = new Map<string, bigint>();
  /** Scripted faults, asked for every call (`nth` counts all calls from 1). */
  fault: (call: FakeCall, nth: number) => Fault | null = () => null;
  /** Business refusals (e.g. a 400 for a bad nickname), stored with the key like the real server. */
  refuse: (call: FakeCall) => { code: number; message: string } | null = () => null;
  pageSize = PULL_PAGE_SIZE;
  /** Added to every pull answer (e.g. a collection this client does not know). */
  extraPullData: {
    changes: Record<string, { upserts: unknown[]; deletes: string[] }>;
    cursors: Record<string, string>;
  } | null = null;
  private readonly answers = new Map<string, Outcome<unknown>>();
  private readonly log: LogEntry[] = [];
  private uploads = 0;

  /** Adds a change to the log (the next pull delivers it). */
  change(
    collection: CollectionName | string,
    scope: string,
    id: string,
    record: unknown,
    deleted = false,
  ): void {
    this.log.push({ collection, scope, seq: this.log.length + 1, id, deleted, record });
  }

  /** Gives `userId` an account (the first one is main and default) and logs its records. */
  addAccount(userId: string, accountId: string, cash = 0n): void {
    const first = ![...this.accountOwners.values()].includes(userId);
    this.accountOwners.set(accountId, userId);
    if (first) this.defaultAccounts.set(userId, accountId);
    this.cash.set(accountId, cash);
    this.logAccounts(userId);
    this.logBalance(accountId);
  }

  private logAccounts(userId: string): void {
    for (const [accountId, owner] of this.accountOwners) {
      if (owner !== userId) continue;
      const main = [...this.accountOwners].find(([, other]) => other === userId)?.[0] === accountId;
      this.change(
        'accounts',
        userId,
        accountId,
        accountRecord(accountId, {
          kind: main ? 'main' : 'sub',
          isDefault: this.defaultAccounts.get(userId) === accountId,
        }),
      );
    }
  }

  private logBalance(accountId: string): void {
    const cash = this.cash.get(accountId) ?? 0n;
    this.change(
      'balances',
      `a${accountId}`,
      accountId,
      balanceRecord(accountId, { cash: String(cash / 1_000_000n) }),
    );
  }

  effectsOn(uri: string): FakeCall[] {
    return this.effects.filter((call) => call.uri === uri);
  }

  seenOn(uri: string): FakeCall[] {
    return this.seen.filter((call) => call.uri === uri);
  }

  /** The `Send` the worker's RequestQueue takes. */
  readonly send = async <T>(call: Call<T>): Promise<Outcome<T>> => {
    const outcome = await this.exchange({
      uri: call.uri,
      key: call.idempotencyKey ?? null,
      token: call.token,
      params: call.params,
    });
    if (outcome.kind !== 'ok') return outcome;
    const data = call.data.safeParse(outcome.data);
    return data.success
      ? { kind: 'ok', message: outcome.message, data: data.data }
      : { kind: 'transport', status: 200, message: 'malformed answer' };
  };

  /** The uploader over the same network (one attempt per call; faults apply). */
  readonly uploader: Uploader = {
    upload: async (image: LocalImage, options: UploadOptions): Promise<Outcome<UploadData>> => {
      const outcome = await this.exchange({
        uri: '/api/v1/common/up-img',
        key: options.idempotencyKey,
        token: options.token,
        params: { bytes: image.bytes.length, type: image.type },
      });
      if (outcome.kind !== 'ok') return outcome;
      return { kind: 'ok', message: outcome.message, data: uploadDataSchema.parse(outcome.data) };
    },
  };

  private async exchange(call: FakeCall): Promise<Outcome<unknown>> {
    this.seen.push(call);
    const fault = this.fault(call, this.seen.length);
    if (fault === 'network') return { kind: 'transport', status: null, message: 'fetch failed' };
    if (fault === 'body500') return { kind: 'refused', code: 500, message: 'internal error', data: null };
    if (fault !== null && typeof fault === 'object' && 'status' in fault)
      return { kind: 'transport', status: fault.status, message: `HTTP ${fault.status}` };
    const outcome = this.handle(call);
    if (fault !== null && typeof fault === 'object') await fault.until;
    if (fault === 'lose-answer') return { kind: 'transport', status: null, message: 'fetch failed' };
    if (fault === 'hang') return never();
    return outcome;
  }

  private handle(call: FakeCall): Outcome<unknown> {
    const userId = call.token === null ? null : (this.tokens.get(call.token) ?? null);
    if (call.uri === '/api/v1/sync/pull') {
      if (call.token !== null && userId === null)
        return { kind: 'refused', code: 401, message: 'not logged in', data: null };
      const asked = call.params['accountId'];
      if (asked !== undefined && (userId === null || this.accountOwners.get(String(asked)) !== userId))
        return { kind: 'refused', code: 403, message: 'not your account', data: null };
      return { kind: 'ok', message: 'OK', data: this.pull(userId, call.params) };
    }
    if (userId === null) return { kind: 'refused', code: 401, message: 'not logged in', data: null };
    const stored = call.key === null ? undefined : this.answers.get(`${userId}|${call.key}`);
    if (stored !== undefined) return stored; // a replay: no effect
    const refusal = this.refuse(call);
    const outcome: Outcome<unknown> = refusal
      ? { kind: 'refused', code: refusal.code, message: refusal.message, data: null }
      : { kind: 'ok', message: 'OK', data: this.apply(userId, call) };
    if (call.key !== null) this.answers.set(`${userId}|${call.key}`, outcome);
    return outcome;
  }

  private apply(userId: string, call: FakeCall): unknown {
    this.effects.push(call);
    const at = new Date(START).toISOString();
    switch (call.uri) {
      case '/api/v1/common/up-img': {
        this.uploads++;
        const id = `upload${String(this.uploads).padStart(6, '0')}`;
        return { id, url: `/api/v1/common/img/${id}` };
      }
      case '/api/v1/user/name-update': {
        const record = profileRecord(userId, { nickname: String(call.params['nickname']) });
        this.change('profile', userId, userId, record);
        return record;
      }
      case '/api/v1/user/avatar-update': {
        const record = profileRecord(userId, { avatar: String(call.params['avatar']) });
        this.change('profile', userId, userId, record);
        return record;
      }
      case '/api/v1/common/pushFeedback': {
        const id = String(this.effectsOn(call.uri).length);
        const images = Array.isArray(call.params['images']) ? call.params['images'].map(String) : [];
        const record = feedbackRecord(id, { title: String(call.params['title']), images, createdAt: at });
        this.change('feedback', userId, id, record);
        return record;
      }
      case '/api/v1/account/transfer': {
        const from = String(call.params['fromAccountId']);
        const to = String(call.params['toAccountId']);
        const amount = BigInt(Math.round(Number(call.params['amount']) * 1_000_000));
        for (const accountId of [from, to]) {
          if (this.accountOwners.get(accountId) !== userId) return null;
        }
        this.cash.set(from, (this.cash.get(from) ?? 0n) - amount);
        this.cash.set(to, (this.cash.get(to) ?? 0n) + amount);
        this.logBalance(from);
        this.logBalance(to);
        return { id: `t${this.effects.length}`, fromAccountId: from, toAccountId: to };
      }
      case '/api/v1/account/createSubAccount': {
        const accountId = `s${this.accountOwners.size + 1}`;
        this.addAccount(userId, accountId);
        return accountRecord(accountId, { kind: 'sub', name: String(call.params['name']) });
      }
      case '/api/v1/account/switch': {
        this.defaultAccounts.set(userId, String(call.params['accountId']));
        this.logAccounts(userId);
        return null;
      }
      default:
        return null;
    }
  }

  private pull(userId: string | null, params: Record<string, unknown>) {
    const asked = params['cursors'];
    const cursors: Record<string, unknown> = typeof asked === 'object' && asked !== null ? { ...asked } : {};
    const changes: Record<string, { upserts: unknown[]; deletes: string[] }> = {};
    const next: Record<string, string> = {};
    let hasMore = false;
    const askedAccount = params['accountId'];
    const accountId =
      userId === null
        ? null
        : typeof askedAccount === 'string'
          ? askedAccount
          : (this.defaultAccounts.get(userId) ?? null);
    for (const [name, spec] of Object.entries(SYNC_COLLECTIONS)) {
      const scope =
        spec.scope === 'public'
          ? '0'
          : spec.scope === 'user'
            ? userId
            : accountId === null
              ? null
              : `a${accountId}`;
      if (scope === null) continue;
      const cursor = cursors[name];
      const after = typeof cursor === 'string' ? Number(cursor.split('.')[1]) : 0;
      const entries = this.log.filter(
        (entry) => entry.collection === name && entry.scope === scope && entry.seq > after,
      );
      const page = entries.slice(0, this.pageSize);
      if (entries.length > this.pageSize) hasMore = true;
      const last = page[page.length - 1];
      next[name] = `0.${last ? last.seq : after}`;
      if (page.length === 0) continue;
      const latest = new Map(page.map((entry) => [entry.id, entry]));
      changes[name] = {
        upserts: [...latest.values()].filter((entry) => !entry.deleted).map((entry) => entry.record),
        deletes: [...latest.values()].filter((entry) => entry.deleted).map((entry) => entry.id),
      };
    }
    return {
      changes: { ...changes, ...this.extraPullData?.changes },
      cursors: { ...next, ...this.extraPullData?.cursors },
      hasMore,
    };
  }
}

export function newsRecord(id: string, overrides: Partial<NewsRecord> = {}): NewsRecord {
  const at = new Date(START).toISOString();
  return {
    id,
    title: `news ${id}`,
    summary: 's',
    body: 'b',
    imageUrl: null,
    lang: null,
    publishedAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function profileRecord(userId: string, overrides: Partial<ProfileRecord> = {}): ProfileRecord {
  return {
    id: userId,
    email: `u${userId}@example.com`,
    nickname: `user ${userId}`,
    avatar: '/avatars/1.png',
    inviteCode: `INV${userId}`,
    updatedAt: new Date(START).toISOString(),
    ...overrides,
  };
}

export function feedbackRecord(id: string, overrides: Partial<FeedbackRecord> = {}): FeedbackRecord {
  const at = new Date(START).toISOString();
  return {
    id,
    title: `ticket ${id}`,
    content: 'help',
    images: [],
    status: 'awaiting_reply',
    reply: null,
    repliedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export function accountRecord(id: string, overrides: Partial<AccountRecord> = {}): AccountRecord {
  return {
    id,
    kind: 'sub',
    name: `account ${id}`,
    isDefault: false,
    createdAt: new Date(START).toISOString(),
    ...overrides,
  };
}

export function balanceRecord(accountId: string, overrides: Partial<BalanceRecord> = {}): BalanceRecord {
  return {
    id: accountId,
    cash: '0',
    hosting: '0',
    held: '0',
    rab: '0',
    rabHeld: '0',
    updatedAt: new Date(START).toISOString(),
    ...overrides,
  };
}

/** A real 1x1 PNG image. */
export function pngBlob(): Blob {
  return new Blob([new Uint8Array(PIXEL_PNG)], { type: 'image/png' });
}

let keys = 0;
/** Readable, unique keys: `k1`, `k2`, ... */
export const newKey = () => `k${++keys}`;

export interface TabOptions {
  server: FakeServer;
  storage: SyncStorage;
  session?: SessionStore;
  clock?: FakeClock;
  timers?: FakeTimers;
  locks?: MemoryLocks;
  online?: () => boolean;
  environment?: SyncEnvironment;
}

/** One tab's engine over a shared storage and network. */
export function tab(options: TabOptions): {
  engine: SyncEngine;
  session: SessionStore;
  clock: FakeClock;
  timers: FakeTimers;
} {
  const clock = options.clock ?? new FakeClock();
  const timers = options.timers ?? clock.timers();
  const session = options.session ?? new MemorySessionStore();
  const api = createApiClient(
    new RequestQueue(options.server.send, { sleep: async () => undefined }),
    session,
  );
  const engine = createSyncEngine({
    commands: commandRegistry,
    api,
    session,
    newKey,
    uploader: options.server.uploader,
    environment: {
      storage: options.storage,
      locks: options.locks ?? new MemoryLocks(),
      clock,
      timers,
      online: options.online ?? (() => true),
      onOnline: () => () => undefined,
      persist: async () => null,
      ...options.environment,
    },
  });
  return { engine, session, clock, timers };
}

/** Logs `userId` in on `session` with `token`, and lets the fake server know the token. */
export async function login(
  server: FakeServer,
  session: SessionStore,
  userId: string,
  token: string,
): Promise<void> {
  server.tokens.set(token, userId);
  await session.saveSession({ token, userId, email: `u${userId}@example.com` });
}

/** Waits until `check` holds (a few event-loop turns at a time), or fails after `turns`. */
export async function until(check: () => boolean, turns = 500): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error('condition never held');
}

/** Deletes every IndexedDB database (between tests). */
export async function deleteAllDatabases(): Promise<void> {
  for (const name of await Dexie.getDatabaseNames()) await Dexie.delete(name);
}

/** What a test on IndexedDB storage works with: the fake server, the clock and the storage. */
export interface DexieWorld {
  server: FakeServer;
  clock: FakeClock;
  storage: DexieSyncStorage;
}

/**
 * Before each test: every database deleted, then a new fake server, clock and IndexedDB storage
 * handed to `use`; after it, the storage is closed and so is each UI-side database handle given to
 * the returned `keep` (which returns its handle).
 */
export function dexieWorldEachTest(use: (world: DexieWorld) => void): <T extends Dexie>(db: T) => T {
  const handles: Dexie[] = [];
  let storage: DexieSyncStorage | null = null;
  beforeEach(async () => {
    await deleteAllDatabases();
    storage = new DexieSyncStorage(commandRegistry);
    use({ server: new FakeServer(), clock: new FakeClock(), storage });
  });
  afterEach(() => {
    storage?.close();
    for (const handle of handles.splice(0)) handle.close();
  });
  return (db) => {
    handles.push(db);
    return db;
  };
}

/**
 * A factory of `kind` commands as the UI enqueues them: on the main account 'm7', with `defaults`
 * and then a test's overrides. Overrides go through as the UI could send them, hostile ones
 * included: the worker's edge parses them.
 */
export function commandOf(
  kind: EnqueueInput['kind'],
  defaults: Record<string, unknown>,
): (overrides?: Record<string, unknown>) => EnqueueInput {
  return (overrides = {}) =>
    // Not checked here on purpose: the outbox's own parse is what the tests exercise.
    ({ kind, params: { accountId: 'm7', ...defaults, ...overrides } }) as EnqueueInput;
}

/** The two storages the outbox's command tests run on: IndexedDB and its in-memory twin. */
export const COMMAND_STORAGES = [
  ['IndexedDB', () => new DexieSyncStorage(commandRegistry)],
  ['the in-memory twin', () => new MemorySyncStorage()],
] as const;

/**
 * The world of one outbox command test, made afresh before each test: user '7' (token 'tok-7')
 * with a main account 'm7' holding 100 USDT (and a sub-account 's7' when asked), the fake server,
 * the clock and `storage`; `network.online` is read at each send. Read the fields inside tests.
 */
export function commandWorld(makeStorage: () => SyncStorage, options: { subAccount?: boolean } = {}) {
  let current: { storage: SyncStorage; server: FakeServer; clock: FakeClock } | null = null;
  const network = { online: true };
  const now = () => {
    if (current === null) throw new Error('the command world is made before each test');
    return current;
  };
  beforeEach(async () => {
    await deleteAllDatabases();
    current = { storage: makeStorage(), server: new FakeServer(), clock: new FakeClock() };
    network.online = true;
    current.server.addAccount('7', 'm7', 100_000_000n);
    if (options.subAccount) current.server.addAccount('7', 's7');
  });
  afterEach(() => {
    const storage = current?.storage;
    if (storage instanceof DexieSyncStorage) storage.close();
    current = null;
  });
  return {
    network,
    get storage() {
      return now().storage;
    },
    get server() {
      return now().server;
    },
    get clock() {
      return now().clock;
    },
    /** The user logged in on a new tab; its sync engine. */
    async loggedIn() {
      const { server, storage, clock } = now();
      const session = new MemorySessionStore();
      const t = tab({ server, storage, clock, session, online: () => network.online });
      await login(server, session, '7', 'tok-7');
      return t.engine;
    },
    /** The outbox row `id` as stored. */
    stored: (id: string) => now().storage.userStores('7').outbox.get(id),
  };
}
