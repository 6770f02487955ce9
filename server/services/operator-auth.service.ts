/**
 * Operators' sign-in, setup and step-up (docs/protocol.md "The operator console"):
 * - a one-time password (the first start's, a new operator's, a reset) must be changed, and an
 *   authenticator bound, before any other admin route answers (403 `setup_required`);
 * - once bound, every sign-in needs a code (400 on `googleCode` without one, 472 wrong or reused,
 *   the customers' lockouts);
 * - money and access actions need a step-up (a fresh code, or the sign-in's) within the last 5 minutes;
 * - a session ends after 30 idle minutes (session.service.ts).
 */
import { BodyCode } from '../../contract/codes.js';
import type { RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notLoggedIn } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import {
  appendAudit,
  findOperatorByEmail,
  findOperatorById,
  lockOperator,
  updateOperator,
  type OperatorRow,
} from '../repositories/operator.repository.js';
import type { Limits } from '../security/limits.js';
import { decoyHash, hashPassword, verifyPassword } from '../security/passwords.js';
import type { SecretBox } from '../security/secret-box.js';
import { newTotpSecret, totpUri } from '../security/totp.js';
import { acceptAuthenticatorCode } from './authenticator.js';
import type { SessionService } from './session.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** The sealed secret's associated data: an operator's secret never opens for a customer or another operator. */
const totpContext = (operatorId: number) => `operator-totp:${operatorId}`;
/** Lockout keys: passwords per address (as customers'), codes per operator. */
const passwordLockKey = (email: string) => `operator:${email}`;
const totpLockKey = (operatorId: number) => `operator-totp:${operatorId}`;

type OperatorCaller = Extract<RequestContext['caller'], { kind: 'operator' }>;

function operatorCaller(ctx: RequestContext): OperatorCaller {
  if (ctx.caller.kind !== 'operator') throw notLoggedIn();
  return ctx.caller;
}

const wrongCredentials = () =>
  new BusinessError(BodyCode.invalidInput, 'server.wrong_credentials', {}, { field: 'password' });

export class OperatorAuthService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly sessions: SessionService,
    private readonly limits: Limits,
    private readonly secrets: SecretBox,
    private readonly scryptCost: number,
  ) {
    super(core);
  }

  /** Signs an operator in; wrong passwords and codes count toward the same lockouts as customers'. */
  login(ctx: RequestContext, params: { email: string; password: string; googleCode?: string | undefined }) {
    return this.commands.run(ctx, async (tx) => {
      const lockKey = passwordLockKey(params.email);
      await this.limits.assertNotLocked(lockKey, ctx.ip);
      const found = await findOperatorByEmail(tx, params.email);
      const matches = await verifyPassword(
        params.password,
        found?.passwordHash ?? (await decoyHash(this.scryptCost)),
      );
      if (!found || !matches || found.disabled) {
        await this.limits.recordFailure(lockKey, ctx.ip);
        throw wrongCredentials();
      }
      await this.limits.clearAccount(lockKey);
      const operator = await this.locked(tx, found.id);
      if (operator.authenticatorSecret !== null) {
        if (params.googleCode === undefined)
          throw invalidField('googleCode', 'server.authenticator_code_required');
        await this.acceptBoundCode(tx, operator, operator.authenticatorSecret, params.googleCode);
      }
      // A sign-in with a code is as fresh as a step-up.
      const session = await this.sessions.start(
        tx,
        'operator',
        operator.id,
        operator.authenticatorSecret !== null,
        { userAgent: ctx.userAgent, ip: ctx.ip },
      );
      await this.audit(tx, operator.id, 'operator.login', { ip: ctx.ip });
      return {
        ...session,
        operatorId: String(operator.id),
        role: operator.role,
        mustChangePassword: operator.mustChangePassword,
        authenticatorBound: operator.authenticatorSecret !== null,
      };
    });
  }

  /** Who is signed in, and what setup and step-up stand at (the console reads it on load). */
  async me(ctx: RequestContext) {
    const caller = operatorCaller(ctx);
    const operator = await findOperatorById(this.db, caller.operatorId);
    if (!operator) throw notLoggedIn();
    return {
      operatorId: String(operator.id),
      email: operator.email,
      role: operator.role,
      mustChangePassword: operator.mustChangePassword,
      authenticatorBound: operator.authenticatorSecret !== null,
      elevatedUntil: this.sessions.isElevated(caller.elevatedUntil)
        ? (caller.elevatedUntil?.toISOString() ?? null)
        : null,
    };
  }

  /** Changes the caller's password (the one-time one first); the operator's other sessions end. */
  async changePassword(ctx: RequestContext, params: { oldPassword: string; newPassword: string }) {
    const caller = operatorCaller(ctx);
    let ended: string[] = [];
    const answer = await this.commands.run(ctx, async (tx) => {
      const operator = await this.locked(tx, caller.operatorId);
      const lockKey = passwordLockKey(operator.email);
      await this.limits.assertNotLocked(lockKey, ctx.ip);
      if (!(await verifyPassword(params.oldPassword, operator.passwordHash))) {
        await this.limits.recordFailure(lockKey, ctx.ip);
        throw invalidField('oldPassword', 'server.old_password_wrong');
      }
      if (params.newPassword === params.oldPassword) {
        throw invalidField('newPassword', 'server.password_unchanged');
      }
      await updateOperator(tx, operator.id, {
        passwordHash: await hashPassword(params.newPassword, this.scryptCost),
        mustChangePassword: false,
      });
      ended = await this.sessions.revokeOthers(tx, 'operator', operator.id, caller.tokenHash);
      await this.audit(tx, operator.id, 'operator.password_change', {});
      return { done: true as const };
    });
    await this.sessions.forget([...ended, caller.tokenHash]);
    return answer;
  }

  /** A new authenticator key for the caller (a new one each call; the newest is bound). 409 once one is bound. */
  async newAuthenticator(ctx: RequestContext) {
    const caller = operatorCaller(ctx);
    const operator = await findOperatorById(this.db, caller.operatorId);
    if (!operator) throw notLoggedIn();
    if (operator.authenticatorSecret !== null) {
      throw new BusinessError(BodyCode.conflict, 'server.authenticator_already_bound');
    }
    const secret = newTotpSecret();
    await updateOperator(this.db, operator.id, {
      authenticatorPendingSecret: this.secrets.seal(secret, totpContext(operator.id)),
    });
    return { secret, otpauthUrl: totpUri(secret, operator.email) };
  }

  /** Binds the key auth/authenticator showed last, with one of its codes. */
  async bindAuthenticator(ctx: RequestContext, params: { googleCode: string }) {
    const caller = operatorCaller(ctx);
    const answer = await this.commands.run(ctx, async (tx) => {
      const operator = await this.locked(tx, caller.operatorId);
      if (operator.authenticatorSecret !== null) {
        throw new BusinessError(BodyCode.conflict, 'server.authenticator_already_bound');
      }
      const pending = operator.authenticatorPendingSecret;
      if (pending === null) {
        throw new BusinessError(
          BodyCode.conflict,
          'server.authenticator_key_stale',
          {},
          { field: 'googleCode' },
        );
      }
      const step = await this.acceptCode(tx, operator, pending, params.googleCode, null);
      await updateOperator(tx, operator.id, {
        authenticatorSecret: pending,
        authenticatorPendingSecret: null,
        authenticatorLastStep: step,
      });
      await this.audit(tx, operator.id, 'operator.authenticator_bind', {});
      return { done: true as const };
    });
    await this.sessions.forget([caller.tokenHash]);
    return answer;
  }

  /** Steps the caller's session up for 5 minutes with a fresh code. */
  async stepUp(ctx: RequestContext, params: { googleCode: string }) {
    const caller = operatorCaller(ctx);
    const answer = await this.commands.run(ctx, async (tx) => {
      const operator = await this.locked(tx, caller.operatorId);
      if (operator.authenticatorSecret === null) {
        throw new BusinessError(BodyCode.authenticatorNotBound, 'server.authenticator_not_bound');
      }
      await this.acceptBoundCode(tx, operator, operator.authenticatorSecret, params.googleCode);
      const until = await this.sessions.elevate(tx, caller.tokenHash);
      await this.audit(tx, operator.id, 'operator.step_up', { until: until.toISOString() });
      return { elevatedUntil: until.toISOString() };
    });
    await this.sessions.forget([caller.tokenHash]);
    return answer;
  }

  /** Ends the caller's session on every instance. */
  async logout(ctx: RequestContext) {
    const caller = operatorCaller(ctx);
    const answer = await this.commands.run(ctx, async (tx) => {
      await this.sessions.revoke(tx, caller.tokenHash);
      return { done: true as const };
    });
    await this.sessions.forget([caller.tokenHash]);
    return answer;
  }

  private async locked(tx: Executor, operatorId: number): Promise<OperatorRow> {
    const operator = await lockOperator(tx, operatorId);
    if (!operator || operator.disabled) throw notLoggedIn();
    return operator;
  }

  /** Accepts a code of the sealed key and records its step, so it works once. */
  private async acceptCode(
    tx: Executor,
    operator: OperatorRow,
    sealed: string,
    code: string,
    lastStep: number | null,
  ): Promise<number> {
    const step = await acceptAuthenticatorCode(this.limits, this.clock, {
      lockKey: totpLockKey(operator.id),
      secret: this.secrets.open(sealed, totpContext(operator.id)),
      code,
      field: 'googleCode',
      lastStep,
    });
    await updateOperator(tx, operator.id, { authenticatorLastStep: step });
    return step;
  }

  /** `acceptCode` for the authenticator the operator has bound (`sealed`, its secret). */
  private acceptBoundCode(tx: Executor, operator: OperatorRow, sealed: string, code: string) {
    return this.acceptCode(tx, operator, sealed, code, operator.authenticatorLastStep);
  }

  private audit(tx: Executor, operatorId: number, action: string, detail: Record<string, unknown>) {
    return appendAudit(tx, {
      actor: `operator:${operatorId}`,
      action,
      target: `operator:${operatorId}`,
      detail,
      at: this.clock.now(),
    });
  }
}
