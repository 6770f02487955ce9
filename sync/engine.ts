/**
 * The sync engine the worker runs: pull, the outbox, the sending lease, logout's local part and
 * the scheduler, around the API client and session store the worker plugs in (`ports.ts`).
 * Every dependency on the browser (IndexedDB, Web Locks, clock, timers, network state) is
 * injectable; absent ones default to the real browser APIs.
 */
import { SYNC_COLLECTIONS, type CollectionName } from '../contract/sync.js';
import type { AccountRecord } from '../contract/api/account.js';
import { activeAccountOf } from '../client-db/active-account.js';
import { systemClock, systemTimers, type SyncClock, type Timers } from './clock.js';
import type { CommandRegistry } from './commands.js';
import { DexieSyncStorage } from './dexie-storage.js';
import { MemoryLocks, OutboxLease, type LockManagerLike } from './lease.js';
import { discardUserData } from './logout.js';
import {
  Outbox,
  type CancelResult,
  type DismissResult,
  type DrainSummary,
  type EnqueueResult,
  type RetryResult,
} from './outbox.js';
import { requestPersistentStorage } from './persist.js';
import type { SessionReader, SyncApi, SyncSessionStore } from './ports.js';
import { pull, type PullSummary } from './pull.js';
import { globalOnlineEvents, SyncScheduler } from './scheduler.js';
import type { OutboxStore, SyncStorage } from './storage.js';
import type { Uploader } from './uploader.js';

/** What the worker may inject; every part has a browser default. */
export interface SyncEnvironment {
  /** Defaults to IndexedDB through Dexie. */
  storage?: SyncStorage;
  /** Defaults to `navigator.locks`, or an in-process lock where Web Locks are missing. */
  locks?: LockManagerLike;
  clock?: SyncClock;
  timers?: Timers;
  /** Defaults to `navigator.onLine` (true where unknown). */
  online?: () => boolean;
  /** Defaults to the global `online` event. */
  onOnline?: (listener: () => void) => () => void;
  /** Defaults to `navigator.storage.persist()` (a no-op in workers of most browsers). */
  persist?: () => Promise<boolean | null>;
  /** Replaces the HTTP uploader. */
  uploader?: Uploader;
  /** This engine's id in the lease row; defaults to a new key. */
  tabId?: string;
  /** Starts the scheduler as soon as the engine exists (the worker's start). */
  autoStart?: boolean;
  pullIntervalMs?: number;
  maxPullPages?: number;
}

export interface SyncEngineDeps {
  /** Every outbox command kind (the worker's registry); the engine knows no feature. */
  commands: CommandRegistry;
  api: SyncApi;
  session: SyncSessionStore;
  /** A new UUID: command ids (their Idempotency-Keys), upload keys, tab ids. */
  newKey: () => string;
  uploader: Uploader;
  environment?: SyncEnvironment;
}

export interface SyncStatus {
  /** The logged-in user, or null (public collections only). */
  userId: string | null;
  /** The active account (its collections are in `syncedAt`), or null when none is known yet. */
  accountId: string | null;
  /**
   * Per collection: when it was last caught up (ISO), or null before the first full pull. The
   * account-scoped collections are the active account's.
   */
  syncedAt: Partial<Record<CollectionName, string | null>>;
  /** Queued + sending commands of the user. */
  pending: number;
  /** A 401 paused the outbox until the user logs in again. */
  paused: boolean;
}

export type DrainResult = DrainSummary & {
  /** The pull that followed confirmed commands, or null when none was confirmed. */
  pull: PullSummary | null;
  /** The other accounts' pulls that followed a confirmed command touching them (a transfer, a new account). */
  accountPulls: PullSummary[];
};

export type SelectAccountResult =
  | { kind: 'ok'; accountId: string; pull: PullSummary }
  | { kind: 'refused'; reason: 'not_logged_in' | 'unknown_account' };

/** Bounds a catch-up (each pull is up to `maxPullPages` pages) so a server that never ends cannot spin. */
const MAX_CATCH_UP_PULLS = 1_000;

/** The other accounts are pulled in the background at most this often (unless a command touched them). */
export const BACKGROUND_PULL_INTERVAL_MS = 5 * 60_000;

export interface SyncEngine {
  readonly tabId: string;
  /** Pulls now, at most `maxPullPages` pages (joining a pull already running, then pulling once more). Never throws. */
  pull(): Promise<PullSummary>;
  /**
   * Pulls the public, user and ACTIVE account's collections again and again while a bounded pull
   * stops with more to come; returns the last. Never throws.
   */
  catchUp(): Promise<PullSummary>;
  /**
   * Catches up each of the user's other synced accounts (its own database, its own cursors),
   * skipping those caught up within BACKGROUND_PULL_INTERVAL_MS unless `force`. Never throws.
   */
  pullOtherAccounts(options?: { force?: boolean }): Promise<PullSummary[]>;
  /** The active account (see `active-account.ts`), or null when logged out or none is known. Read-only. */
  activeAccount(): Promise<string | null>;
  /**
   * Makes `accountId` this device's active account for the logged-in user and pulls it at once.
   * Refused for an account not among the synced ones (when any are synced).
   */
  selectAccount(accountId: string): Promise<SelectAccountResult>;
  /** syncedAt per collection and the pending count. Read-only. */
  status(): Promise<SyncStatus>;
  /** Parses `{kind, params}` (as the UI enqueues it) by the registry and stores it. */
  enqueue(input: unknown): Promise<EnqueueResult>;
  cancel(id: string): Promise<CancelResult>;
  retry(id: string): Promise<RetryResult>;
  dismiss(id: string): Promise<DismissResult>;
  /** Sends what can be sent (one drain at a time per engine); pulls after any confirmation. */
  drain(): Promise<DrainResult>;
  /** Drains only when commands are pending and another tab stopped heartbeating mid-drain; null otherwise. */
  takeoverIfStale(): Promise<DrainResult | null>;
  /** Pending commands of the logged-in user (what logout would cancel). */
  pendingCount(): Promise<number>;
  /**
   * Cancels the logged-in user's pending commands, deletes the user's databases (the account
   * databases included) and forgets the user's selected account.
   */
  discardUserData(): Promise<{ userId: string | null; cancelled: number }>;
  /** Starts the scheduler. Idempotent. */
  start(): void;
  /** Stops the scheduler and gives up any sending lease. Idempotent. */
  stop(): Promise<void>;
  /**
   * Before the page reloads (an app update): stops the scheduler, waits until no command of
   * this tab is on the wire, and gives up the lease, so a reload never cuts a send. Another
   * tab, or this one after the reload, sends what is left.
   */
  quiesce(): Promise<void>;
}

/**
 * Runs `task` one at a time: a call made while a run is going waits for it and then starts one
 * more run, shared by every call made meanwhile (so a caller always gets a run that began after
 * it asked).
 */
function singleFlight<T>(task: () => Promise<T>): (() => Promise<T>) & { idle(): Promise<void> } {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const run = task().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  const run = () => {
    if (running === null) return start();
    const after = running;
    queued ??= after
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };
  /** Resolves once no run is going or waiting to go. */
  const idle = async (): Promise<void> => {
    for (let pending = queued ?? running; pending !== null; pending = queued ?? running) {
      await pending.then(
        () => undefined,
        () => undefined,
      );
    }
  };
  return Object.assign(run, { idle });
}

function defaultLocks(): LockManagerLike {
  // Web Locks where the browser has them; elsewhere the heartbeat row alone arbitrates.
  return typeof navigator !== 'undefined' && navigator.locks !== undefined
    ? navigator.locks
    : new MemoryLocks();
}

function defaultOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/**
 * Builds the engine. Opens nothing until first used; starts the scheduler only with
 * `environment.autoStart` or `start()`.
 */
export function createSyncEngine(deps: SyncEngineDeps): SyncEngine {
  const env = deps.environment ?? {};
  const storage = env.storage ?? new DexieSyncStorage(deps.commands);
  const locks = env.locks ?? defaultLocks();
  const clock = env.clock ?? systemClock;
  const timers = env.timers ?? systemTimers;
  const online = env.online ?? defaultOnline;
  const persist = env.persist ?? (() => requestPersistentStorage());
  const tabId = env.tabId ?? globalThis.crypto.randomUUID();
  /** The session whose data `discardUserData` deleted: treated as logged out until it changes. */
  let discardedToken: string | null = null;
  const session: SessionReader = {
    getSession: async () => {
      const current = await deps.session.getSession();
      return current !== null && current.token === discardedToken ? null : current;
    },
  };
  const leases = new Map<string, OutboxLease>();
  let lastUserId: string | null = null;
  /** Set by `quiesce`: this tab starts no more sends. */
  let halted = false;

  function leaseFor(userId: string, store: OutboxStore): OutboxLease {
    let lease = leases.get(userId);
    if (lease === undefined) {
      lease = new OutboxLease(store, { locks, clock, timers, owner: tabId });
      leases.set(userId, lease);
    }
    return lease;
  }

  async function releaseLease(userId: string): Promise<void> {
    const lease = leases.get(userId);
    leases.delete(userId);
    await lease?.release();
  }

  /** Notices a login or a user switch: lets other users' leases go, asks for persistent storage. */
  async function noteUser(): Promise<string | null> {
    const userId = (await session.getSession())?.userId ?? null;
    if (userId !== lastUserId) {
      for (const other of [...leases.keys()]) if (other !== userId) await releaseLease(other);
      lastUserId = userId;
      if (userId !== null) void persist().catch(() => null);
    }
    return userId;
  }

  const outbox = new Outbox({
    commands: deps.commands,
    api: deps.api,
    uploader: env.uploader ?? deps.uploader,
    session,
    storage,
    clock,
    online,
    newKey: deps.newKey,
    leaseFor,
    halted: () => halted,
  });

  /** The user's synced accounts, parsed (a row that fails its schema counts as absent). */
  async function accountsOf(userId: string): Promise<AccountRecord[]> {
    const accounts: AccountRecord[] = [];
    for (const row of await storage.userStores(userId).sync.readRecords('accounts')) {
      const parsed = SYNC_COLLECTIONS.accounts.record.safeParse(row);
      if (parsed.success) accounts.push(parsed.data);
    }
    return accounts.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async function activeAccountFor(userId: string): Promise<string | null> {
    const [selected, accounts] = await Promise.all([
      deps.session.getActiveAccount(userId),
      accountsOf(userId),
    ]);
    return activeAccountOf(selected, accounts);
  }

  /** One bounded pull carrying `account`'s collections with the public and user ones. */
  function pullFor(account: (userId: string) => Promise<string | null>): Promise<PullSummary> {
    const pullDeps = { api: deps.api, session, storage, clock, newKey: deps.newKey, online, account };
    return pull(env.maxPullPages === undefined ? pullDeps : { ...pullDeps, maxPages: env.maxPullPages });
  }

  const runPull = singleFlight(async () => {
    await noteUser();
    // Asked before each page: a first pull learns the accounts on its first page and names the
    // active one from the next page on.
    return pullFor(activeAccountFor);
  });

  /** When each `user|account` was last caught up by a background pull (clock ms). */
  const backgroundPulledAt = new Map<string, number>();

  async function pullOtherAccounts(force: boolean): Promise<PullSummary[]> {
    const userId = await noteUser();
    if (userId === null || halted) return [];
    let others: string[];
    try {
      const active = await activeAccountFor(userId);
      others = (await accountsOf(userId)).map((account) => account.id).filter((id) => id !== active);
    } catch {
      return [];
    }
    const summaries: PullSummary[] = [];
    for (const accountId of others) {
      const key = `${userId}|${accountId}`;
      const last = backgroundPulledAt.get(key);
      if (!force && last !== undefined && clock.now() - last < BACKGROUND_PULL_INTERVAL_MS) continue;
      let summary = await pullFor(async () => accountId);
      for (let round = 1; summary.status === 'more' && round < MAX_CATCH_UP_PULLS && !halted; round++) {
        summary = await pullFor(async () => accountId);
      }
      if (summary.status === 'done') backgroundPulledAt.set(key, clock.now());
      summaries.push(summary);
      if (summary.status === 'failed' || halted) break;
    }
    return summaries;
  }

  const runDrain = singleFlight(async (): Promise<DrainResult> => {
    const userId = await noteUser();
    let summary: DrainSummary;
    try {
      summary = await outbox.drain();
    } finally {
      // The lease serialises sending; between drains no tab needs it.
      if (userId !== null) await leases.get(userId)?.release();
    }
    const pulled = summary.confirmed.length > 0 ? await catchUp() : null;
    const accountPulls = (await touchesOtherAccounts(userId, summary.confirmed))
      ? await pullOtherAccounts(true)
      : [];
    return { ...summary, pull: pulled, accountPulls };
  });

  /**
   * Whether a confirmed command changed accounts besides the active one: by its kind, or by the
   * account it names (a withdrawal from an account the user switched away from meanwhile).
   */
  async function touchesOtherAccounts(userId: string | null, confirmed: readonly string[]): Promise<boolean> {
    if (userId === null || confirmed.length === 0) return false;
    const { outbox: store } = storage.userStores(userId);
    let active: string | null | undefined;
    for (const id of confirmed) {
      const record = await store.get(id);
      if (record === null) continue;
      const definition = deps.commands.of(record.kind);
      if (definition === null) continue;
      if (definition.pullsEveryAccount) return true;
      const changed = definition.accountChangedBy(record.params);
      if (changed === null) continue;
      active ??= await activeAccountFor(userId).catch(() => null);
      if (changed !== active) return true;
    }
    return false;
  }

  async function catchUp(): Promise<PullSummary> {
    let summary = await runPull();
    for (let round = 1; summary.status === 'more' && round < MAX_CATCH_UP_PULLS && !halted; round++) {
      summary = await runPull();
    }
    return summary;
  }

  const scheduler = new SyncScheduler(
    {
      pull: async () => {
        await catchUp();
        await pullOtherAccounts(false);
      },
      drain: runDrain,
      takeover: () => engine.takeoverIfStale(),
    },
    {
      timers,
      onOnline: env.onOnline ?? globalOnlineEvents,
      ...(env.pullIntervalMs === undefined ? {} : { pullIntervalMs: env.pullIntervalMs }),
    },
  );

  const engine: SyncEngine = {
    tabId,
    pull: runPull,
    catchUp,
    drain: runDrain,
    pullOtherAccounts: (options) => pullOtherAccounts(options?.force === true),

    async activeAccount() {
      const current = await session.getSession();
      return current === null ? null : activeAccountFor(current.userId);
    },

    async selectAccount(accountId) {
      const current = await session.getSession();
      if (current === null) return { kind: 'refused', reason: 'not_logged_in' };
      const accounts = await accountsOf(current.userId);
      if (accounts.length > 0 && !accounts.some((account) => account.id === accountId))
        return { kind: 'refused', reason: 'unknown_account' };
      await deps.session.setActiveAccount(current.userId, accountId);
      return { kind: 'ok', accountId, pull: await catchUp() };
    },

    async status() {
      const userId = await noteUser();
      const accountId = userId === null ? null : await activeAccountFor(userId);
      const syncedAt: SyncStatus['syncedAt'] = {};
      const stores = [storage.publicStore()];
      if (userId !== null) stores.push(storage.userStores(userId).sync);
      if (userId !== null && accountId !== null) stores.push(storage.accountStore(userId, accountId));
      for (const store of stores) {
        for (const [name, state] of await store.readCursors()) syncedAt[name] = state.syncedAt;
      }
      if (userId === null) return { userId, accountId, syncedAt, pending: 0, paused: false };
      const { outbox: store } = storage.userStores(userId);
      const [pending, pause, current] = await Promise.all([
        store.countPending(),
        store.readPause(),
        session.getSession(),
      ]);
      return {
        userId,
        accountId,
        syncedAt,
        pending,
        paused: pause !== null && pause.token === current?.token,
      };
    },

    async enqueue(input) {
      const result = await outbox.enqueue(input);
      if (result.kind === 'ok') scheduler.afterEnqueue();
      return result;
    },

    cancel: (id) => outbox.cancel(id),
    async retry(id) {
      const result = await outbox.retry(id);
      if (result.kind === 'ok') scheduler.afterEnqueue();
      return result;
    },
    dismiss: (id) => outbox.dismiss(id),
    pendingCount: () => outbox.pendingCount(),

    async takeoverIfStale() {
      const current = await session.getSession();
      if (current === null) return null;
      const { outbox: store } = storage.userStores(current.userId);
      const lease = leaseFor(current.userId, store);
      if (lease.held || !(await lease.abandoned()) || (await store.countPending()) === 0) return null;
      return runDrain();
    },

    async discardUserData() {
      const current = await session.getSession();
      if (current === null) return { userId: null, cancelled: 0 };
      // From here on this session counts as logged out, so no scheduled run reopens the databases.
      discardedToken = current.token;
      await releaseLease(current.userId);
      const { cancelled } = await discardUserData(storage, current.userId, clock.now());
      await deps.session.clearActiveAccount(current.userId);
      for (const key of [...backgroundPulledAt.keys()])
        if (key.startsWith(`${current.userId}|`)) backgroundPulledAt.delete(key);
      return { userId: current.userId, cancelled };
    },

    start: () => scheduler.start(),

    async stop() {
      scheduler.stop();
      for (const userId of [...leases.keys()]) await releaseLease(userId);
    },

    async quiesce() {
      halted = true;
      scheduler.stop();
      await runDrain.idle();
      for (const userId of [...leases.keys()]) await releaseLease(userId);
    },
  };

  if (env.autoStart === true) engine.start();
  return engine;
}
