/**
 * The sync engine the worker runs: pull, the outbox, the sending lease, logout's local part and
 * the scheduler, around the worker's API client and session store. Every dependency on the
 * browser (IndexedDB, Web Locks, clock, timers, network state) is injectable; absent ones
 * default to the real browser APIs.
 */
import type { CollectionName } from '../contract/sync.js';
import type { ApiClient } from '../worker/api-client.js';
import type { SessionStore } from '../worker/session.js';
import { systemClock, systemTimers, type SyncClock, type Timers } from './clock.js';
import type { EnqueueInput } from './commands.js';
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
  api: ApiClient;
  session: SessionStore;
  /** A new UUID: command ids (their Idempotency-Keys), upload keys, tab ids. */
  newKey: () => string;
  uploader: Uploader;
  environment?: SyncEnvironment;
}

export interface SyncStatus {
  /** The logged-in user, or null (public collections only). */
  userId: string | null;
  /** Per collection: when it was last caught up (ISO), or null before the first full pull. */
  syncedAt: Partial<Record<CollectionName, string | null>>;
  /** Queued + sending commands of the user. */
  pending: number;
  /** A 401 paused the outbox until the user logs in again. */
  paused: boolean;
}

export type DrainResult = DrainSummary & {
  /** The pull that followed confirmed commands, or null when none was confirmed. */
  pull: PullSummary | null;
};

export interface SyncEngine {
  readonly tabId: string;
  /** Pulls now, at most `maxPullPages` pages (joining a pull already running, then pulling once more). Never throws. */
  pull(): Promise<PullSummary>;
  /** Pulls again and again while a bounded pull stops with more to come; returns the last. Never throws. */
  catchUp(): Promise<PullSummary>;
  /** syncedAt per collection and the pending count. Read-only. */
  status(): Promise<SyncStatus>;
  enqueue(input: EnqueueInput): Promise<EnqueueResult>;
  cancel(id: string): Promise<CancelResult>;
  retry(id: string): Promise<RetryResult>;
  dismiss(id: string): Promise<DismissResult>;
  /** Sends what can be sent (one drain at a time per engine); pulls after any confirmation. */
  drain(): Promise<DrainResult>;
  /** Drains only when commands are pending and another tab stopped heartbeating mid-drain; null otherwise. */
  takeoverIfStale(): Promise<DrainResult | null>;
  /** Pending commands of the logged-in user (what logout would cancel). */
  pendingCount(): Promise<number>;
  /** Cancels the logged-in user's pending commands and deletes the user's databases. */
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
  const storage = env.storage ?? new DexieSyncStorage();
  const locks = env.locks ?? defaultLocks();
  const clock = env.clock ?? systemClock;
  const timers = env.timers ?? systemTimers;
  const online = env.online ?? defaultOnline;
  const persist = env.persist ?? (() => requestPersistentStorage());
  const tabId = env.tabId ?? globalThis.crypto.randomUUID();
  /** The session whose data `discardUserData` deleted: treated as logged out until it changes. */
  let discardedToken: string | null = null;
  const session: Pick<SessionStore, 'getSession'> = {
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

  const runPull = singleFlight(async () => {
    await noteUser();
    const pullDeps = { api: deps.api, session, storage, clock, newKey: deps.newKey, online };
    return pull(env.maxPullPages === undefined ? pullDeps : { ...pullDeps, maxPages: env.maxPullPages });
  });

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
    return { ...summary, pull: pulled };
  });

  /** Bounds a catch-up (each pull is up to `maxPullPages` pages) so a server that never ends cannot spin. */
  const MAX_CATCH_UP_PULLS = 1_000;
  async function catchUp(): Promise<PullSummary> {
    let summary = await runPull();
    for (let round = 1; summary.status === 'more' && round < MAX_CATCH_UP_PULLS && !halted; round++) {
      summary = await runPull();
    }
    return summary;
  }

  const scheduler = new SyncScheduler(
    { pull: catchUp, drain: runDrain, takeover: () => engine.takeoverIfStale() },
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

    async status() {
      const userId = await noteUser();
      const syncedAt: SyncStatus['syncedAt'] = {};
      const stores = [storage.publicStore(), ...(userId === null ? [] : [storage.userStores(userId).sync])];
      for (const store of stores) {
        for (const [name, state] of await store.readCursors()) syncedAt[name] = state.syncedAt;
      }
      if (userId === null) return { userId, syncedAt, pending: 0, paused: false };
      const { outbox: store } = storage.userStores(userId);
      const [pending, pause, current] = await Promise.all([
        store.countPending(),
        store.readPause(),
        session.getSession(),
      ]);
      return { userId, syncedAt, pending, paused: pause !== null && pause.token === current?.token };
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
