/** Operators, roles, the append-only audit log, the admin CLI and the purge job. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { auditLog, idempotencyKeys, sessions, verificationCodes } from '../../server/db/schema.js';
import { JobName } from '../../server/jobs/scheduler.js';
import { operatorToken } from '../helpers/operator.js';
import { adminCli } from '../helpers/admin-cli.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('admin');

describe.each(tiers)('operators and jobs on %s', (tier) => {
  let t: TestServer;
  let superToken: string;
  const adminLogin = async (email: string, password: string) =>
    t.call<{ token: string; role: string }>(
      'plain',
      '/api/admin/auth/login',
      { email, password },
      { lang: 'EN' },
    );

  beforeAll(async () => {
    t = await startTestServer(tier);
    superToken = await operatorToken(t, 'root@coffer.test', 'superadmin');
  });
  afterAll(async () => {
    await t.close();
  });

  test('a superadmin creates operators with roles; a generated password is shown once and works', async () => {
    const created = await t.call(
      'envelope',
      '/api/admin/operator/create',
      { email: 'Support@Coffer.test', role: 'support' },
      { token: superToken, key: newKey() },
    );
    expect(created).toMatchObject({ code: 200, data: { email: 'support@coffer.test', role: 'support' } });
    const password = String(created.data['initialPassword']);
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect((await adminLogin('support@coffer.test', password)).data).toMatchObject({
      role: 'support',
      mustChangePassword: true,
    });
    const again = await t.call(
      'plain',
      '/api/admin/operator/create',
      { email: 'support@coffer.test', role: 'content' },
      { token: superToken, lang: 'EN' },
    );
    expect(again).toMatchObject({
      code: BodyCode.conflict,
      message: 'An operator with this e-mail address already exists',
    });
    const badRole = await t.call(
      'plain',
      '/api/admin/operator/create',
      { email: 'x@coffer.test', role: 'janitor' },
      { token: superToken, lang: 'EN' },
    );
    expect(badRole).toMatchObject({ code: 400, data: { field: 'role' } });
  });

  test('roles limit what an operator may do (403), and customers cannot use the admin API (401)', async () => {
    const content = await operatorToken(t, 'content@coffer.test', 'content');
    const refused = await t.call(
      'plain',
      '/api/admin/operator/create',
      { email: 'y@coffer.test', role: 'finance' },
      { token: content, lang: 'EN' },
    );
    expect(refused).toMatchObject({ code: BodyCode.forbidden, message: 'Your role does not allow this' });
    expect((await t.call('plain', '/api/admin/audit/list', {}, { token: content })).code).toBe(
      BodyCode.forbidden,
    );
    const customer = await t.register('plain', 'customer@example.com');
    expect((await t.call('plain', '/api/admin/operator/list', {}, { token: customer.token })).code).toBe(
      BodyCode.notLoggedIn,
    );
    const operatorAsCustomer = await t.call('plain', '/api/v1/user/info', {}, { token: content });
    expect(operatorAsCustomer.code).toBe(BodyCode.notLoggedIn);
  });

  test('invite codes made by operators are reusable: several customers register with one', async () => {
    const invite = await t.call<{ code: string }>(
      'plain',
      '/api/admin/invite/create',
      {},
      { token: superToken, key: newKey() },
    );
    expect(invite.data.code).toMatch(/^[A-Z2-9]{8}$/);
    await t.register('plain', 'first-invitee@example.com', 'secret123', invite.data.code);
    await t.register('envelope', 'second-invitee@example.com', 'secret123', invite.data.code);
  });

  test('every operator action is in the audit log, which refuses updates and deletes', async () => {
    const page = await t.call<{ items: Array<{ action: string; actor: string }>; nextCursor: string | null }>(
      'plain',
      '/api/admin/audit/list',
      { limit: 50 },
      { token: superToken, method: 'GET' },
    );
    const actions = page.data.items.map((item) => item.action);
    expect(actions).toEqual(
      expect.arrayContaining(['invite.create_root', 'operator.create', 'operator.login', 'invite.create']),
    );
    expect(page.data.items.find((item) => item.action === 'operator.create')?.actor).toMatch(
      /^(cli|operator:\d+)$/,
    );
    const db = t.server.database.db;
    await expect(db.update(auditLog).set({ action: 'tampered' })).rejects.toThrow();
    await expect(db.delete(auditLog)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_log`)).rejects.toThrow();
    const [first] = await db.select().from(auditLog).where(eq(auditLog.action, 'invite.create_root'));
    expect(first?.actor).toBe('system');
  });

  test('the purge job removes expired codes, sessions and idempotency keys older than 7 days, once per period', async () => {
    const db = t.server.database.db;
    const now = t.clock.now();
    const longAgo = new Date(now.getTime() - 9 * 24 * 3600 * 1000);
    const recent = new Date(now.getTime() - 6 * 24 * 3600 * 1000);
    await db.insert(verificationCodes).values({
      email: 'old@example.com',
      purpose: 'register',
      codeHash: 'x',
      createdAt: longAgo,
      expiresAt: longAgo,
    });
    await db.insert(sessions).values({
      tokenHash: 'old-session',
      subjectKind: 'user',
      subjectId: 1,
      createdAt: longAgo,
      lastSeenAt: longAgo,
      expiresAt: longAgo,
    });
    await db.insert(idempotencyKeys).values([
      { owner: 'anonymous', key: 'old-key-0001', requestHash: 'h', answer: '{}', createdAt: longAgo },
      { owner: 'anonymous', key: 'recent-key-01', requestHash: 'h', answer: '{}', createdAt: recent },
    ]);
    const first = await t.server.scheduler.runNow(JobName.purge);
    expect(first.status).toBe('done');
    expect(first.detail).toMatchObject({ codes: 1, sessions: 1, idempotencyKeys: 1 });
    expect(
      await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'recent-key-01')),
    ).toHaveLength(1);
    expect((await t.server.scheduler.runNow(JobName.purge)).status).toBe('already_done');
    t.clock.advance(3600);
    expect((await t.server.scheduler.runNow(JobName.purge)).status).toBe('done');
  });
});

describe('the admin CLI', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-cli-'));
  const admin = adminCli(dataDir);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test(
    '`operator create` makes an operator with a role, and `invite create` prints the code on its last line',
    { timeout: 120_000 },
    async () => {
      const created = await admin(
        'operator',
        'create',
        '--email',
        'first@coffer.test',
        '--role',
        'superadmin',
      );
      expect(created.stdout).toContain('Root invite code (first start): CLIROOT1');
      expect(created.stdout).toMatch(/operator \d+ first@coffer\.test \(superadmin\) created/);
      expect(created.stdout).toMatch(/initial password \(shown once\): \S{12,}/);
      const invite = await admin('invite', 'create');
      const lines = invite.stdout.trim().split('\n');
      expect(lines[lines.length - 1]).toMatch(/^[A-Z2-9]{8}$/);
      const listed = await admin('invite', 'list');
      expect(listed.stdout).toContain(lines[lines.length - 1]);
      await expect(
        admin('operator', 'create', '--email', 'first@coffer.test', '--role', 'janitor'),
      ).rejects.toMatchObject({ code: 1 });
      await expect(admin('nonsense')).rejects.toMatchObject({ code: 2 });
    },
  );
});
