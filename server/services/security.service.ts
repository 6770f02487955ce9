/**
 * The authenticator (TOTP), the trade password and login password changes (spec sections 4, 5). Other services call `verifyTradePassword`, `verifyAuthenticatorCode` and
 * `withdrawalsLockedUntil` before moving money.
 *
 * Rules that must stay true:
 * - an authenticator secret is stored only sealed (AES-256-GCM, bound to the user's id);
 * - an authenticator code is accepted once per user: its time step is recorded, and a code of that
 *   step or an older one is a replay (472), also when two requests race (the user row is locked);
 * - wrong trade passwords, old login passwords and authenticator codes count towards the same 423
 *   lockout as wrong login passwords (server/security/limits.ts);
 * - a change (not a first binding) of either password or the authenticator refuses withdrawals
 *   for SECURITY_CHANGE_LOCK_HOURS (so does an e-mail change, security-centre.service.ts).
 */
import { DateTime } from 'luxon';
import { BodyCode } from '../../contract/codes.js';
import { SECURITY_CHANGE_LOCK_HOURS } from '../../contract/constants.js';
import type {
  BindGoogle2FaParams,
  BindTradePasswordParams,
  Google2FaData,
  ModifyGoogle2FaParams,
  SecurityChangeData,
  UpdateLoginPasswordParams,
  UpdateTradePasswordParams,
} from '../../contract/api/security.js';
import type { SendCodeData } from '../../contract/api/sso.js';
import { Refusal } from '../core/command-runner.js';
import type { Executor } from '../db/database.js';
import { BusinessError, notLoggedIn } from '../core/errors.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { findSecurityChangedAt, updateUserSecurity } from '../repositories/security.repository.js';
import { findUserById, setPasswordHash, type UserRow } from '../repositories/user.repository.js';
import type { Limits } from '../security/limits.js';
import { hashPassword, verifyPassword } from '../security/passwords.js';
import type { SecretBox } from '../security/secret-box.js';
import { newTotpSecret, totpUri } from '../security/totp.js';
import { acceptAuthenticatorCode } from './authenticator.js';
import type { CodeService } from './codes.service.js';
import { changeOwnUser, lockOwnUser } from './own-user.js';
import type { SessionService } from './session.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

const LOCK_MS = SECURITY_CHANGE_LOCK_HOURS * 3600 * 1000;

/** The sealed secret's associated data: a secret sealed for one user never opens for another. */
const totpContext = (userId: number) => `totp:${userId}`;
/** Lockout keys (limits.ts counts per key): trade passwords and codes per user; login passwords per address, as at login. */
const tradeLockKey = (userId: number) => `trade:${userId}`;
const totpLockKey = (userId: number) => `totp:${userId}`;

const fieldError = (code: number, key: string, field: string) =>
  new BusinessError(code, key, { field }, { field });

export const tradePasswordNotSet = () =>
  new BusinessError(BodyCode.tradePasswordNotSet, 'server.trade_password_not_set');
export const authenticatorNotBound = () =>
  new BusinessError(BodyCode.authenticatorNotBound, 'server.authenticator_not_bound');

/** 403 with `data.lockedUntil`: withdrawals wait after a security change; the message names the time in the business zone. */
export function withdrawalsLockedError(lockedUntil: Date, timeZone: string): BusinessError {
  const time = DateTime.fromJSDate(lockedUntil, { zone: timeZone }).toFormat('yyyy-MM-dd HH:mm');
  return new BusinessError(
    BodyCode.forbidden,
    'server.withdrawals_locked',
    { time, zone: timeZone, hours: SECURITY_CHANGE_LOCK_HOURS },
    { lockedUntil: lockedUntil.toISOString() },
  );
}

export class SecurityService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly codes: CodeService,
    private readonly limits: Limits,
    private readonly secrets: SecretBox,
    private readonly scryptCost: number,
    private readonly sessions: SessionService,
  ) {
    super(core);
  }

  // ---- for other services (withdrawals, exchange) ----

  /**
   * Checks the user's trade password in `tx`. Throws 423 while wrong tries have locked it, 300
   * when none is set, 400 (`server.trade_password_wrong`, field `tradePassword`) when wrong;
   * a wrong one counts towards the lockout even though the caller's transaction rolls back.
   */
  async verifyTradePassword(tx: Executor, userId: number, password: string): Promise<void> {
    await this.limits.assertNotLocked(tradeLockKey(userId), null);
    const user = await findUserById(tx, userId);
    if (!user) throw notLoggedIn();
    if (user.tradePasswordHash === null) throw tradePasswordNotSet();
    if (!(await verifyPassword(password, user.tradePasswordHash))) {
      await this.limits.recordFailure(tradeLockKey(userId), null);
      throw fieldError(BodyCode.invalidInput, 'server.trade_password_wrong', 'tradePassword');
    }
    await this.limits.clearAccount(tradeLockKey(userId));
  }

  /**
   * Checks an authenticator code in `tx` and records its time step, so it is accepted once: 4900
   * when no authenticator is bound, 472 when wrong or already used (field `field`), 423 while
   * wrong codes have locked it. Locks the user's row until `tx` ends (racing uses of one code:
   * one wins). If `tx` rolls back, the code stays unused.
   */
  async verifyAuthenticatorCode(
    tx: Executor,
    userId: number,
    code: string,
    field = 'googleCode',
  ): Promise<void> {
    const user = await lockOwnUser(tx, userId);
    if (user.authenticatorSecret === null) throw authenticatorNotBound();
    const step = await this.acceptCode(user, user.authenticatorSecret, code, field);
    await updateUserSecurity(tx, userId, { authenticatorLastStep: step });
  }

  /**
   * When withdrawals open again after the user's last security change (a change of either
   * password, the authenticator or the e-mail address, never a first binding): that change plus 24 hours, or null when
   * there was none. Withdrawals are refused while the clock is before it.
   */
  async withdrawalsLockedUntil(db: Executor, userId: number): Promise<Date | null> {
    const changedAt = await findSecurityChangedAt(db, userId);
    return changedAt === null ? null : new Date(changedAt.getTime() + LOCK_MS);
  }

  // ---- routes ----

  /**
   * A new authenticator key for the caller (a new one each call; only the newest can be bound).
   * Its secret is kept sealed as the pending key until bindGoogle2Fa or modifyGoogle2Fa takes it.
   */
  async getGoogle2Fa(ctx: RequestContext): Promise<Google2FaData> {
    const userId = userIdOf(ctx);
    const user = await findUserById(this.db, userId);
    if (!user) throw notLoggedIn();
    const secret = newTotpSecret();
    await updateUserSecurity(this.db, userId, {
      authenticatorPendingSecret: this.secrets.seal(secret, totpContext(userId)),
    });
    return { secret, otpauthUrl: totpUri(secret, user.email) };
  }

  /** Binds the pending key with one of its codes (first binding: no withdrawal lock). 409 when one is bound. */
  bindGoogle2Fa(ctx: RequestContext, params: BindGoogle2FaParams): Promise<SecurityChangeData> {
    return changeOwnUser(this.commands, this.sessions, ctx, async (tx, user) => {
      if (user.authenticatorSecret !== null) {
        throw new BusinessError(BodyCode.conflict, 'server.authenticator_already_bound');
      }
      const pending = this.pendingSecret(user);
      if (pending === null) throw fieldError(BodyCode.conflict, 'server.authenticator_key_stale', 'code');
      const step = await this.acceptCode(user, pending.sealed, params.code, 'code', null);
      await updateUserSecurity(tx, user.id, {
        authenticatorSecret: pending.sealed,
        authenticatorPendingSecret: null,
        authenticatorLastStep: step,
      });
      return this.changed(user.securityChangedAt);
    });
  }

  /**
   * Replaces the bound key by the pending one: `oldCode` from the bound key, `newCode` and
   * `secret` from the new one. Locks withdrawals for 24 hours.
   */
  modifyGoogle2Fa(ctx: RequestContext, params: ModifyGoogle2FaParams): Promise<SecurityChangeData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const user = await lockOwnUser(tx, userId);
      if (user.authenticatorSecret === null) throw authenticatorNotBound();
      const pending = this.pendingSecret(user);
      if (pending === null || pending.secret !== params.secret.replace(/\s+/g, '').toUpperCase()) {
        throw fieldError(BodyCode.conflict, 'server.authenticator_key_stale', 'secret');
      }
      const oldStep = await this.acceptCode(user, user.authenticatorSecret, params.oldCode, 'oldCode');
      const newStep = await this.acceptCode(user, pending.sealed, params.newCode, 'newCode', null);
      const now = this.clock.now();
      await updateUserSecurity(tx, userId, {
        authenticatorSecret: pending.sealed,
        authenticatorPendingSecret: null,
        authenticatorLastStep: Math.max(oldStep, newStep),
        securityChangedAt: now,
      });
      return this.changed(now);
    });
  }

  /** Sets the first trade password (no withdrawal lock); 409 when one is set (change it with updateTradePassword). */
  bindTradePassword(ctx: RequestContext, params: BindTradePasswordParams): Promise<SecurityChangeData> {
    return changeOwnUser(this.commands, this.sessions, ctx, async (tx, user) => {
      if (user.tradePasswordHash !== null) {
        throw new BusinessError(BodyCode.conflict, 'server.trade_password_already_set');
      }
      await updateUserSecurity(tx, user.id, {
        tradePasswordHash: await hashPassword(params.tradePassword, this.scryptCost),
      });
      return this.changed(user.securityChangedAt);
    });
  }

  /** Mails the caller a code for updateTradePassword (60 s countdown); 300 when no trade password is set. */
  sendUpdateTradePasswordCode(ctx: RequestContext): Promise<SendCodeData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw notLoggedIn();
      if (user.tradePasswordHash === null) throw tradePasswordNotSet();
      return this.codes.send(ctx, tx, user.email, 'update_trade_password');
    });
  }

  /** Changes the trade password with the old one and an e-mailed code; locks withdrawals for 24 hours. */
  updateTradePassword(ctx: RequestContext, params: UpdateTradePasswordParams): Promise<SecurityChangeData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      await this.limits.assertNotLocked(tradeLockKey(userId), ctx.ip);
      const user = await lockOwnUser(tx, userId);
      if (user.tradePasswordHash === null) throw tradePasswordNotSet();
      if (!(await verifyPassword(params.oldTradePassword, user.tradePasswordHash))) {
        await this.limits.recordFailure(tradeLockKey(userId), ctx.ip);
        throw fieldError(BodyCode.invalidInput, 'server.trade_password_wrong', 'oldTradePassword');
      }
      const refusal = await this.codes.check(ctx, tx, user.email, 'update_trade_password', params.code, true);
      if (refusal) return new Refusal(refusal);
      await this.limits.clearAccount(tradeLockKey(userId));
      const now = this.clock.now();
      await updateUserSecurity(tx, userId, {
        tradePasswordHash: await hashPassword(params.tradePassword, this.scryptCost),
        securityChangedAt: now,
      });
      return this.changed(now);
    });
  }

  /** Mails the caller a code for updateLoginPassword (60 s countdown). */
  sendUpdateLoginPasswordCode(ctx: RequestContext): Promise<SendCodeData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw notLoggedIn();
      return this.codes.send(ctx, tx, user.email, 'update_login_password');
    });
  }

  /**
   * Changes the login password with the old one and an e-mailed code; revokes the user's other
   * sessions (this one stays) and locks withdrawals for 24 hours. Wrong old passwords lock like
   * wrong logins (the same counter, keyed by the address).
   */
  async updateLoginPassword(
    ctx: RequestContext,
    params: UpdateLoginPasswordParams,
  ): Promise<SecurityChangeData> {
    const userId = userIdOf(ctx);
    if (ctx.caller.kind !== 'user') throw notLoggedIn();
    const keepToken = ctx.caller.tokenHash;
    let revoked: string[] = [];
    const changed = await this.commands.run(ctx, async (tx) => {
      const user = await lockOwnUser(tx, userId);
      await this.limits.assertNotLocked(user.email, ctx.ip);
      if (!(await verifyPassword(params.oldPassword, user.passwordHash))) {
        await this.limits.recordFailure(user.email, ctx.ip);
        throw fieldError(BodyCode.invalidInput, 'server.old_password_wrong', 'oldPassword');
      }
      const refusal = await this.codes.check(ctx, tx, user.email, 'update_login_password', params.code, true);
      if (refusal) return new Refusal(refusal);
      await this.limits.clearAccount(user.email);
      const now = this.clock.now();
      await setPasswordHash(tx, userId, await hashPassword(params.password, this.scryptCost), now);
      await updateUserSecurity(tx, userId, { securityChangedAt: now });
      revoked = await this.sessions.revokeOthers(tx, 'user', userId, keepToken);
      return this.changed(now);
    });
    await this.sessions.forget(revoked);
    return changed;
  }

  // ---- helpers ----

  private pendingSecret(user: UserRow): { sealed: string; secret: string } | null {
    if (user.authenticatorPendingSecret === null) return null;
    return {
      sealed: user.authenticatorPendingSecret,
      secret: this.secrets.open(user.authenticatorPendingSecret, totpContext(user.id)),
    };
  }

  /**
   * Checks `code` against a sealed secret at the server's time; returns its time step. `lastStep`
   * defaults to the user's last accepted step (a new key starts with none).
   */
  private acceptCode(
    user: UserRow,
    sealed: string,
    code: string,
    field: string,
    lastStep: number | null = user.authenticatorLastStep,
  ): Promise<number> {
    const secret = this.secrets.open(sealed, totpContext(user.id));
    return acceptAuthenticatorCode(this.limits, this.clock, {
      lockKey: totpLockKey(user.id),
      secret,
      code,
      field,
      lastStep,
    });
  }

  /** The answer of a security command: when withdrawals open after the user's latest change, if still ahead. */
  private changed(changedAt: Date | null): SecurityChangeData {
    const until = changedAt === null ? null : new Date(changedAt.getTime() + LOCK_MS);
    return {
      done: true,
      withdrawalsLockedUntil: until !== null && until > this.clock.now() ? until.toISOString() : null,
    };
  }
}
