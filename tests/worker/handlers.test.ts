/** The worker's one typed surface (STYLE rule 1) and what the auth handlers keep locally. */
import { describe, expect, test } from 'vitest';
import { createHandlers, mergeHandlers } from '../../worker/handlers/index.js';
import { MemorySessionStore } from '../../worker/session.js';
import { fakeApi, ok, refusal, transportFor, userInfo, type Script } from './fake-api.js';

const session = { token: 'tok-1', expiresAt: '2026-02-04T02:00:00Z', userId: '42' };

function setup(script: Script = () => ok({ done: true })) {
  const api = fakeApi('envelope', script);
  const store = new MemorySessionStore();
  const handlers = createHandlers({
    transport: transportFor('envelope', api.fetch),
    session: store,
    queue: { sleep: async () => {} },
  });
  return { handlers, store, seen: api.seen };
}

describe('the handler map', () => {
  test('a handler name declared twice fails when the maps are merged, at start', () => {
    const auth = { 'auth-login': async () => 1 };
    const other = { 'user-info': async () => 2, 'auth-login': async () => 3 };
    expect(() => mergeHandlers(auth, other)).toThrow('handler declared twice: auth-login');
  });

  test('distinct maps merge into one map holding every handler', async () => {
    const merged = mergeHandlers({ a: async () => 'a' }, { b: async (params: { n: number }) => params.n });
    expect(Object.keys(merged)).toEqual(['a', 'b']);
    expect(await merged.b({ n: 7 })).toBe(7);
  });

  test('the worker exposes every command: auth, user, common, session, sync, outbox, account, recharge, withdrawal methods, withdrawals, the exchange, hosting, dividends, machines, the team, proof of reserves, the security centre, passkeys, web push and the chat', () => {
    expect(Object.keys(setup().handlers).sort()).toEqual([
      'account-active',
      'account-select',
      'auth-check-forget-code',
      'auth-check-register-info',
      'auth-forgot',
      'auth-login',
      'auth-logout',
      'auth-register',
      'auth-send-forget-code',
      'auth-send-register-code',
      'chat-connect',
      'chat-disconnect',
      'chat-history-before',
      'chat-image',
      'chat-info',
      'chat-read',
      'common-config',
      'common-lang',
      'common-version',
      'dividend-info',
      'exchange-index',
      'hosting-config',
      'logout-discard',
      'logout-pending-count',
      'otc-info',
      'outbox-cancel',
      'outbox-dismiss',
      'outbox-drain',
      'outbox-enqueue',
      'outbox-retry',
      'passkey-list',
      'passkey-login',
      'passkey-login-options',
      'passkey-register',
      'passkey-register-options',
      'passkey-remove',
      'passkey-rename',
      'payment-add-bank',
      'payment-add-chain',
      'payment-delete',
      'payment-list',
      'push-key',
      'push-subscribe',
      'push-unsubscribe',
      'recharge-address',
      'reserves-proof',
      'security-bind-authenticator',
      'security-bind-trade-password',
      'security-end-other-sessions',
      'security-end-session',
      'security-modify-authenticator',
      'security-new-authenticator-key',
      'security-send-email-update-codes',
      'security-send-login-password-code',
      'security-send-trade-password-code',
      'security-sessions',
      'security-set-anti-phishing',
      'security-update-email',
      'security-update-login-password',
      'security-update-trade-password',
      'session-get',
      'session-set-locale',
      'sync-pull',
      'sync-quiesce',
      'sync-start',
      'sync-status',
      'team-info',
      'team-levels',
      'team-members',
      'team-my-level',
      'user-assets',
      'user-info',
      'withdraw-index',
    ]);
  });
});

describe('commands and their Idempotency-Key', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  test('every call of a command makes a new UUID key, and its retries reuse it', async () => {
    // The first attempt of each call fails with a body 500 and is retried.
    const { handlers, seen } = setup((_call, attempt) =>
      attempt % 2 === 1 ? refusal(500) : ok({ resendAfter: 60, expiresAt: '2026-01-05T02:10:00Z' }),
    );
    await handlers['auth-send-register-code']({ email: 'a@example.com' });
    await handlers['auth-send-register-code']({ email: 'a@example.com' });
    const keys = seen.map((call) => call.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(UUID);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  const commands: ReadonlyArray<
    [string, (h: ReturnType<typeof setup>['handlers']) => Promise<unknown>, string]
  > = [
    [
      'auth-send-register-code',
      (h) => h['auth-send-register-code']({ email: 'a@x.io' }),
      '/api/v1/sso/sendRegisterCode',
    ],
    [
      'auth-check-register-info',
      (h) => h['auth-check-register-info']({ email: 'a@x.io', inviteCode: 'ROOT' }),
      '/api/v1/sso/checkRegisterInfo',
    ],
    [
      'auth-register',
      (h) =>
        h['auth-register']({
          email: 'a@x.io',
          code: '123456',
          inviteCode: 'ROOT',
          password: 'secret1',
          confirmPassword: 'secret1',
        }),
      '/api/v1/sso/register',
    ],
    [
      'auth-login',
      (h) => h['auth-login']({ email: 'a@x.io', password: 'secret1' }),
      '/api/v1/sso/emailLogin',
    ],
    ['auth-logout', (h) => h['auth-logout'](), '/api/v1/sso/logout'],
    [
      'auth-send-forget-code',
      (h) => h['auth-send-forget-code']({ email: 'a@x.io' }),
      '/api/v1/sso/sendForgetCode',
    ],
    [
      'auth-check-forget-code',
      (h) => h['auth-check-forget-code']({ email: 'a@x.io', code: '123456' }),
      '/api/v1/sso/checkForgetCode',
    ],
    [
      'auth-forgot',
      (h) =>
        h['auth-forgot']({
          email: 'a@x.io',
          code: '123456',
          password: 'secret1',
          confirmPassword: 'secret1',
        }),
      '/api/v1/sso/forgot',
    ],
  ];

  const passkeyResponse = {
    id: 'cred',
    rawId: 'cred',
    type: 'public-key' as const,
    response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
    clientExtensionResults: {},
  };
  const passkeyCommands: typeof commands = [
    [
      'passkey-register-options',
      (h) => h['passkey-register-options']({ password: 'secret1' }),
      '/api/v1/passkey/register-options',
    ],
    [
      'passkey-register',
      (h) =>
        h['passkey-register']({
          challengeId: 'c1',
          name: 'Phone',
          response: { ...passkeyResponse, response: { clientDataJSON: 'e30', attestationObject: 'AA' } },
        }),
      '/api/v1/passkey/register',
    ],
    ['passkey-rename', (h) => h['passkey-rename']({ id: '1', name: 'Laptop' }), '/api/v1/passkey/rename'],
    ['passkey-remove', (h) => h['passkey-remove']({ id: '1' }), '/api/v1/passkey/remove'],
    [
      'passkey-login',
      (h) => h['passkey-login']({ challengeId: 'c1', response: passkeyResponse }),
      '/api/v1/sso/passkey-login',
    ],
    [
      'push-subscribe',
      (h) =>
        h['push-subscribe']({
          endpoint: 'https://push.example.com/1',
          keys: { p256dh: 'BAAA', auth: 'AAAA' },
        }),
      '/api/v1/push/subscribe',
    ],
    [
      'push-unsubscribe',
      (h) => h['push-unsubscribe']({ endpoint: 'https://push.example.com/1' }),
      '/api/v1/push/unsubscribe',
    ],
  ];

  test.each(passkeyCommands)('%s is a POST with an Idempotency-Key', async (_name, run, uri) => {
    const { handlers, seen } = setup(() => refusal(400));
    await run(handlers);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', uri });
    expect(seen[0]?.headers['idempotency-key']).toMatch(UUID);
  });

  test('the authenticator code goes with the passkey options only when given', async () => {
    const { handlers, seen } = setup(() => refusal(400));
    await handlers['passkey-register-options']({ password: 'secret1' });
    await handlers['passkey-register-options']({ password: 'secret1', googleCode: '123456' });
    expect(seen.map((call) => call.params)).toEqual([
      { password: 'secret1' },
      { password: 'secret1', googleCode: '123456' },
    ]);
  });

  test.each(commands)('%s is a POST with an Idempotency-Key', async (_name, run, uri) => {
    const { handlers, seen } = setup(() => refusal(400));
    await run(handlers);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', uri });
    expect(seen[0]?.headers['idempotency-key']).toMatch(UUID);
  });

  test.each([
    ['user-info', '/api/v1/user/info'],
    ['common-config', '/api/v1/common/config'],
    ['common-lang', '/api/v1/common/lang'],
    ['common-version', '/api/v1/common/version'],
    ['passkey-list', '/api/v1/passkey/list'],
    ['passkey-login-options', '/api/v1/sso/passkey-options'],
    ['push-key', '/api/v1/push/key'],
  ] as const)('%s is a GET without a key', async (name, uri) => {
    const { handlers, seen } = setup(() => refusal(404));
    await handlers[name]();
    expect(seen[0]).toMatchObject({ method: 'GET', uri });
    expect(seen[0]?.headers).not.toHaveProperty('idempotency-key');
  });

  test('checkRegisterInfo sends the passwords only when given', async () => {
    const { handlers, seen } = setup(() => ok({ valid: true }));
    await handlers['auth-check-register-info']({ email: 'a@x.io', inviteCode: 'ROOT' });
    await handlers['auth-check-register-info']({
      email: 'a@x.io',
      inviteCode: 'ROOT',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(seen.map((call) => call.params)).toEqual([
      { email: 'a@x.io', inviteCode: 'ROOT' },
      { email: 'a@x.io', inviteCode: 'ROOT', password: 'secret1', confirmPassword: 'secret1' },
    ]);
  });
});

describe('the local session', () => {
  test('a successful login stores the token, the user id and the e-mail in canonical form', async () => {
    const { handlers, store } = setup(() => ok(session, 'Login successful'));
    const outcome = await handlers['auth-login']({ email: ' Alice@Example.COM ', password: 'secret1' });
    expect(outcome).toEqual({ kind: 'ok', message: 'Login successful', data: session });
    expect(await store.getSession()).toEqual({ token: 'tok-1', userId: '42', email: 'alice@example.com' });
  });

  test('a successful registration stores the session', async () => {
    const { handlers, store } = setup(() => ok(session));
    await handlers['auth-register']({
      email: 'bob@example.com',
      code: '123456',
      inviteCode: 'ROOT',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(await store.getSession()).toEqual({ token: 'tok-1', userId: '42', email: 'bob@example.com' });
  });

  test('a passkey sign-in stores the session with the e-mail read from user/info (none was typed)', async () => {
    const info = userInfo({
      id: '42',
      email: 'carol@example.com',
      nickname: 'carol',
      avatar: '',
      inviteCode: 'ABCD1234',
      defaultAccountId: '7',
    });
    const { handlers, store, seen } = setup((call) =>
      call.uri === '/api/v1/user/info' ? ok(info) : ok(session, 'Login successful'),
    );
    const outcome = await handlers['passkey-login']({
      challengeId: 'c1',
      response: {
        id: 'cred',
        rawId: 'cred',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
        clientExtensionResults: {},
      },
    });
    expect(outcome).toEqual({ kind: 'ok', message: 'Login successful', data: session });
    expect(seen[1]?.headers['authorization']).toBe('Bearer tok-1');
    expect(await store.getSession()).toEqual({ token: 'tok-1', userId: '42', email: 'carol@example.com' });
  });

  test('a refused login stores nothing', async () => {
    const { handlers, store } = setup(() => refusal(400, 'Wrong e-mail or password'));
    await handlers['auth-login']({ email: 'a@x.io', password: 'wrong1' });
    expect(await store.getSession()).toBeNull();
  });

  test('logout sends the token and clears the local session', async () => {
    const { handlers, store, seen } = setup(() => ok({ done: true }));
    await store.saveSession({ token: 'tok-1', userId: '42', email: 'a@x.io' });
    expect(await handlers['auth-logout']()).toMatchObject({ kind: 'ok' });
    expect(seen[0]?.headers['authorization']).toBe('Bearer tok-1');
    expect(await store.getSession()).toBeNull();
  });

  test('logout offline still logs out locally, and returns the transport outcome', async () => {
    const { handlers, store, seen } = setup(() => ({ network: true }));
    await store.saveSession({ token: 'tok-1', userId: '42', email: 'a@x.io' });
    expect(await handlers['auth-logout']()).toMatchObject({ kind: 'transport', status: null });
    expect(seen).toHaveLength(5);
    expect(await store.getSession()).toBeNull();
  });
});
