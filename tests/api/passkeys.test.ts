/**
 * Passkeys through the API (issue 27, docs/protocol.md section 33), on PGlite and PostgreSQL,
 * with a software authenticator written from the WebAuthn spec (tests/helpers/webauthn.ts):
 * adding one needs the login password (and the authenticator code when bound); signing in with
 * it needs no e-mail and answers like the e-mail login; challenges live 5 minutes and are used
 * once (also across two instances sharing Redis); the signature counter must grow; the relying
 * party and origin are COFFER_PUBLIC_URL's; removed passkeys sign in no more.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/security/totp.js';
import { availableTiers, createPostgresDatabase, postgresReachable } from '../helpers/database.js';
import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { SoftPasskey } from '../helpers/webauthn.js';

const tiers = await availableTiers('passkeys');
const redisUp = await redisReachable();
const postgresUp = await postgresReachable();
if (!redisUp || !postgresUp)
  console.warn('[passkeys] SKIPPED the two-instance test: Redis or PostgreSQL is not reachable');

const PUBLIC_URL = 'https://coffer.example.com';
const RELYING = { rpId: 'coffer.example.com', origin: PUBLIC_URL };
const PASSWORD = 'secret123';

interface Options {
  challengeId: string;
  options: { challenge: string; user: { id: string }; rp: { id: string }; [key: string]: unknown };
}
interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

async function registerOptions(t: TestServer, token: string, params: Record<string, unknown> = {}) {
  return t.call<Options>(
    'plain',
    '/api/v1/passkey/register-options',
    { password: PASSWORD, ...params },
    { token },
  );
}

/** Adds a passkey for the user of `token` and answers the software authenticator holding it. */
async function addPasskey(t: TestServer, token: string, name = 'My phone') {
  const options = await registerOptions(t, token);
  expect(options.code).toBe(BodyCode.ok);
  const passkey = new SoftPasskey(RELYING);
  const added = await t.call<PasskeyItem>(
    'plain',
    '/api/v1/passkey/register',
    { challengeId: options.data.challengeId, name, response: passkey.register(options.data.options) },
    { token },
  );
  expect(added.code).toBe(BodyCode.ok);
  return { passkey, item: added.data };
}

async function loginOptions(t: TestServer) {
  const answer = await t.call<Options>('plain', '/api/v1/sso/passkey-options', {});
  expect(answer.code).toBe(BodyCode.ok);
  return answer.data;
}

const passkeyLogin = (t: TestServer, challengeId: string, response: Record<string, unknown>, lang?: string) =>
  t.call<{ token: string; userId: string; expiresAt: string }>(
    'plain',
    '/api/v1/sso/passkey-login',
    { challengeId, response },
    lang ? { lang } : {},
  );

const listOf = async (t: TestServer, token: string) =>
  (await t.call<{ items: PasskeyItem[] }>('plain', '/api/v1/passkey/list', {}, { token })).data.items;

describe.each(tiers)('passkeys on %s', (tier) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(tier, { COFFER_PUBLIC_URL: PUBLIC_URL });
  });
  afterAll(async () => {
    await t.close();
  });

  test('a user adds a passkey with the login password and signs in with it without an e-mail, like the e-mail login', async () => {
    const { token, userId } = await t.register('plain', 'pk-basic@example.com');
    const options = await registerOptions(t, token);
    expect(options.code).toBe(BodyCode.ok);
    // The relying party is COFFER_PUBLIC_URL's host; a discoverable credential is asked for.
    expect(options.data.options.rp.id).toBe('coffer.example.com');
    expect(options.data.options['authenticatorSelection']).toMatchObject({ residentKey: 'required' });
    const passkey = new SoftPasskey(RELYING);
    const added = await t.call<PasskeyItem>(
      'plain',
      '/api/v1/passkey/register',
      {
        challengeId: options.data.challengeId,
        name: '  Work laptop ',
        response: passkey.register(options.data.options),
      },
      { token },
    );
    expect(added).toMatchObject({ code: BodyCode.ok, data: { name: 'Work laptop', lastUsedAt: null } });
    expect(await listOf(t, token)).toEqual([added.data]);

    const login = await loginOptions(t);
    expect(login.options['allowCredentials'] ?? []).toEqual([]);
    const signedIn = await passkeyLogin(t, login.challengeId, passkey.assert(login.options));
    expect(signedIn.code).toBe(BodyCode.ok);
    expect(signedIn.data.userId).toBe(userId);
    const info = await t.call<{ email: string }>(
      'plain',
      '/api/v1/user/info',
      {},
      { token: signedIn.data.token },
    );
    expect(info).toMatchObject({ code: BodyCode.ok, data: { email: 'pk-basic@example.com' } });
    const [item] = await listOf(t, token);
    expect(item?.lastUsedAt).toBe(t.clock.now().toISOString());
  });

  test('a passkey sign-in from a new device mails the sign-in alert, as the e-mail login does', async () => {
    const { token } = await t.register('plain', 'pk-alert@example.com');
    const { passkey } = await addPasskey(t, token);
    const before = t.mailer.sent.length;
    const login = await loginOptions(t);
    const signedIn = await t.call(
      'plain',
      '/api/v1/sso/passkey-login',
      { challengeId: login.challengeId, response: passkey.assert(login.options) },
      {
        lang: 'en',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      },
    );
    expect(signedIn.code).toBe(BodyCode.ok);
    const alerts = t.mailer.sent
      .slice(before)
      .filter((mail) => mail.to === 'pk-alert@example.com' && /New sign-in/.test(mail.subject));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toMatch(/Firefox/);
  });

  test('refused passkey sign-ins count against the client address like wrong passwords, up to 423', async () => {
    const { token } = await t.register('plain', 'pk-flood@example.com');
    const { passkey } = await addPasskey(t, token);
    const ip = '203.0.113.77';
    const bogus = passkey.assert({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAA' });
    for (let i = 0; i < 30; i += 1) {
      const refused = await t.call(
        'plain',
        '/api/v1/sso/passkey-login',
        { challengeId: `unknown${i}`, response: bogus },
        { ip },
      );
      expect(refused.code).toBe(BodyCode.notFound);
    }
    const login = await loginOptions(t);
    const locked = await t.call(
      'plain',
      '/api/v1/sso/passkey-login',
      { challengeId: login.challengeId, response: passkey.assert(login.options) },
      { ip },
    );
    expect(locked.code).toBe(BodyCode.locked);
  });

  test('a wrong login password gets no options, and wrong ones lock like wrong logins', async () => {
    const { token } = await t.register('plain', 'pk-wrong@example.com');
    const wrong = await t.call(
      'plain',
      '/api/v1/passkey/register-options',
      { password: 'not-it-1' },
      { token, lang: 'en' },
    );
    expect(wrong).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'password' } });
    expect(wrong.message).toBe('The login password is wrong');
    for (let i = 0; i < 4; i += 1) await registerOptions(t, token, { password: 'not-it-1' });
    expect((await registerOptions(t, token)).code).toBe(BodyCode.locked);
  });

  test('with an authenticator bound, adding a passkey also needs its code', async () => {
    const { token } = await t.register('plain', 'pk-2fa@example.com');
    const key = await t.call<{ secret: string }>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    const nextStep = () => {
      const ms = t.clock.now().getTime();
      t.clock.advance((TOTP_PERIOD_SECONDS * 1000 - (ms % (TOTP_PERIOD_SECONDS * 1000))) / 1000);
    };
    nextStep();
    expect(
      (
        await t.call(
          'plain',
          '/api/v1/user/bindGoogle2Fa',
          { code: await totpCode(key.data.secret, t.clock.now()) },
          { token },
        )
      ).code,
    ).toBe(BodyCode.ok);
    nextStep();
    expect(await registerOptions(t, token)).toMatchObject({
      code: BodyCode.invalidInput,
      data: { field: 'googleCode' },
    });
    const wrongCode = await registerOptions(t, token, { googleCode: '000000' });
    expect(wrongCode.code).not.toBe(BodyCode.ok);
    const withCode = await registerOptions(t, token, {
      googleCode: await totpCode(key.data.secret, t.clock.now()),
    });
    expect(withCode.code).toBe(BodyCode.ok);
  });

  test('a sign-in challenge is used once: a replayed response is refused', async () => {
    const { token } = await t.register('plain', 'pk-replay@example.com');
    const { passkey } = await addPasskey(t, token);
    const login = await loginOptions(t);
    const response = passkey.assert(login.options);
    expect((await passkeyLogin(t, login.challengeId, response)).code).toBe(BodyCode.ok);
    const replayed = await passkeyLogin(t, login.challengeId, response);
    expect(replayed).toMatchObject({ code: BodyCode.notFound, data: { field: 'challengeId' } });
    // A fresh answer to the used challenge is refused too.
    const again = await passkeyLogin(t, login.challengeId, passkey.assert(login.options));
    expect(again.code).toBe(BodyCode.notFound);
  });

  test('a registration challenge is used once and only by the user who asked for it', async () => {
    const a = await t.register('plain', 'pk-reg-a@example.com');
    const b = await t.register('plain', 'pk-reg-b@example.com');
    const options = await registerOptions(t, a.token);
    const passkey = new SoftPasskey(RELYING);
    const response = passkey.register(options.data.options);
    const byOther = await t.call(
      'plain',
      '/api/v1/passkey/register',
      { challengeId: options.data.challengeId, name: 'Stolen', response },
      { token: b.token },
    );
    expect(byOther).toMatchObject({ code: BodyCode.notFound, data: { field: 'challengeId' } });
    // Taken by the refused try: the owner must ask again.
    const byOwner = await t.call(
      'plain',
      '/api/v1/passkey/register',
      { challengeId: options.data.challengeId, name: 'Mine', response },
      { token: a.token },
    );
    expect(byOwner.code).toBe(BodyCode.notFound);
    expect(await listOf(t, a.token)).toEqual([]);
    expect(await listOf(t, b.token)).toEqual([]);
  });

  test('a challenge older than 5 minutes is refused', async () => {
    const { token } = await t.register('plain', 'pk-late@example.com');
    const { passkey } = await addPasskey(t, token);
    const login = await loginOptions(t);
    t.clock.advance(301);
    const late = await passkeyLogin(t, login.challengeId, passkey.assert(login.options));
    expect(late).toMatchObject({ code: BodyCode.notFound, data: { field: 'challengeId' } });
  });

  test('a signature counter that goes backwards or stays is refused; one that grows signs in', async () => {
    const { token } = await t.register('plain', 'pk-counter@example.com');
    const { passkey } = await addPasskey(t, token);
    let login = await loginOptions(t);
    expect(
      (await passkeyLogin(t, login.challengeId, passkey.assert(login.options, { counter: 5 }))).code,
    ).toBe(BodyCode.ok);
    login = await loginOptions(t);
    const backwards = await passkeyLogin(
      t,
      login.challengeId,
      passkey.assert(login.options, { counter: 3 }),
      'en',
    );
    expect(backwards).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'response' } });
    expect(backwards.message).toMatch(/counter went backwards/);
    login = await loginOptions(t);
    expect(
      (await passkeyLogin(t, login.challengeId, passkey.assert(login.options, { counter: 5 }))).code,
    ).toBe(BodyCode.invalidInput);
    login = await loginOptions(t);
    expect(
      (await passkeyLogin(t, login.challengeId, passkey.assert(login.options, { counter: 6 }))).code,
    ).toBe(BodyCode.ok);
  });

  test('a response for another origin, or signed by another key, is refused', async () => {
    const { token } = await t.register('plain', 'pk-origin@example.com');
    const { passkey } = await addPasskey(t, token);
    let login = await loginOptions(t);
    const elsewhere = await passkeyLogin(
      t,
      login.challengeId,
      passkey.assert(login.options, { origin: 'https://evil.example.net' }),
    );
    expect(elsewhere).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'response' } });
    // Another authenticator claiming this credential id: its signature does not verify.
    login = await loginOptions(t);
    const impostor = new SoftPasskey(RELYING);
    const forged = { ...impostor.assert(login.options), id: passkey.id, rawId: passkey.id };
    expect((await passkeyLogin(t, login.challengeId, forged)).code).toBe(BodyCode.invalidInput);
    // A registration answered for another origin is not stored.
    const options = await registerOptions(t, token);
    const wrongOrigin = await t.call(
      'plain',
      '/api/v1/passkey/register',
      {
        challengeId: options.data.challengeId,
        name: 'Elsewhere',
        response: new SoftPasskey(RELYING).register(options.data.options, {
          origin: 'http://localhost:8080',
        }),
      },
      { token },
    );
    expect(wrongOrigin).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'response' } });
    expect(await listOf(t, token)).toHaveLength(1);
  });

  test('a passkey is renamed and removed by its owner only; a removed one signs in no more', async () => {
    const owner = await t.register('plain', 'pk-remove@example.com');
    const other = await t.register('plain', 'pk-remove-other@example.com');
    const { passkey, item } = await addPasskey(t, owner.token);
    expect(
      (
        await t.call(
          'plain',
          '/api/v1/passkey/rename',
          { id: item.id, name: 'Theirs' },
          { token: other.token },
        )
      ).code,
    ).toBe(BodyCode.notFound);
    expect(
      (await t.call('plain', '/api/v1/passkey/remove', { id: item.id }, { token: other.token })).code,
    ).toBe(BodyCode.notFound);
    expect(
      (
        await t.call(
          'plain',
          '/api/v1/passkey/rename',
          { id: item.id, name: 'Old phone' },
          { token: owner.token },
        )
      ).code,
    ).toBe(BodyCode.ok);
    expect((await listOf(t, owner.token)).map((row) => row.name)).toEqual(['Old phone']);
    const removed = await t.call(
      'plain',
      '/api/v1/passkey/remove',
      { id: item.id },
      { token: owner.token, key: newKey() },
    );
    expect(removed.code).toBe(BodyCode.ok);
    expect(await listOf(t, owner.token)).toEqual([]);
    const login = await loginOptions(t);
    const refused = await passkeyLogin(t, login.challengeId, passkey.assert(login.options));
    expect(refused).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'response' } });
  });

  test("bad input is a 400 naming the field in the user's language; the calls need a session", async () => {
    const { token } = await t.register('plain', 'pk-input@example.com');
    const noName = await t.call(
      'plain',
      '/api/v1/passkey/register',
      { challengeId: 'abc', name: '', response: {} },
      { token, lang: 'zh-Hans' },
    );
    expect(noName.code).toBe(BodyCode.invalidInput);
    expect(noName.message).toMatch(/[\u4e00-\u9fff]/);
    const badResponse = await t.call('plain', '/api/v1/sso/passkey-login', {
      challengeId: 'abc',
      response: { id: 'x', rawId: 'x', type: 'password', response: {} },
    });
    expect(badResponse.code).toBe(BodyCode.invalidInput);
    const tooLong = await t.call(
      'plain',
      '/api/v1/passkey/rename',
      { id: '1', name: 'x'.repeat(41) },
      { token },
    );
    expect(tooLong).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'name' } });
    for (const path of ['/api/v1/passkey/list', '/api/v1/passkey/register-options'])
      expect((await t.call('plain', path, { password: PASSWORD })).code).toBe(BodyCode.notLoggedIn);
  });
});

describe('passkey challenges across two instances sharing Redis', () => {
  test.skipIf(!redisUp || !postgresUp)(
    'a challenge issued by one instance is answered on the other, once',
    async () => {
      const database = await createPostgresDatabase();
      const env = { DATABASE_URL: database.url, REDIS_URL, COFFER_PUBLIC_URL: PUBLIC_URL };
      const a = await startTestServer('postgres', env);
      const b = await startTestServer('postgres', env);
      try {
        const { token } = await a.register('plain', 'pk-two@example.com');
        const { passkey } = await addPasskey(a, token);
        const login = await loginOptions(a);
        const response = passkey.assert(login.options);
        expect((await passkeyLogin(b, login.challengeId, response)).code).toBe(BodyCode.ok);
        expect((await passkeyLogin(a, login.challengeId, response)).code).toBe(BodyCode.notFound);
      } finally {
        await a.close();
        await b.close();
        await database.drop();
      }
    },
  );
});
