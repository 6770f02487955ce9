/**
 * Operators (CONTRACT.md "Identity and accounts"): separate identities with roles, every action
 * written to the append-only audit log in the same transaction as the action.
 */
import { BodyCode } from '../../contract/codes.js';
import {
  AUDIT_EXPORT_MAX,
  type AuditFilter,
  type CreateOperatorParams,
  type OperatorRole,
} from '../../contract/api/admin.js';
import type { Executor } from '../db/database.js';
import { BusinessError, forbidden, notFound } from '../core/errors.js';
import { existingRowId } from '../core/params.js';
import type { RequestContext } from '../core/context.js';
import {
  anyOperator,
  appendAudit,
  auditRowsAfter,
  insertOperator,
  listAudit,
  listOperators,
  lockFirstOperator,
  lockOperator,
  updateOperator,
  type AuditRow,
  type OperatorRow,
} from '../repositories/operator.repository.js';
import {
  assignRootInvite,
  findRootInvite,
  lockRootInvite,
  insertInvite,
  listInvites,
} from '../repositories/user.repository.js';
import { chainedContent, verifyChain } from '../security/audit-chain.js';
import { hashPassword } from '../security/passwords.js';
import { newInviteCode, newOperatorPassword } from '../security/tokens.js';
import type { SessionService } from './session.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** Who did it: `operator:<id>` for the admin API, `cli` for `npm run admin`, `system` for start-up. */
export type Actor = string;

/** The audit log's actor of `ctx`'s caller. */
export function actorOf(ctx: RequestContext): Actor {
  const caller = ctx.caller;
  if (caller.kind === 'operator') return `operator:${caller.operatorId}`;
  if (caller.kind === 'cli') return caller.name === null ? 'cli' : `cli:${caller.name}`;
  return 'system';
}

/** The operator an actor names (`operator:12` -> 12), or null (the CLI, the system). */
export function operatorIdOfActor(actor: Actor): number | null {
  const match = /^operator:(\d+)$/.exec(actor);
  return match ? Number(match[1]) : null;
}

/** The operator acting for `ctx`, or null (the CLI, the system). */
export const operatorIdOf = (ctx: RequestContext): number | null =>
  ctx.caller.kind === 'operator' ? ctx.caller.operatorId : null;

const toOperator = (row: OperatorRow) => ({
  id: String(row.id),
  email: row.email,
  role: row.role,
  disabled: row.disabled,
  mustChangePassword: row.mustChangePassword,
  authenticatorBound: row.authenticatorSecret !== null,
  displayName: row.displayName,
  createdAt: row.createdAt.toISOString(),
});

const AUDIT_VERIFY_PAGE = 1000;

const toAuditEntry = (row: AuditRow) => ({ id: String(row.id), ...chainedContent(row) });

const auditQueryOf = (params: AuditFilter) => ({
  actor: params.actor,
  action: params.action,
  target: params.target,
  from: params.from ? new Date(params.from) : undefined,
  to: params.to ? new Date(params.to) : undefined,
});

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a cell a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export class OperatorService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly sessions: SessionService,
    private readonly scryptCost: number,
  ) {
    super(core);
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
      // Whoever created it knows the password: the new operator chooses their own at the first sign-in.
      mustChangePassword: true,
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

  /** Disables an operator: their sessions end at once, on every instance. */
  async disable(ctx: RequestContext, params: { operatorId: string }) {
    const id = existingRowId(params.operatorId);
    let ended: string[] = [];
    const answer = await this.commands.run(ctx, async (tx) => {
      if (operatorIdOf(ctx) === id) throw new BusinessError(BodyCode.conflict, 'server.operator_self');
      const operator = await this.existing(tx, id);
      if (!operator.disabled) {
        await updateOperator(tx, id, { disabled: true });
        ended = await this.sessions.revokeAll(tx, 'operator', id);
        await this.audit(tx, actorOf(ctx), 'operator.disable', id, { email: operator.email });
      }
      return { ...toOperator({ ...operator, disabled: true }) };
    });
    await this.sessions.forget(ended);
    return answer;
  }

  /**
   * Gives an operator a new one-time password (shown once) to change at the next sign-in; their
   * sessions end. The authenticator stays bound.
   */
  async resetPassword(ctx: RequestContext, params: { operatorId: string }) {
    const id = existingRowId(params.operatorId);
    let ended: string[] = [];
    const answer = await this.commands.run(ctx, async (tx) => {
      const operator = await this.existing(tx, id);
      const password = newOperatorPassword();
      await updateOperator(tx, id, {
        passwordHash: await hashPassword(password, this.scryptCost),
        mustChangePassword: true,
      });
      ended = await this.sessions.revokeAll(tx, 'operator', id);
      await this.audit(tx, actorOf(ctx), 'operator.password_reset', id, { email: operator.email });
      return { ...toOperator(operator), initialPassword: password };
    });
    await this.sessions.forget(ended);
    return answer;
  }

  /**
   * First start: when there is no operator, makes the superadmin `email` with a random one-time
   * password, returned once (printed by `npm start`, stored only hashed). Null when one exists.
   */
  async ensureRootOperator(email: string): Promise<{ email: string; password: string } | null> {
    return this.db.transaction(async (tx) => {
      await lockFirstOperator(tx);
      if (await anyOperator(tx)) return null;
      const password = newOperatorPassword();
      await this.createIn(tx, 'system', { email, role: 'superadmin', password });
      return { email, password };
    });
  }

  private async existing(tx: Executor, id: number): Promise<OperatorRow> {
    const operator = await lockOperator(tx, id);
    if (!operator) throw notFound();
    return operator;
  }

  private audit(
    tx: Executor,
    actor: Actor,
    action: string,
    operatorId: number,
    detail: Record<string, unknown>,
  ) {
    return appendAudit(tx, { actor, action, target: `operator:${operatorId}`, detail, at: this.clock.now() });
  }

  /**
   * Sets the name customers see on an operator's chat replies: a superadmin for anyone, another
   * operator for itself only (403 otherwise). Audited.
   */
  setDisplayName(ctx: RequestContext, params: { operatorId: string; displayName: string }) {
    const id = existingRowId(params.operatorId);
    return this.commands.run(ctx, async (tx) => {
      const self = operatorIdOf(ctx) === id;
      if (!self && ctx.caller.kind === 'operator' && ctx.caller.role !== 'superadmin') throw forbidden();
      const operator = await this.existing(tx, id);
      const displayName = params.displayName.trim();
      await updateOperator(tx, id, { displayName });
      await this.audit(tx, actorOf(ctx), 'operator.display_name', id, { displayName });
      return toOperator({ ...operator, displayName });
    });
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

  /** Newest entries first, filtered; `cursor` is the last id of the previous page. */
  async auditPage(params: AuditFilter) {
    const limit = params.limit ?? 50;
    const before = params.cursor ? Number(params.cursor) : undefined;
    const rows = await listAudit(this.db, { ...auditQueryOf(params), beforeId: before }, limit);
    return {
      items: rows.map(toAuditEntry),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.id) : null,
    };
  }

  /** The filtered log as CSV for an auditor's spreadsheet; the export itself is audited. */
  async auditExport(ctx: RequestContext, params: AuditFilter) {
    const rows = await listAudit(this.db, auditQueryOf(params), AUDIT_EXPORT_MAX);
    const lines = [
      ['id', 'at', 'actor', 'action', 'target', 'detail', 'hash'],
      ...rows.map((row) => [
        String(row.id),
        row.at.toISOString(),
        row.actor,
        row.action,
        row.target ?? '',
        JSON.stringify(row.detail),
        row.hash,
      ]),
    ];
    const now = this.clock.now();
    await this.db.transaction((tx) =>
      appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'audit.export',
        target: null,
        detail: { rows: rows.length },
        at: now,
      }),
    );
    return {
      filename: `coffer-audit-${now.toISOString().slice(0, 10)}.csv`,
      rows: rows.length,
      csv: lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n',
    };
  }

  /**
   * Recomputes the audit log's hash chain from its first row and names the first row that does
   * not match (a row changed or removed behind the application's back).
   */
  async verifyAudit() {
    const db = this.db;
    async function* rows() {
      for (let after = 0; ;) {
        const page = await auditRowsAfter(db, after, AUDIT_VERIFY_PAGE);
        yield* page;
        const last = page.at(-1);
        if (page.length < AUDIT_VERIFY_PAGE || !last) return;
        after = last.id;
      }
    }
    const check = await verifyChain(rows());
    return {
      ok: check.ok,
      checked: check.checked,
      beforeChain: check.beforeChain,
      brokenAt: check.ok ? null : String(check.brokenAt),
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
