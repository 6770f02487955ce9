/**
 * Customers as the console sees them: search, a customer's page (audited: who looked at whom),
 * freezing (the customer signs in and reads; every money command answers 403 `frozen`) and the
 * compliance reset of a lost authenticator (withdrawals then wait 24 hours, as after any security
 * change). Every action says why; the reason goes to the audit log.
 */
import type { AdminUserDetail } from '../../contract/api/admin-users.js';
import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { existingRowId } from '../core/params.js';
import type { Executor } from '../db/database.js';
import { accountBalances } from '../ledger/ledger.js';
import {
  depositsOfUser,
  liveUserSessions,
  searchUsers,
  setUserFrozen,
  teamCounts,
} from '../repositories/console.repository.js';
import { listOrders } from '../repositories/hosting.repository.js';
import { listOwnedMachines } from '../repositories/machine.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { updateUserSecurity } from '../repositories/security.repository.js';
import { findUserById, listAccounts, lockUser, type UserRow } from '../repositories/user.repository.js';
import { withdrawalsOfAccount } from '../repositories/withdraw.repository.js';
import { productNames, toHostingOrderRecord } from './hosting/records.js';
import { machineNames, toOwnedMachineRecord } from './machine/records.js';
import { actorOf } from './operator.service.js';
import { toAccountRecord, toBalanceRecord, toDepositRecord, toWithdrawalRecord } from './records.js';
import type { SessionService } from './session.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** How many of each kind of record a customer's page shows (the newest). */
const RECENT = 20;

const toAdminUser = (user: UserRow) => ({
  id: String(user.id),
  email: user.email,
  nickname: user.nickname,
  inviteCode: user.inviteCode,
  kycStatus: user.kycStatus,
  frozen: user.frozen,
  createdAt: user.createdAt.toISOString(),
});

export class CustomerAdminService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly sessions: SessionService,
  ) {
    super(core);
  }

  async list(params: { q?: string | undefined; cursor?: string | undefined; limit?: number | undefined }) {
    const limit = params.limit ?? 50;
    const before = params.cursor ? Number(params.cursor) : undefined;
    const rows = await searchUsers(this.db, params.q ?? '', before, limit);
    return {
      items: rows.map(toAdminUser),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.id) : null,
    };
  }

  /** A customer's page; the read itself is audited. */
  async detail(ctx: RequestContext, params: { userId: string }): Promise<AdminUserDetail> {
    const userId = existingRowId(params.userId);
    return this.db.transaction(async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw notFound();
      const accounts = await listAccounts(tx, userId);
      const ids = accounts.map((account) => account.id);
      const [balances, referrer, team, deposits, sessions, products, machines] = await Promise.all([
        accountBalances(tx, ids),
        user.referrerId === null ? undefined : findUserById(tx, user.referrerId),
        teamCounts(tx, userId),
        depositsOfUser(tx, userId, RECENT),
        liveUserSessions(tx, userId, this.clock.now()),
        productNames(tx),
        machineNames(tx),
      ]);
      const perAccount = await Promise.all(
        ids.map(async (accountId) => ({
          withdrawals: await withdrawalsOfAccount(tx, { accountId, limit: RECENT }),
          orders: await listOrders(tx, { accountId, limit: RECENT }),
          owned: await listOwnedMachines(tx, { accountId, limit: RECENT }),
        })),
      );
      const newest = <T extends { id: number }>(rows: T[]) =>
        rows.sort((a, b) => b.id - a.id).slice(0, RECENT);
      const now = this.clock.now();
      await this.audit(tx, ctx, 'user.view', userId);
      return {
        user: {
          ...toAdminUser(user),
          frozenReason: user.frozenReason,
          authenticatorBound: user.authenticatorSecret !== null,
          referrer: referrer ? { id: String(referrer.id), email: referrer.email } : null,
          team,
        },
        accounts: accounts.map((account) => {
          const held = balances.get(account.id); // accountBalances answers every id asked
          if (!held) throw new Error(`no balances read for account ${account.id}`);
          return {
            ...toAccountRecord(account, user.defaultAccountId),
            balance: toBalanceRecord(account.id, held, now),
          };
        }),
        deposits: deposits.map((row) => ({ ...toDepositRecord(row), accountId: String(row.accountId) })),
        withdrawals: newest(perAccount.flatMap((item) => item.withdrawals)).map(toWithdrawalRecord),
        hostingOrders: newest(perAccount.flatMap((item) => item.orders)).map((row) =>
          toHostingOrderRecord(row, products.get(row.productId) ?? {}),
        ),
        machines: newest(perAccount.flatMap((item) => item.owned)).map((row) =>
          toOwnedMachineRecord(row, machines.get(row.machineId) ?? {}),
        ),
        sessions: sessions.map((session) => ({
          createdAt: session.createdAt.toISOString(),
          lastSeenAt: session.lastSeenAt.toISOString(),
          expiresAt: session.expiresAt.toISOString(),
        })),
      };
    });
  }

  freeze(ctx: RequestContext, params: { userId: string; reason: string }) {
    return this.setFrozen(ctx, params, true);
  }

  unfreeze(ctx: RequestContext, params: { userId: string; reason: string }) {
    return this.setFrozen(ctx, params, false);
  }

  private async setFrozen(ctx: RequestContext, params: { userId: string; reason: string }, frozen: boolean) {
    const userId = existingRowId(params.userId);
    let tokens: string[] = [];
    const answer = await this.commands.run(ctx, async (tx) => {
      await this.existing(tx, userId);
      const user = await setUserFrozen(tx, userId, frozen, frozen ? params.reason : null);
      if (!user) throw notFound();
      tokens = await this.sessions.liveTokens(tx, 'user', userId);
      await this.audit(tx, ctx, frozen ? 'user.freeze' : 'user.unfreeze', userId, { reason: params.reason });
      return toAdminUser(user);
    });
    // Every instance drops the cached caller (which carries `frozen`) and the cached user/info.
    await this.sessions.forget(tokens);
    await this.sessions.forgetUsers([userId]);
    return answer;
  }

  /** Unbinds a customer's authenticator (they lost it); withdrawals wait 24 hours from now. */
  async resetAuthenticator(ctx: RequestContext, params: { userId: string; reason: string }) {
    const userId = existingRowId(params.userId);
    const answer = await this.commands.run(ctx, async (tx) => {
      const user = await this.existing(tx, userId);
      await updateUserSecurity(tx, userId, {
        authenticatorSecret: null,
        authenticatorPendingSecret: null,
        authenticatorLastStep: null,
        securityChangedAt: this.clock.now(),
      });
      await this.audit(tx, ctx, 'user.authenticator_reset', userId, { reason: params.reason });
      return { ...toAdminUser(user) };
    });
    await this.sessions.forgetUsers([userId]);
    return answer;
  }

  private async existing(tx: Executor, userId: number): Promise<UserRow> {
    const user = await lockUser(tx, userId);
    if (user) return user;
    throw notFound();
  }

  private audit(
    tx: Executor,
    ctx: RequestContext,
    action: string,
    userId: number,
    detail: Record<string, unknown> = {},
  ) {
    return appendAudit(tx, {
      actor: actorOf(ctx),
      action,
      target: `user:${userId}`,
      detail,
      at: this.clock.now(),
    });
  }
}
