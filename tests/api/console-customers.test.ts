/**
 * The console's customers, deposits and dashboard: search, a customer's page (its read audited),
 * freezing (the customer reads on; every money command answers 403 frozen), the authenticator
 * reset, the dashboard's liabilities and queues, and which role may call which admin route.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATOR_ROLES, type OperatorRole } from '../../contract/api/admin.js';
import { BodyCode } from '../../contract/codes.js';
import { auditLog } from '../../server/db/schema.js';
import { OperatorService } from '../../server/services/operator.service.js';
import { availableTiers } from '../helpers/database.js';
import { ok, readyOperator, type ReadyOperator } from '../helpers/operator.js';
import { adminRouteAccess } from '../helpers/routes.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('console customers');

describe.each(tiers)('console customers and dashboard on %s', (tier) => {
  let t: TestServer;
  const as: Partial<Record<OperatorRole, ReadyOperator>> = {};
  const op = (role: OperatorRole) => {
    const found = as[role];
    if (!found) throw new Error(`no ${role} operator`);
    return found;
  };
  let customer: { token: string; userId: string };
  let accountId: string;
  let subId: string;

  beforeAll(async () => {
    t = await startTestServer(tier);
    for (const role of OPERATOR_ROLES) as[role] = await readyOperator(t, `${role}@coffer.test`, role);
    customer = await t.register('plain', 'Frozen.Customer@coffer.test');
    const accounts = await t.call<{ items: Array<{ id: string }> }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token: customer.token },
    );
    accountId = accounts.data.items[0]?.id ?? '';
    subId = ok(
      await t.call<{ id: string }>(
        'plain',
        '/api/v1/account/createSubAccount',
        { name: 'Savings' },
        { token: customer.token, key: newKey() },
      ),
      'sub-account',
    ).id;
    ok(
      await op('finance').call('/api/admin/ledger/adjust', {
        accountId,
        asset: 'USDT',
        amount: '250',
        reason: 'test funding',
      }),
      'fund',
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const transfer = () =>
    t.call(
      'plain',
      '/api/v1/account/transfer',
      { fromAccountId: accountId, toAccountId: subId, asset: 'USDT', amount: '10' },
      {
        token: customer.token,
        key: newKey(),
        lang: 'EN',
      },
    );

  test('customers are found by part of the e-mail, by user id and by invite code', async () => {
    const support = op('support');
    const byEmail = ok(
      await support.call<{ items: Array<{ id: string; inviteCode: string }> }>('/api/admin/user/list', {
        q: 'frozen.cust',
      }),
      'list',
    );
    expect(byEmail.items.map((item) => item.id)).toEqual([customer.userId]);
    const byId = ok(
      await support.call<{ items: Array<{ id: string }> }>('/api/admin/user/list', { q: customer.userId }),
      'list',
    );
    expect(byId.items.map((item) => item.id)).toContain(customer.userId);
    const code = byEmail.items[0]?.inviteCode ?? '';
    const byCode = ok(
      await support.call<{ items: Array<{ id: string }> }>('/api/admin/user/list', { q: code.toLowerCase() }),
      'list',
    );
    expect(byCode.items.map((item) => item.id)).toEqual([customer.userId]);
    // A wildcard is a character like any other.
    expect(
      ok(await support.call<{ items: unknown[] }>('/api/admin/user/list', { q: '%' }), 'list').items,
    ).toEqual([]);
  });

  test("a customer's page shows accounts with balances, records and sessions; the read is audited", async () => {
    const detail = await op('support').call<{
      user: { email: string; frozen: boolean; team: { first: number } };
      accounts: Array<{ id: string; balance: { cash: string } }>;
      sessions: unknown[];
    }>('/api/admin/user/detail', { userId: customer.userId });
    expect(detail.code).toBe(200);
    expect(detail.data.user).toMatchObject({
      email: 'frozen.customer@coffer.test',
      frozen: false,
      team: { first: 0 },
    });
    expect(detail.data.accounts.find((account) => account.id === accountId)?.balance.cash).toBe('250');
    expect(detail.data.sessions.length).toBeGreaterThan(0);
    const [viewed] = await t.server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.view'), eq(auditLog.target, `user:${customer.userId}`)));
    expect(viewed?.actor).toMatch(/^operator:\d+$/);
    expect((await op('support').call('/api/admin/user/detail', { userId: '999999' })).code).toBe(
      BodyCode.notFound,
    );
  });

  test('a frozen customer signs in and reads, every money command answers 403 frozen, and user/info says so', async () => {
    const compliance = op('compliance');
    const token = await compliance.token();
    t.clock.advance(5 * 60 + 1);
    expect(
      await compliance.call(
        '/api/admin/user/freeze',
        { userId: customer.userId, reason: 'card fraud report' },
        { token },
      ),
    ).toMatchObject({
      code: BodyCode.forbidden,
      data: { reason: 'step_up_required' },
    });
    const frozen = await compliance.call('/api/admin/user/freeze', {
      userId: customer.userId,
      reason: 'card fraud report',
    });
    expect(frozen.data).toMatchObject({ frozen: true });

    const refused = await transfer();
    expect(refused).toMatchObject({ code: BodyCode.forbidden, data: { reason: 'frozen' } });
    expect(refused.message).toMatch(/^This account is frozen: no money can move/);
    for (const [uri, params] of [
      ['/api/v1/withdraw/create', {}],
      ['/api/v1/exchange/submit', {}],
      ['/api/v1/hosting/create', {}],
      ['/api/v1/machine/buy', {}],
      ['/api/v1/otc/sell', {}],
    ] as const) {
      const answer = await t.call('plain', uri, params, { token: customer.token, key: newKey() });
      expect(answer, uri).toMatchObject({ code: BodyCode.forbidden, data: { reason: 'frozen' } });
    }
    const info = await t.call<{ frozen: boolean }>(
      'plain',
      '/api/v1/user/info',
      {},
      { token: customer.token },
    );
    expect(info.data.frozen).toBe(true);
    const signedIn = await t.call('plain', '/api/v1/sso/emailLogin', {
      email: 'frozen.customer@coffer.test',
      password: 'secret123',
    });
    expect(signedIn.code).toBe(200);

    expect(
      (await compliance.call('/api/admin/user/unfreeze', { userId: customer.userId, reason: 'cleared' }))
        .data,
    ).toMatchObject({
      frozen: false,
    });
    expect((await transfer()).code).toBe(200);
    const actions = await t.server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${customer.userId}`));
    expect(actions.filter((row) => row.action === 'user.freeze').map((row) => row.detail)).toEqual([
      { reason: 'card fraud report' },
    ]);
    expect(actions.filter((row) => row.action === 'user.unfreeze').map((row) => row.detail)).toEqual([
      { reason: 'cleared' },
    ]);
  });

  test('the dashboard shows what customers are owed, what waits and today; deposits list by chain', async () => {
    const board = ok(
      await op('finance').call<{
        liabilities: { USDT: { cash: string; total: string } };
        waiting: { withdrawals: number; adjustments: number; feedback: number };
        today: { day: string };
        reserves: Record<string, unknown>;
        ratio: string | null;
      }>('/api/admin/dashboard'),
      'dashboard',
    );
    expect(board.liabilities.USDT.total).toBe('250');
    expect(board.waiting).toEqual({ withdrawals: 0, adjustments: 0, feedback: 0 });
    expect(board.today.day).toBe('2026-01-05');
    expect(board.reserves).toEqual({ BEP20: null, TRC20: null });
    expect(board.ratio).toBeNull();
    // A check run from the console is the dashboard's latest.
    ok(await op('finance').call('/api/admin/ledger/check'), 'check');
    const checked = ok(
      await op('finance').call<{ ledgerCheck: { ok: boolean; at: string } }>('/api/admin/dashboard'),
      'dashboard',
    );
    expect(checked.ledgerCheck).toEqual({ ok: true, at: t.clock.now().toISOString() });
    const listed = ok(
      await op('finance').call<{ items: unknown[] }>('/api/admin/deposit/list', { chain: 'BEP20' }),
      'deposits',
    );
    expect(listed.items).toEqual([]);
    expect((await op('finance').call('/api/admin/deposit/list', { chain: 'DOGE' })).code).toBe(
      BodyCode.invalidInput,
    );
  });

  test('every admin route answers 403 to a role it does not list, and never to one it does', async () => {
    // The sign-in routes are open to every role (console-auth.test.ts); calling them here would end the sessions.
    const routes = adminRouteAccess(t.server.services).filter(
      (route) => !route.path.startsWith('/api/admin/auth/'),
    );
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      for (const role of OPERATOR_ROLES) {
        const answer = await op(role).call(route.path, {});
        const refusedForRole =
          answer.code === BodyCode.forbidden && answer.message === 'Your role does not allow this';
        expect(refusedForRole, `${role} on ${route.path}: ${answer.code} ${answer.message}`).toBe(
          !OperatorService.allowed(role, route.roles),
        );
      }
    }
  });
});
