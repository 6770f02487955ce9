/**
 * Operators (CONTRACT.md "Identity and accounts"): separate identities with roles, every action
 * written to the append-only audit log in the same transaction as the action.
 */
import { BodyCode } from '../../contract/codes.js';
import type { CreateOperatorParams, OperatorRole } from '../../contract/api/admin.js';
import type { Clock } from '../clock.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database, Executor } from '../db/database.js';
import { BusinessError } from '../core/errors.js';
import type { RequestContext } from '../core/context.js';
import {
  appendAudit,
  findOperatorByEmail,
  insertOperator,
  listAudit,
  listOperators,
  type OperatorRow,
} from '../repositories/operator.repository.js';
import {
  assignRootInvite,
  findRootInvite,
  lockRootInvite,
  insertInvite,
  listInvites,
} from '../repositories/user.repository.js';
import type { Limits } from '../security/limits.js';
import { decoyHash, hashPassword, verifyPassword } from '../security/passwords.js';
import { newInviteCode, newOperatorPassword } from '../security/tokens.js';
import type { SessionService } from './session.service.js';

/** Who did it: `operator:<id>` for the admin API, `cli` for `npm run admin`, `system` for start-up. */
export type Actor = string;

/** The audit log's actor of `ctx`'s caller. */
export function actorOf(ctx: RequestContext): Actor {
  const caller = ctx.caller;
  if (caller.kind === 'operator') return `operator:${caller.operatorId}`;
  if (caller.kind === 'cli') return caller.name === null ? 'cli' : `cli:${caller.name}`;
  return 'system';
}

/** The operator acting for `ctx`, or null (the CLI, the system). */
export const operatorIdOf = (ctx: RequestContext): number | null =>
  ctx.caller.kind === 'operator' ? ctx.caller.operatorId : null;

const toOperator = (row: OperatorRow) => ({
  id: String(row.id),
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
});

export class OperatorService {
  constructor(
    private readonly db: Database,
    private readonly commands: CommandRunner,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
    private readonly limits: Limits,
    private readonly scryptCost: number,
  ) {}

  /** Logs an operator in; wrong passwords count toward the same lockouts as customers'. */
  login(ctx: RequestContext, params: { email: string; password: string }) {
    return this.commands.run(ctx, async (tx) => {
      const lockKey = `operator:${params.email}`;
      await this.limits.assertNotLocked(lockKey, ctx.ip);
      const operator = await findOperatorByEmail(tx, params.email);
      const matches = await verifyPassword(
        params.password,
        operator?.passwordHash ?? (await decoyHash(this.scryptCost)),
      );
      if (!operator || !matches || operator.disabled) {
        await this.limits.recordFailure(lockKey, ctx.ip);
        throw new BusinessError(BodyCode.invalidInput, 'server.wrong_credentials', {}, { field: 'password' });
      }
      await this.limits.clearAccount(lockKey);
      const session = await this.sessions.start(tx, 'operator', operator.id);
      await appendAudit(tx, {
        actor: `operator:${operator.id}`,
        action: 'operator.login',
        target: null,
        detail: { ip: ctx.ip },
        at: this.clock.now(),
      });
      return { ...session, operatorId: String(operator.id), role: operator.role };
    });
  }

  /** Creates an operator (API: superadmin only); a generated password is returned once. */
  create(ctx: RequestContext, params: CreateOperatorParams) {
    return this.commands.run(ctx, (tx) => this.createIn(tx, actorOf(ctx), params));
  }

  private async createIn(tx: Executor, actor: Actor, params: CreateOperatorParams) {
    const initialPassword = params.password ? null : newOperatorPassword();
    const now = this.clock.now();
    const row = await insertOperator(tx, {
      email: params.email,
      role: params.role,
      passwordHash: await hashPassword(params.password ?? initialPassword ?? '', this.scryptCost),
      createdAt: now,
    });
    if (!row)
      throw new BusinessError(
        BodyCode.conflict,
        'server.operator_exists',
        { field: 'email' },
        { field: 'email' },
      );
    await assignRootInvite(tx, row.id);
    await appendAudit(tx, {
      actor,
      action: 'operator.create',
      target: `operator:${row.id}`,
      detail: { email: row.email, role: row.role },
      at: now,
    });
    return { ...toOperator(row), initialPassword };
  }

  list() {
    return this.db.transaction(async (tx) => ({ items: (await listOperators(tx)).map(toOperator) }));
  }

  /** Adds a reusable invite code owned by the acting operator (or by no one, from the CLI). */
  createInvite(ctx: RequestContext) {
    return this.commands.run(ctx, (tx) => this.createInviteIn(tx, actorOf(ctx), operatorIdOf(ctx)));
  }

  private async createInviteIn(tx: Executor, actor: Actor, operatorId: number | null) {
    const now = this.clock.now();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const code = newInviteCode();
      if (await insertInvite(tx, { code, ownerOperatorId: operatorId, createdBy: actor, createdAt: now })) {
        await appendAudit(tx, {
          actor,
          action: 'invite.create',
          target: `invite:${code}`,
          detail: {},
          at: now,
        });
        return { code, createdAt: now.toISOString() };
      }
    }
    throw new Error('could not find a free invite code');
  }

  listInvites() {
    return listInvites(this.db);
  }

  /** Newest entries first; `cursor` is the last id of the previous page. */
  async auditPage(params: { cursor?: string | undefined; limit?: number | undefined }) {
    const limit = params.limit ?? 50;
    const before = params.cursor && /^\d+$/.test(params.cursor) ? Number(params.cursor) : undefined;
    const rows = await listAudit(this.db, before, limit);
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        actor: row.actor,
        action: row.action,
        target: row.target,
        detail: row.detail,
        at: row.at.toISOString(),
      })),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.id) : null,
    };
  }

  /**
   * First start: creates the root invite code (COFFER_ROOT_INVITE or random). Returns the code
   * when this call created it, null when it existed. Idempotent.
   */
  async ensureRootInvite(preferred: string | undefined): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      // Instances starting at once on a fresh database: one makes the root invite, the others see it.
      await lockRootInvite(tx);
      if (await findRootInvite(tx)) return null;
      const code = (preferred ?? newInviteCode()).toUpperCase();
      const now = this.clock.now();
      await insertInvite(tx, { code, root: true, createdBy: 'system', createdAt: now });
      await appendAudit(tx, {
        actor: 'system',
        action: 'invite.create_root',
        target: `invite:${code}`,
        detail: {},
        at: now,
      });
      return code;
    });
  }

  /** True when the operator's role is one of `roles` (superadmin may do everything). */
  static allowed(role: string, roles: readonly OperatorRole[]): boolean {
    return role === 'superadmin' || roles.includes(role as OperatorRole); // role comes from the operators table's enum
  }
}
