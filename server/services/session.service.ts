/** Opaque, revocable session tokens with a sliding expiry (ARCHITECTURE.md "Sessions"). */
import type { Clock } from '../clock.js';
import type { Database, Executor } from '../db/database.js';
import type { Caller } from '../core/context.js';
import {
  elevateSession,
  extendSession,
  liveTokenHashes,
  listLiveUserSessions,
  findLiveSessionCaller,
  insertSession,
  revokeAllSessions,
  revokeOtherSessions,
  revokeSession,
  revokeUserSessionById,
  type SessionCallerRow,
  type UserSessionRow,
} from '../repositories/session.repository.js';
import type { EvictionChannel, Eviction } from '../security/session-evictions.js';
import { newSessionToken, sha256Hex } from '../security/tokens.js';
import { CallerCache } from './caller-cache.js';

/** A customer's session lasts 30 days from its last use; an operator's ends after 30 idle minutes. */
const LIFETIME_SECONDS = { user: 30 * 24 * 3600, operator: 30 * 60 } as const;
/** How long an operator's step-up lasts (money and access actions). */
export const STEP_UP_SECONDS = 5 * 60;
/**
 * A session's expiry moves forward at most this often, so a read does not write: the one write
 * (last seen, expiry) happens on a cache miss at most once a minute per session.
 */
const TOUCH_EVERY_SECONDS = 60;

export class SessionService {
  readonly #cache = new CallerCache();
  #channel: EvictionChannel | undefined;
  readonly #userEvictions: Array<(userIds: readonly number[] | 'all') => void> = [];

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Shares evictions with every other instance through the channel `open` makes (Redis when
   * REDIS_URL is set); without one, evictions reach only this process.
   */
  async shareEvictions(open: (onEvict: (eviction: Eviction) => void) => Promise<EvictionChannel>) {
    this.#channel = await open((eviction) => this.#evictLocally(eviction));
  }

  /**
   * False while the shared channel is down: an eviction could be missed, so nothing may be
   * cached (callers here, profiles in user.service.ts). True without a channel (one process).
   */
  get evictionsHeard(): boolean {
    return this.#channel?.listening ?? true;
  }

  /** The shared channel, when there is one (tests cut it to see the cache stop). */
  get evictionChannel(): EvictionChannel | undefined {
    return this.#channel;
  }

  /** Calls `evict` with the users whose profile changed (anywhere, once shared), or `'all'`. */
  onUserEvictions(evict: (userIds: readonly number[] | 'all') => void): void {
    this.#userEvictions.push(evict);
  }

  #evictLocally(eviction: Eviction): void {
    const { tokenHashes, userIds } =
      eviction === 'all' ? ({ tokenHashes: 'all', userIds: 'all' } as const) : eviction;
    if (tokenHashes.length > 0) this.#cache.evict(tokenHashes);
    if (userIds.length > 0) for (const evict of this.#userEvictions) evict(userIds);
  }

  /**
   * Starts a session in `tx`; returns the token (shown once), its expiry and its id. `stepUp`: the
   * sign-in itself proved a fresh authenticator code, so the session starts stepped up. `client`:
   * the signing-in request's User-Agent and address, which the security centre lists.
   */
  async start(
    tx: Executor,
    kind: 'user' | 'operator',
    subjectId: number,
    stepUp = false,
    client?: { userAgent?: string | undefined; ip: string },
  ) {
    const now = this.clock.now();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + LIFETIME_SECONDS[kind] * 1000);
    await insertSession(tx, {
      tokenHash: sha256Hex(token),
      subjectKind: kind,
      subjectId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      elevatedUntil: stepUp ? new Date(now.getTime() + STEP_UP_SECONDS * 1000) : null,
      userAgent: client?.userAgent ?? null,
      ip: client?.ip ?? null,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The caller behind an `Authorization` header (`Bearer <token>` or a bare token); anonymous
   * when absent, null when present but invalid, expired, revoked, or its owner is frozen/disabled.
   * A live session seen in the last few seconds costs no query (caller-cache.ts); otherwise one,
   * plus the expiry's move at most once a minute.
   */
  async authenticate(header: string | undefined): Promise<Caller | null> {
    if (header === undefined || header.trim() === '') return { kind: 'anonymous' };
    const token = header.trim().replace(/^Bearer\s+/i, '');
    if (token.length < 20 || token.length > 200) return null;
    const tokenHash = sha256Hex(token);
    const now = this.clock.now();
    const cached = this.#cache.get(tokenHash, now);
    if (cached) return cached;
    const epoch = this.#cache.epoch;
    const session = await findLiveSessionCaller(this.db, tokenHash, now);
    if (!session) return null;
    let expiresAt = session.expiresAt;
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_SECONDS * 1000) {
      expiresAt = new Date(now.getTime() + LIFETIME_SECONDS[session.subjectKind] * 1000);
      await extendSession(this.db, tokenHash, now, expiresAt);
    }
    const caller = callerOf(session, tokenHash);
    // While the shared channel is down an eviction could be missed: then every request asks the database.
    if (caller && this.evictionsHeard) this.#cache.set(tokenHash, caller, expiresAt, now, epoch);
    return caller;
  }

  /** Steps an operator's session up for STEP_UP_SECONDS in `tx`; call `forget` with it once committed. */
  async elevate(tx: Executor, tokenHash: string): Promise<Date> {
    const until = new Date(this.clock.now().getTime() + STEP_UP_SECONDS * 1000);
    await elevateSession(tx, tokenHash, until);
    return until;
  }

  /** True while `elevatedUntil` lies ahead. */
  isElevated(elevatedUntil: Date | null): boolean {
    return elevatedUntil !== null && elevatedUntil > this.clock.now();
  }

  /** The live sessions of a subject, to `forget` after a change that alters what they may do. */
  liveTokens(tx: Executor, kind: 'user' | 'operator', subjectId: number): Promise<string[]> {
    return liveTokenHashes(tx, kind, subjectId, this.clock.now());
  }

  /** Revokes one token in `tx`; call `forget` with it once `tx` has committed. */
  async revoke(tx: Executor, tokenHash: string): Promise<void> {
    await revokeSession(tx, tokenHash, this.clock.now());
  }

  /** Revokes every session of a subject in `tx` (a password reset); returns the hashes for `forget`. */
  revokeAll(tx: Executor, kind: 'user' | 'operator', subjectId: number): Promise<string[]> {
    return revokeAllSessions(tx, kind, subjectId, this.clock.now());
  }

  /** A user's live sessions, the most recently used first (the security centre). */
  listOfUser(db: Executor, userId: number): Promise<UserSessionRow[]> {
    return listLiveUserSessions(db, userId, this.clock.now());
  }

  /** Revokes the user's live session `id` in `tx`; its token hash for `forget`, or undefined when there is none. */
  revokeOfUser(tx: Executor, userId: number, id: number): Promise<string | undefined> {
    return revokeUserSessionById(tx, userId, id, this.clock.now());
  }

  /** Revokes every session of a subject but `keepTokenHash` in `tx`; returns the hashes for `forget`. */
  revokeOthers(
    tx: Executor,
    kind: 'user' | 'operator',
    subjectId: number,
    keepTokenHash: string,
  ): Promise<string[]> {
    return revokeOtherSessions(tx, kind, subjectId, keepTokenHash, this.clock.now());
  }

  /**
   * Drops revoked tokens from the caller cache of this process and, through the shared channel,
   * of every instance; resolves once the message went out (bounded, never throws). Called after
   * the revoking transaction committed, so that no instance re-reads the token as live.
   */
  async forget(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    this.#cache.evict(tokenHashes);
    await this.#channel?.publish({ tokenHashes, userIds: [] });
  }

  /**
   * Drops the cached profiles of users whose profile or accounts changed, here and on every
   * instance; called after the changing transaction committed (bounded, never throws).
   */
  async forgetUsers(userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    this.#evictLocally({ tokenHashes: [], userIds });
    await this.#channel?.publish({ tokenHashes: [], userIds });
  }

  async close(): Promise<void> {
    await this.#channel?.close();
  }
}

/** The caller a live session stands for: null when its user is gone, or its operator disabled or gone. */
function callerOf(
  session: SessionCallerRow,
  tokenHash: string,
): Exclude<Caller, { kind: 'anonymous' }> | null {
  if (session.subjectKind === 'user') {
    return session.userFrozen === null
      ? null
      : { kind: 'user', userId: session.subjectId, tokenHash, frozen: session.userFrozen };
  }
  if (session.operatorDisabled !== false || session.operatorRole === null) return null;
  return {
    kind: 'operator',
    operatorId: session.subjectId,
    role: session.operatorRole,
    tokenHash,
    setupRequired:
      session.operatorMustChangePassword !== false || session.operatorAuthenticatorBound !== true,
    elevatedUntil: session.elevatedUntil,
  };
}
