/** Opaque, revocable session tokens with a sliding expiry (ARCHITECTURE.md "Sessions"). */
import type { Clock } from '../clock.js';
import type { Database, Executor } from '../db/database.js';
import type { Caller } from '../core/context.js';
import { findOperatorById } from '../repositories/operators.repository.js';
import {
  extendSession,
  findLiveSession,
  insertSession,
  revokeSession,
} from '../repositories/sessions.repository.js';
import { findUserById } from '../repositories/users.repository.js';
import { newSessionToken, sha256Hex } from '../security/tokens.js';

const LIFETIME_SECONDS = { user: 30 * 24 * 3600, operator: 12 * 3600 } as const;
/** A session's expiry moves forward at most this often, so each request does not write. */
const TOUCH_EVERY_SECONDS = 60;

export class SessionService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Starts a session in `tx`; returns the token (shown once) and its expiry. */
  async start(tx: Executor, kind: 'user' | 'operator', subjectId: number) {
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
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The caller behind an `Authorization` header (`Bearer <token>` or a bare token); anonymous
   * when absent, null when present but invalid, expired, revoked, or its owner is frozen/disabled.
   */
  async authenticate(header: string | undefined): Promise<Caller | null> {
    if (header === undefined || header.trim() === '') return { kind: 'anonymous' };
    const token = header.trim().replace(/^Bearer\s+/i, '');
    if (token.length < 20 || token.length > 200) return null;
    const tokenHash = sha256Hex(token);
    const now = this.clock.now();
    const session = await findLiveSession(this.db, tokenHash, now);
    if (!session) return null;
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_SECONDS * 1000) {
      const expiresAt = new Date(now.getTime() + LIFETIME_SECONDS[session.subjectKind] * 1000);
      await extendSession(this.db, tokenHash, now, expiresAt);
    }
    if (session.subjectKind === 'user') {
      const user = await findUserById(this.db, session.subjectId);
      return user && !user.frozen ? { kind: 'user', userId: user.id, tokenHash } : null;
    }
    const operator = await findOperatorById(this.db, session.subjectId);
    return operator && !operator.disabled
      ? { kind: 'operator', operatorId: operator.id, role: operator.role, tokenHash }
      : null;
  }

  async revoke(tx: Executor, tokenHash: string): Promise<void> {
    await revokeSession(tx, tokenHash, this.clock.now());
  }
}
