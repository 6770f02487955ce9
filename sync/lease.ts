/**
 * One outbox sender across tabs. A tab sends only while it holds the lease row in the user's
 * database: its owner id and a heartbeat every second. The Web Lock `coffer-outbox` picks one
 * tab at a time; but a frozen tab keeps its lock, so a tab also takes the lease over when the
 * heartbeat is older than `staleAfterMs` (3 beats). A tab that finds the row taken over stops
 * sending and lets its lock go. Two tabs may overlap for a moment (a frozen tab waking mid-send):
 * the Idempotency-Key makes such a repeat replay, never act twice.
 */
import type { SyncClock, Timers } from './clock.js';
import type { OutboxStore } from './storage.js';

export const OUTBOX_LOCK_NAME = 'coffer-outbox';
export const HEARTBEAT_MS = 1_000;
export const LEASE_STALE_AFTER_MS = 3 * HEARTBEAT_MS;
/** `beatAtMs` of a lease its sender gave up after a drain: free, and nothing left mid-send. */
const RELEASED = 0;

/** The part of the Web Locks API used here (`navigator.locks` fits it). */
export interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

/**
 * The in-memory twin of Web Locks for tests (fake-indexeddb has none): exclusive locks by
 * name, `ifAvailable` only. Share one instance between engines to model tabs of one browser.
 */
export class MemoryLocks implements LockManagerLike {
  private readonly held = new Set<string>();

  /** Calls `callback(null)` when `name` is held, else holds it until `callback` settles. */
  async request(
    name: string,
    _options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<void> {
    if (this.held.has(name)) return callback(null);
    this.held.add(name);
    try {
      await callback({ name });
    } finally {
      this.held.delete(name);
    }
  }

  /** True while some holder has `name` (for tests). */
  isHeld(name: string): boolean {
    return this.held.has(name);
  }
}

export interface LeaseOptions {
  locks: LockManagerLike;
  clock: SyncClock;
  timers: Timers;
  /** This tab's id, unique per engine. */
  owner: string;
  heartbeatMs?: number;
  staleAfterMs?: number;
}

/** The sending lease of one user's outbox, as one tab sees it. */
export class OutboxLease {
  private holding = false;
  private unlock: (() => void) | null = null;
  private stopBeating: (() => void) | null = null;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;

  constructor(
    private readonly store: Pick<OutboxStore, 'readLease' | 'claimLease'>,
    private readonly options: LeaseOptions,
  ) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.staleAfterMs = options.staleAfterMs ?? LEASE_STALE_AFTER_MS;
  }

  /** True while this tab believes it is the sender (check `stillMine` before a send). */
  get held(): boolean {
    return this.holding;
  }

  /**
   * Makes this tab the sender if it may be: it already is, or the row is free, stale or its own
   * (tried with the Web Lock first). Returns whether it is the sender now. Never throws for a
   * busy lock; storage errors propagate.
   */
  async acquire(): Promise<boolean> {
    if (this.holding) {
      if (await this.stillMine()) return true;
      this.lose();
      return false;
    }
    if (!(await this.takeable())) return false;
    const locked = await this.tryLock();
    const now = this.options.clock.now();
    const claimed = await this.store.claimLease(this.options.owner, now, (current) =>
      this.mayClaim(current, now),
    );
    if (!claimed) {
      if (locked) this.releaseLock();
      return false;
    }
    this.holding = true;
    this.stopBeating = this.options.timers.every(this.heartbeatMs, () => this.beat());
    return true;
  }

  /** True when no other tab holds a live lease, so `acquire` would succeed. Read-only. */
  async takeable(): Promise<boolean> {
    return this.mayClaim(await this.store.readLease(), this.options.clock.now());
  }

  /**
   * True when another tab stopped heartbeating in the middle of a drain (frozen or killed): its
   * row is stale but was never released, so what it was sending waits for a takeover. Read-only.
   */
  async abandoned(): Promise<boolean> {
    const current = await this.store.readLease();
    if (current === null || current.owner === this.options.owner || current.beatAtMs === RELEASED)
      return false;
    return this.options.clock.now() - current.beatAtMs > this.staleAfterMs;
  }

  /** True while the row still names this tab (another may have taken over while it was frozen). */
  async stillMine(): Promise<boolean> {
    if (!this.holding) return false;
    return (await this.store.readLease())?.owner === this.options.owner;
  }

  /**
   * One heartbeat: refreshes the row if it is still this tab's, else stops being the sender.
   * A sender that took over without the lock picks the lock up here once it is free.
   */
  async beat(): Promise<void> {
    if (!this.holding) return;
    const now = this.options.clock.now();
    const mine = await this.store.claimLease(
      this.options.owner,
      now,
      (current) => current?.owner === this.options.owner,
    );
    if (!mine) {
      this.lose();
      return;
    }
    if (this.unlock === null) await this.tryLock();
  }

  /** Stops sending and marks the row stale, so another tab takes over at once. Idempotent. */
  async release(): Promise<void> {
    if (!this.holding) return;
    this.lose();
    await this.store.claimLease(
      this.options.owner,
      RELEASED,
      (current) => current?.owner === this.options.owner,
    );
  }

  private mayClaim(current: { owner: string; beatAtMs: number } | null, now: number): boolean {
    return (
      current === null || current.owner === this.options.owner || now - current.beatAtMs > this.staleAfterMs
    );
  }

  private lose(): void {
    this.holding = false;
    this.stopBeating?.();
    this.stopBeating = null;
    this.releaseLock();
  }

  private releaseLock(): void {
    const unlock = this.unlock;
    this.unlock = null;
    unlock?.();
  }

  /** Takes the Web Lock if it is free and holds it until `releaseLock`; true when taken. */
  private tryLock(): Promise<boolean> {
    return new Promise<boolean>((granted) => {
      this.options.locks
        .request(OUTBOX_LOCK_NAME, { ifAvailable: true }, async (lock) => {
          if (lock === null) {
            granted(false);
            return;
          }
          await new Promise<void>((release) => {
            this.unlock = release;
            granted(true);
          });
        })
        .catch(() => granted(false));
    });
  }
}
