/**
 * The operators' working-day calendar (issue "Money core 3"), on PGlite and PostgreSQL: finance
 * operators mark holidays and make-up working days, audited; the withdrawal window follows them
 * (a Monday holiday is closed, a make-up Saturday is open); a user or another role is refused;
 * a malformed date names the field.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { availableTiers } from '../helpers/database.js';
import { operatorToken } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('calendar-api');

describe.each(tiers)('the working-day calendar on %s', (tier) => {
  let t: TestServer;
  let finance: string;
  let support: string;
  const login = (email: string, role: 'finance' | 'support') => operatorToken(t, email, role);
  beforeAll(async () => {
    t = await startTestServer(tier);
    finance = await login(`finance-${tier}@example.com`, 'finance');
    support = await login(`support-${tier}@example.com`, 'support');
  });
  afterAll(async () => t?.close());

  const set = (date: string, kind: string, token = finance) =>
    t.call<{ items: Array<{ date: string; kind: string }> }>(
      'plain',
      '/api/admin/calendar/set',
      { date, kind },
      { token, key: newKey(), lang: 'EN' },
    );

  test('a holiday closes a Monday and a make-up Saturday opens, in the business time zone', async () => {
    // The test clock: Monday 2026-01-05 10:00 in Asia/Shanghai (02:00Z).
    expect(await t.server.services.calendar.windowNow()).toMatchObject({ open: true });
    expect((await set('2026-01-05', 'holiday')).code).toBe(200);
    expect(await t.server.services.calendar.windowNow()).toEqual({
      open: false,
      nextOpen: new Date('2026-01-06T01:00:00Z'),
      closesAt: null,
    });
    await set('2026-01-06', 'holiday');
    await set('2026-01-10', 'workday');
    const listed = await t.call<{ items: unknown[] }>(
      'plain',
      '/api/admin/calendar/list',
      {},
      { token: finance },
    );
    expect(listed.data.items).toEqual([
      { date: '2026-01-05', kind: 'holiday' },
      { date: '2026-01-06', kind: 'holiday' },
      { date: '2026-01-10', kind: 'workday' },
    ]);
    expect((await set('2026-01-05', 'normal')).data.items).toHaveLength(2);
    expect(await t.server.services.calendar.windowNow()).toMatchObject({ open: true });
    const audit = await t.server.services.operators.auditPage({});
    expect(audit.items.filter((entry) => entry.action === 'calendar.set').length).toBeGreaterThanOrEqual(4);
  });

  test('a malformed date or kind names the field; a support operator and a user are refused', async () => {
    expect((await set('2026-13-40', 'holiday')).data).toMatchObject({ field: 'date' });
    expect((await set('2026-01-05', 'weekend')).data).toMatchObject({ field: 'kind' });
    expect((await set('2026-01-07', 'holiday', support)).code).toBe(BodyCode.forbidden);
    const user = await t.register('plain', `calendar-user-${tier}@example.com`);
    expect([BodyCode.forbidden, BodyCode.notLoggedIn]).toContain(
      (await set('2026-01-07', 'holiday', user.token)).code,
    );
  });
});
