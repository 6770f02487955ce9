/**
 * The security handlers: each command goes straight to the server with one Idempotency-Key reused
 * on its retries (never into the outbox), reads the key with GET, and hands 300/4900/472
 * refusals back to the page as they came.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { createHandlers } from '../../worker/handlers/index.js';
import { MemorySessionStore } from '../../worker/session.js';
import { deleteDatabasesAfterEach, fakeApi, ok, refusal, transportFor, type Script } from './fake-api.js';

async function setup(script: Script) {
  const api = fakeApi('envelope', script);
  const session = new MemorySessionStore();
  await session.saveSession({ token: 'tok-1', userId: '42', email: 'a@example.com' });
  const handlers = createHandlers({
    transport: transportFor('envelope', api.fetch),
    session,
    queue: { sleep: async () => {}, debounceMs: 0 },
  });
  return { handlers, seen: api.seen };
}

deleteDatabasesAfterEach();

describe('security handlers', () => {
  test('the authenticator key is a GET read with the token', async () => {
    const key = {
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      otpauthUrl: 'otpauth://totp/Coffer:a?secret=X',
    };
    const { handlers, seen } = await setup(() => ok(key));
    const outcome = await handlers['security-new-authenticator-key']();
    expect(outcome).toMatchObject({ kind: 'ok', data: key });
    expect(seen[0]).toMatchObject({ method: 'GET', uri: '/api/v1/user/getGoogle2Fa' });
    expect(seen[0]?.headers['Authorization'] ?? seen[0]?.headers['authorization']).toMatch(/tok-1/);
  });

  test('binding sends the code once with an Idempotency-Key, reused when a 500 is retried', async () => {
    const answer = { done: true, withdrawalsLockedUntil: null };
    const { handlers, seen } = await setup((_call, attempt) =>
      attempt === 1 ? refusal(BodyCode.internalError) : ok(answer),
    );
    const outcome = await handlers['security-bind-authenticator']({ code: '123456' });
    expect(outcome).toMatchObject({ kind: 'ok', data: answer });
    expect(seen).toHaveLength(2);
    expect(seen.map((call) => call.uri)).toEqual([
      '/api/v1/user/bindGoogle2Fa',
      '/api/v1/user/bindGoogle2Fa',
    ]);
    expect(seen[0]?.params).toEqual({ code: '123456' });
    const keys = seen.map((call) => call.headers['Idempotency-Key'] ?? call.headers['idempotency-key']);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  test('refusals come back as they are (300, 4900, 472) for the page to apply the redirects', async () => {
    for (const code of [
      BodyCode.tradePasswordNotSet,
      BodyCode.authenticatorNotBound,
      BodyCode.oneTimeCodeRejected,
    ]) {
      const { handlers, seen } = await setup(() => refusal(code, 'no', { field: 'code' }));
      const outcome = await handlers['security-update-trade-password']({
        oldTradePassword: 'trade123',
        tradePassword: 'trade456',
        confirmPassword: 'trade456',
        code: '123456',
      });
      expect(outcome).toMatchObject({ kind: 'refused', code });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        method: 'POST',
        uri: '/api/v1/user/updateTradePassword',
        params: {
          oldTradePassword: 'trade123',
          tradePassword: 'trade456',
          confirmPassword: 'trade456',
          code: '123456',
        },
      });
    }
  });

  test('each password command names its own route and fields', async () => {
    const { handlers, seen } = await setup(() => ok({ done: true, withdrawalsLockedUntil: null }));
    await handlers['security-bind-trade-password']({
      tradePassword: 'trade123',
      confirmPassword: 'trade123',
    });
    await handlers['security-update-login-password']({
      oldPassword: 'secret123',
      password: 'newpass1',
      confirmPassword: 'newpass1',
      code: '654321',
    });
    await handlers['security-modify-authenticator']({ oldCode: '111111', newCode: '222222', secret: 'ABC' });
    expect(seen.map((call) => [call.uri, Object.keys(call.params).sort()])).toEqual([
      ['/api/v1/user/bindTradePassword', ['confirmPassword', 'tradePassword']],
      ['/api/v1/user/updateLoginPassword', ['code', 'confirmPassword', 'oldPassword', 'password']],
      ['/api/v1/user/modifyGoogle2Fa', ['newCode', 'oldCode', 'secret']],
    ]);
  });
});

describe('security centre handlers', () => {
  const session = {
    id: '7',
    device: 'Chrome 120 on Windows 10',
    ip: '203.0.113.9',
    createdAt: '2026-11-27T05:00:00.000Z',
    lastSeenAt: '2026-11-27T05:30:00.000Z',
    current: false,
  };

  test('the sessions are a GET read with the token, parsed by the contract', async () => {
    const { handlers, seen } = await setup(() =>
      ok({ items: [session, { ...session, id: '8', current: true }] }),
    );
    const outcome = await handlers['security-sessions']();
    expect(outcome).toMatchObject({ kind: 'ok', data: { items: [{ id: '7' }, { id: '8', current: true }] } });
    expect(seen[0]).toMatchObject({ method: 'GET', uri: '/api/v1/user/sessions' });
    expect(seen[0]?.headers['Authorization'] ?? seen[0]?.headers['authorization']).toMatch(/tok-1/);
  });

  test('offline the sessions read is a transport failure (the page says it needs a connection), not a refusal', async () => {
    const { handlers } = await setup(() => ({ network: true }));
    const outcome = await handlers['security-sessions']();
    expect(outcome.kind).toBe('transport');
  });

  test('ending one session sends its id; ending the others sends others: true, never both', async () => {
    const { handlers, seen } = await setup(() => ok({ revoked: 1 }));
    expect(await handlers['security-end-session']({ sessionId: '7' })).toMatchObject({
      kind: 'ok',
      data: { revoked: 1 },
    });
    await handlers['security-end-other-sessions']();
    expect(seen.map((call) => [call.method, call.uri, call.params])).toEqual([
      ['POST', '/api/v1/user/session-revoke', { sessionId: '7' }],
      ['POST', '/api/v1/user/session-revoke', { others: true }],
    ]);
    const keys = seen.map((call) => call.headers['Idempotency-Key'] ?? call.headers['idempotency-key']);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).not.toBe(keys[0]);
  });

  test('the anti-phishing code goes with the one confirmation given, and a 472 naming googleCode comes back as is', async () => {
    const { handlers, seen } = await setup((call) =>
      call.params['googleCode'] === '000000'
        ? refusal(BodyCode.oneTimeCodeRejected, 'wrong code', { field: 'googleCode' })
        : ok({ done: true }),
    );
    expect(
      await handlers['security-set-anti-phishing']({ code: 'Blue42', tradePassword: 'trade123' }),
    ).toMatchObject({
      kind: 'ok',
    });
    expect(
      await handlers['security-set-anti-phishing']({ code: 'Blue42', googleCode: '000000' }),
    ).toMatchObject({
      kind: 'refused',
      code: BodyCode.oneTimeCodeRejected,
      data: { field: 'googleCode' },
    });
    expect(seen.map((call) => [call.uri, call.params])).toEqual([
      ['/api/v1/user/anti-phishing', { code: 'Blue42', tradePassword: 'trade123' }],
      ['/api/v1/user/anti-phishing', { code: 'Blue42', googleCode: '000000' }],
    ]);
  });

  test('the e-mail change: the codes are asked with the new address, then both codes go with it', async () => {
    const { handlers, seen } = await setup((call) =>
      call.uri === '/api/v1/user/sendEmailUpdateCode'
        ? ok({ resendAfter: 60, expiresAt: '2026-11-27T05:40:00.000Z' })
        : ok({ email: 'new@example.com', withdrawalsLockedUntil: '2026-11-28T05:30:00.000Z' }),
    );
    expect(await handlers['security-send-email-update-codes']({ newEmail: 'new@example.com' })).toMatchObject(
      {
        kind: 'ok',
        data: { resendAfter: 60 },
      },
    );
    const changed = await handlers['security-update-email']({
      newEmail: 'new@example.com',
      oldCode: '111111',
      newCode: '222222',
    });
    expect(changed).toMatchObject({
      kind: 'ok',
      data: { email: 'new@example.com', withdrawalsLockedUntil: '2026-11-28T05:30:00.000Z' },
    });
    expect(seen.map((call) => [call.method, call.uri, call.params])).toEqual([
      ['POST', '/api/v1/user/sendEmailUpdateCode', { newEmail: 'new@example.com' }],
      [
        'POST',
        '/api/v1/user/email-update',
        { newEmail: 'new@example.com', oldCode: '111111', newCode: '222222' },
      ],
    ]);
  });
});
