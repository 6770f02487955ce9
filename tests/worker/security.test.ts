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
