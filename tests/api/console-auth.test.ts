/**
 * The operator console's sign-in rules: the first start's superadmin with a one-time password,
 * setup before anything else (setup_required), the authenticator at every sign-in, step-up for
 * money and access actions (step_up_required), 30 idle minutes, disabled operators' sessions
 * ending at once, and the audit log's hash chain.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { auditLog, operators } from '../../server/db/schema.js';
import { totpCode } from '../../server/security/totp.js';
import { availableTiers } from '../helpers/database.js';
import { OPERATOR_PASSWORD, ok, readyOperator } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('console sign-in');

describe.each(tiers)('operator sign-in and the audit chain on %s', (tier) => {
  let t: TestServer;
  const login = (params: Record<string, unknown>) =>
    t.call<{ token: string; mustChangePassword: boolean; authenticatorBound: boolean; role: string }>(
      'plain',
      '/api/admin/auth/login',
      params,
      { lang: 'EN' },
    );
  const as = (token: string) => ({ token, key: newKey(), lang: 'EN' });

  beforeAll(async () => {
    t = await startTestServer(tier);
  });
  afterAll(async () => {
    await t.close();
  });

  test('the first start makes one superadmin with a one-time password, stored only hashed, never twice', async () => {
    const first = t.server.rootOperatorCreated;
    expect(first?.email).toBe('root@coffer.local');
    expect(first?.password.length).toBeGreaterThanOrEqual(12);
    const [row] = await t.server.database.db
      .select()
      .from(operators)
      .where(eq(operators.email, 'root@coffer.local'));
    expect(row).toMatchObject({ role: 'superadmin', mustChangePassword: true, authenticatorSecret: null });
    expect(row?.passwordHash).not.toContain(first?.password ?? '?');
    expect(await t.server.services.operators.ensureRootOperator('root@coffer.local')).toBeNull();
    expect(await t.server.services.operators.ensureRootOperator('other@coffer.local')).toBeNull();
  });

  test('until the password is changed and an authenticator bound, other routes answer 403 setup_required', async () => {
    const password = t.server.rootOperatorCreated?.password ?? '';
    const signedIn = await login({ email: 'root@coffer.local', password });
    expect(signedIn.data).toMatchObject({
      role: 'superadmin',
      mustChangePassword: true,
      authenticatorBound: false,
    });
    const token = signedIn.data.token;

    const refused = await t.call('plain', '/api/admin/operator/list', {}, as(token));
    expect(refused).toMatchObject({ code: BodyCode.forbidden, data: { reason: 'setup_required' } });
    expect((await t.call('plain', '/api/admin/auth/me', {}, as(token))).data).toMatchObject({
      email: 'root@coffer.local',
      mustChangePassword: true,
    });

    const wrongOld = await t.call(
      'plain',
      '/api/admin/auth/password',
      { oldPassword: 'not-it-at-all', newPassword: OPERATOR_PASSWORD },
      as(token),
    );
    expect(wrongOld).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'oldPassword' } });
    const same = await t.call(
      'plain',
      '/api/admin/auth/password',
      { oldPassword: password, newPassword: password },
      as(token),
    );
    expect(same).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'newPassword' } });
    ok(
      await t.call(
        'plain',
        '/api/admin/auth/password',
        { oldPassword: password, newPassword: OPERATOR_PASSWORD },
        as(token),
      ),
      'password',
    );
    // The password alone is not enough.
    expect(await t.call('plain', '/api/admin/operator/list', {}, as(token))).toMatchObject({
      data: { reason: 'setup_required' },
    });

    const { secret, otpauthUrl } = ok(
      await t.call<{ secret: string; otpauthUrl: string }>(
        'plain',
        '/api/admin/auth/authenticator',
        {},
        as(token),
      ),
      'authenticator',
    );
    expect(otpauthUrl).toContain('otpauth://totp/');
    const wrong = (Number(await totpCode(secret, t.clock.now())) + 1) % 1_000_000;
    expect(
      await t.call(
        'plain',
        '/api/admin/auth/bind-authenticator',
        { googleCode: String(wrong).padStart(6, '0') },
        as(token),
      ),
    ).toMatchObject({ code: BodyCode.oneTimeCodeRejected, data: { field: 'googleCode' } });
    ok(
      await t.call(
        'plain',
        '/api/admin/auth/bind-authenticator',
        { googleCode: await totpCode(secret, t.clock.now()) },
        as(token),
      ),
      'bind',
    );
    expect(ok(await t.call('plain', '/api/admin/operator/list', {}, as(token)), 'list')).toHaveProperty(
      'items',
    );

    // Once bound, every sign-in needs a code: none is a 400 on the field, a wrong or reused one 472.
    const none = await login({ email: 'root@coffer.local', password: OPERATOR_PASSWORD });
    expect(none).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'googleCode' } });
    const reused = await login({
      email: 'root@coffer.local',
      password: OPERATOR_PASSWORD,
      googleCode: await totpCode(secret, t.clock.now()),
    });
    expect(reused).toMatchObject({ code: BodyCode.oneTimeCodeRejected, data: { field: 'googleCode' } });
    t.clock.advance(30);
    const fresh = await login({
      email: 'root@coffer.local',
      password: OPERATOR_PASSWORD,
      googleCode: await totpCode(secret, t.clock.now()),
    });
    expect(fresh.data).toMatchObject({ mustChangePassword: false, authenticatorBound: true });
  });

  test('money and access actions need a step-up within 5 minutes; a code steps the session up', async () => {
    const root = await readyOperator(t, 'super@coffer.test', 'superadmin');
    const create = (email: string) => root.call('/api/admin/operator/create', { email, role: 'support' });
    // A sign-in with a code counts as a step-up.
    expect((await create('s1@coffer.test')).code).toBe(200);
    const token = await root.token();
    t.clock.advance(5 * 60 + 1);
    expect(
      await root.call('/api/admin/operator/create', { email: 's2@coffer.test', role: 'support' }, { token }),
    ).toMatchObject({
      code: BodyCode.forbidden,
      data: { reason: 'step_up_required' },
    });
    // Reads and ordinary actions do not need one.
    expect((await root.call('/api/admin/operator/list', {}, { token })).code).toBe(200);
    const stepped = await root.call<{ elevatedUntil: string }>(
      '/api/admin/auth/step-up',
      { googleCode: await root.nextCode() },
      { token },
    );
    expect(Date.parse(stepped.data.elevatedUntil)).toBe(t.clock.now().getTime() + 5 * 60 * 1000);
    expect(
      (await root.call('/api/admin/operator/create', { email: 's2@coffer.test', role: 'support' }, { token }))
        .code,
    ).toBe(200);
    expect((await root.call('/api/admin/auth/me', {}, { token })).data).toMatchObject({
      elevatedUntil: stepped.data.elevatedUntil,
    });
  });

  test("an operator's session ends after 30 idle minutes; a disabled operator's at once", async () => {
    const root = await readyOperator(t, 'super2@coffer.test', 'superadmin');
    const finance = await readyOperator(t, 'fin@coffer.test', 'finance');
    const token = await finance.token();
    t.clock.advance(29 * 60);
    expect((await finance.call('/api/admin/auth/me', {}, { token })).code).toBe(200);
    t.clock.advance(29 * 60);
    expect((await finance.call('/api/admin/auth/me', {}, { token })).code).toBe(200);
    t.clock.advance(30 * 60 + 1);
    expect((await finance.call('/api/admin/auth/me', {}, { token })).code).toBe(BodyCode.notLoggedIn);

    const live = await finance.token();
    expect((await finance.call('/api/admin/auth/me', {}, { token: live })).code).toBe(200);
    const id = ok(
      await finance.call<{ operatorId: string }>('/api/admin/auth/me', {}, { token: live }),
      'me',
    ).operatorId;
    const disabled = await root.call('/api/admin/operator/disable', { operatorId: id });
    expect(disabled.data).toMatchObject({ disabled: true });
    expect((await finance.call('/api/admin/auth/me', {}, { token: live })).code).toBe(BodyCode.notLoggedIn);
    expect(
      (
        await login({
          email: finance.email,
          password: OPERATOR_PASSWORD,
          googleCode: await finance.nextCode(),
        })
      ).code,
    ).toBe(BodyCode.invalidInput);
  });

  test('the audit log filters by actor, action, target and time, and exports as CSV', async () => {
    const compliance = await readyOperator(t, 'auditor@coffer.test', 'compliance');
    const logins = ok(
      await compliance.call<{ items: Array<{ action: string; actor: string }> }>('/api/admin/audit/list', {
        action: 'operator.login',
        from: '2026-01-01T00:00:00Z',
      }),
      'list',
    );
    expect(logins.items.length).toBeGreaterThan(2);
    expect(new Set(logins.items.map((item) => item.action))).toEqual(new Set(['operator.login']));
    const none = ok(
      await compliance.call<{ items: unknown[] }>('/api/admin/audit/list', { to: '2020-01-01T00:00:00Z' }),
      'list',
    );
    expect(none.items).toEqual([]);
    expect((await compliance.call('/api/admin/audit/list', { from: 'yesterday' })).code).toBe(
      BodyCode.invalidInput,
    );
    const exported = ok(
      await compliance.call<{ csv: string; rows: number; filename: string }>('/api/admin/audit/export', {
        action: 'operator.create',
      }),
      'export',
    );
    const lines = exported.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,target,detail,hash');
    expect(lines.length).toBe(exported.rows + 1);
    expect(lines[1]).toContain('operator.create');
    expect(exported.filename).toMatch(/^coffer-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  test('the audit chain verifies, and a row changed behind its back is named', async () => {
    const compliance = await readyOperator(t, 'comp@coffer.test', 'compliance');
    const verified = ok(
      await compliance.call<{ ok: boolean; checked: number; brokenAt: string | null }>(
        '/api/admin/audit/verify',
      ),
      'verify',
    );
    expect(verified).toMatchObject({ ok: true, brokenAt: null });
    expect(verified.checked).toBeGreaterThan(5);

    const db = t.server.database.db;
    const [victim] = await db.select().from(auditLog).where(eq(auditLog.action, 'operator.create')).limit(1);
    // Only someone bypassing the append-only rule can change a row: a superuser disabling its trigger.
    await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await db.execute(
      sql`update audit_log set detail = '{"email":"someone-else@coffer.test","role":"finance"}' where id = ${victim?.id}`,
    );
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    const broken = await compliance.call('/api/admin/audit/verify');
    expect(broken.data).toMatchObject({ ok: false, brokenAt: String(victim?.id) });
  });
});
