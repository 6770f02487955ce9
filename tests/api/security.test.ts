/**
 * The authenticator and the passwords through the API (spec sections 4, 5 and 8), on
 * PGlite and PostgreSQL: RFC 6238's vectors, binding with a code computed from the shown secret,
 * a code accepted once (472 on a replay), the trade password (300 before it is set, 423 after wrong
 * tries), the login password change revoking the other sessions, the 24-hour withdrawal lock after
 * each change (never after a first binding) and hostile inputs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { BusinessError } from '../../server/core/errors.js';
import { users } from '../../server/db/schema.js';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/security/totp.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('security-api');

describe('RFC 6238 Appendix B (SHA-1, the 20-byte ASCII secret "12345678901234567890")', () => {
  const secret = new TextEncoder().encode('12345678901234567890');
  test.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at T=%i the 8-digit code is %s, and the 6-digit code its last six digits', async (seconds, code) => {
    expect(await totpCode(secret, new Date(seconds * 1000), 8)).toBe(code);
    expect(await totpCode(secret, new Date(seconds * 1000))).toBe(code.slice(2));
  });
});

interface Key {
  secret: string;
  otpauthUrl: string;
}
interface Change {
  done: true;
  withdrawalsLockedUntil: string | null;
}

describe.each(tiers)('authenticator and passwords on %s', (tier) => {
  let t: TestServer;
  const HOUR = 3600;

  beforeAll(async () => {
    t = await startTestServer(tier);
  });
  afterAll(async () => {
    await t.close();
  });

  const codeAt = (secret: string, offsetSeconds = 0) =>
    totpCode(secret, new Date(t.clock.now().getTime() + offsetSeconds * 1000));
  /** Moves the clock to the start of the next 30-second step, so codes of "this step" are fresh. */
  const nextStep = () => {
    const ms = t.clock.now().getTime();
    t.clock.advance((TOTP_PERIOD_SECONDS * 1000 - (ms % (TOTP_PERIOD_SECONDS * 1000))) / 1000);
  };
  const security = () => t.server.services.security;
  const lockedUntil = (userId: string) =>
    security().withdrawalsLockedUntil(t.server.database.db, Number(userId));
  const info = async (token: string) =>
    (
      await t.call<{ tradePasswordSet: boolean; authenticatorBound: boolean }>(
        'plain',
        '/api/v1/user/info',
        {},
        { token },
      )
    ).data;

  /** Registers a user and binds an authenticator; returns its token, id and secret. */
  const withAuthenticator = async (email: string) => {
    const { token, userId } = await t.register('plain', email);
    const key = await t.call<Key>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    nextStep();
    const bound = await t.call(
      'plain',
      '/api/v1/user/bindGoogle2Fa',
      { code: await codeAt(key.data.secret) },
      { token },
    );
    expect(bound.code).toBe(BodyCode.ok);
    return { token, userId, secret: key.data.secret };
  };

  test('getGoogle2Fa shows a new Base32 secret and its otpauth URL (issuer Coffer, label Coffer:<email>) each time', async () => {
    const { token } = await t.register('plain', 'key@example.com');
    const first = await t.call<Key>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    expect(first.code).toBe(BodyCode.ok);
    expect(first.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(first.data.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Coffer:key@example.com');
    expect(url.searchParams.get('secret')).toBe(first.data.secret);
    expect(url.searchParams.get('issuer')).toBe('Coffer');
    const second = await t.call<Key>('plain', '/api/v1/user/getGoogle2Fa', {}, { token, method: 'GET' });
    expect(second.data.secret).not.toBe(first.data.secret);
    // Only the newest key binds: a code of the first one is wrong now.
    nextStep();
    const stale = await t.call(
      'plain',
      '/api/v1/user/bindGoogle2Fa',
      { code: await codeAt(first.data.secret) },
      { token },
    );
    expect(stale.code).toBe(BodyCode.oneTimeCodeRejected);
    expect(await info(token)).toMatchObject({ authenticatorBound: false });
    // Anonymous callers get nothing.
    expect((await t.call('plain', '/api/v1/user/getGoogle2Fa')).code).toBe(BodyCode.notLoggedIn);
  });

  test('the secret is stored sealed (AES-256-GCM), never in plain text', async () => {
    const { secret, userId } = await withAuthenticator('sealed@example.com');
    const rows = await t.server.database.db.select().from(users);
    const row = rows.find((item) => String(item.id) === userId);
    expect(row?.authenticatorSecret).toMatch(/^v1\./);
    expect(row?.authenticatorSecret).not.toContain(secret);
  });

  test('binding takes a code computed from the shown secret; the same code again is 472; one step of drift is accepted', async () => {
    const { token, userId, secret } = await withAuthenticator('bind@example.com');
    expect(await info(token)).toMatchObject({ authenticatorBound: true });
    // A first binding does not lock withdrawals.
    expect(await lockedUntil(userId)).toBeNull();
    // A second binding is refused.
    const again = await t.call(
      'plain',
      '/api/v1/user/bindGoogle2Fa',
      { code: await codeAt(secret) },
      { token },
    );
    expect(again.code).toBe(BodyCode.conflict);

    const db = t.server.database.db;
    const verify = (code: string) =>
      db.transaction((tx) => security().verifyAuthenticatorCode(tx, Number(userId), code));
    // The binding code's step is used: the same code is a replay.
    await expect(verify(await codeAt(secret))).rejects.toMatchObject({
      code: BodyCode.oneTimeCodeRejected,
      messageKey: 'server.authenticator_code_used',
    });
    // The next step's code works once, then is a replay; an older step's code is a replay too.
    t.clock.advance(TOTP_PERIOD_SECONDS);
    const fresh = await codeAt(secret);
    await verify(fresh);
    await expect(verify(fresh)).rejects.toMatchObject({ code: BodyCode.oneTimeCodeRejected });
    await expect(verify(await codeAt(secret, -TOTP_PERIOD_SECONDS))).rejects.toMatchObject({
      code: BodyCode.oneTimeCodeRejected,
    });
    // A code of the next step (the phone's clock 30 s ahead) is accepted; two steps ahead is not.
    await verify(await codeAt(secret, TOTP_PERIOD_SECONDS));
    await expect(verify(await codeAt(secret, 3 * TOTP_PERIOD_SECONDS))).rejects.toMatchObject({
      messageKey: 'server.authenticator_code_wrong',
    });
    // A code from the last step (the phone 30 s behind) is accepted when not yet used.
    t.clock.advance(3 * TOTP_PERIOD_SECONDS);
    await verify(await codeAt(secret, -TOTP_PERIOD_SECONDS));
  });

  test('two requests racing with one code: exactly one is accepted', async () => {
    const { userId, secret } = await withAuthenticator('race@example.com');
    t.clock.advance(TOTP_PERIOD_SECONDS);
    const code = await codeAt(secret);
    const db = t.server.database.db;
    const results = await Promise.allSettled(
      [1, 2, 3].map(() =>
        db.transaction((tx) => security().verifyAuthenticatorCode(tx, Number(userId), code)),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });

  test('verifyAuthenticatorCode: 4900 when no authenticator is bound; wrong codes lock (423)', async () => {
    const { userId } = await t.register('plain', 'nokey@example.com');
    const db = t.server.database.db;
    await expect(
      db.transaction((tx) => security().verifyAuthenticatorCode(tx, Number(userId), '123456')),
    ).rejects.toMatchObject({ code: BodyCode.authenticatorNotBound });

    const bound = await withAuthenticator('brute@example.com');
    const attempt = (code: string) =>
      db.transaction((tx) => security().verifyAuthenticatorCode(tx, Number(bound.userId), code));
    const right = await codeAt(bound.secret, TOTP_PERIOD_SECONDS);
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i += 1) await expect(attempt(wrong)).rejects.toMatchObject({ code: 472 });
    await expect(attempt(right)).rejects.toMatchObject({ code: BodyCode.locked });
    t.clock.advance(16 * 60);
  });

  test('modifyGoogle2Fa: old and new codes move the binding to the new key and lock withdrawals for exactly 24 hours', async () => {
    const { token, userId, secret } = await withAuthenticator('modify@example.com');
    // Not bound yet: 4900.
    const other = await t.register('plain', 'modify-none@example.com');
    const none = await t.call(
      'plain',
      '/api/v1/user/modifyGoogle2Fa',
      { oldCode: '123456', newCode: '123456', secret: 'AAAA' },
      { token: other.token },
    );
    expect(none.code).toBe(BodyCode.authenticatorNotBound);

    const next = (await t.call<Key>('plain', '/api/v1/user/getGoogle2Fa', {}, { token })).data;
    t.clock.advance(TOTP_PERIOD_SECONDS);
    // A secret other than the one shown is refused.
    const forged = await t.call(
      'plain',
      '/api/v1/user/modifyGoogle2Fa',
      {
        oldCode: await codeAt(secret),
        newCode: await codeAt(next.secret),
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      },
      { token },
    );
    expect(forged.code).toBe(BodyCode.conflict);
    // A wrong old code names oldCode.
    const wrongOld = await t.call(
      'plain',
      '/api/v1/user/modifyGoogle2Fa',
      { oldCode: await codeAt(next.secret), newCode: await codeAt(next.secret), secret: next.secret },
      { token },
    );
    expect(wrongOld).toMatchObject({ code: BodyCode.oneTimeCodeRejected, data: { field: 'oldCode' } });

    const key = newKey();
    const params = { oldCode: await codeAt(secret), newCode: await codeAt(next.secret), secret: next.secret };
    const changed = await t.call<Change>('plain', '/api/v1/user/modifyGoogle2Fa', params, { token, key });
    expect(changed.code).toBe(BodyCode.ok);
    const opens = new Date(t.clock.now().getTime() + 24 * HOUR * 1000);
    expect(changed.data.withdrawalsLockedUntil).toBe(opens.toISOString());
    expect(await lockedUntil(userId)).toEqual(opens);
    // A retry with the same key replays the answer instead of failing on the used codes.
    const replay = await t.call<Change>('plain', '/api/v1/user/modifyGoogle2Fa', params, { token, key });
    expect(replay).toEqual(changed);

    // The old key no longer works; the new one does.
    t.clock.advance(TOTP_PERIOD_SECONDS);
    const db = t.server.database.db;
    const verify = (code: string) =>
      db.transaction((tx) => security().verifyAuthenticatorCode(tx, Number(userId), code));
    await expect(verify(await codeAt(secret))).rejects.toMatchObject({ code: 472 });
    await verify(await codeAt(next.secret));
  });

  test('the trade password: 300 before it is set; bound once; wrong ones are 400 then 423; a change locks withdrawals for 24 hours', async () => {
    const { token, userId } = await t.register('plain', 'trade@example.com');
    const db = t.server.database.db;
    const verify = (password: string) =>
      db.transaction((tx) => security().verifyTradePassword(tx, Number(userId), password));
    await expect(verify('trade123')).rejects.toMatchObject({ code: BodyCode.tradePasswordNotSet });
    expect((await t.call('plain', '/api/v1/user/sendUpdateTradePasswordCode', {}, { token })).code).toBe(
      BodyCode.tradePasswordNotSet,
    );

    const mismatch = await t.call(
      'plain',
      '/api/v1/user/bindTradePassword',
      { tradePassword: 'trade123', confirmPassword: 'trade124' },
      { token, lang: 'EN' },
    );
    expect(mismatch).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'confirmPassword' } });
    expect(mismatch.message).toMatch(/do not match/);
    const short = await t.call(
      'plain',
      '/api/v1/user/bindTradePassword',
      { tradePassword: 'abc', confirmPassword: 'abc' },
      { token },
    );
    expect(short).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'tradePassword' } });

    const bound = await t.call<Change>(
      'plain',
      '/api/v1/user/bindTradePassword',
      { tradePassword: 'trade123', confirmPassword: 'trade123' },
      { token },
    );
    expect(bound).toMatchObject({ code: BodyCode.ok, data: { withdrawalsLockedUntil: null } });
    expect(await lockedUntil(userId)).toBeNull();
    expect(await info(token)).toMatchObject({ tradePasswordSet: true });
    const twice = await t.call(
      'plain',
      '/api/v1/user/bindTradePassword',
      { tradePassword: 'other123', confirmPassword: 'other123' },
      { token },
    );
    expect(twice.code).toBe(BodyCode.conflict);
    await verify('trade123');

    // Wrong trade passwords: 400 naming the field, then locked (423) like login passwords, even for the right one.
    for (let i = 0; i < 5; i += 1) {
      await expect(verify('wrong123')).rejects.toMatchObject({ code: 400, data: { field: 'tradePassword' } });
    }
    const locked = await verify('trade123').catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(BusinessError);
    expect(locked).toMatchObject({ code: BodyCode.locked });
    t.clock.advance(16 * 60);
    await verify('trade123');

    // The change: old password and an e-mailed code.
    expect((await t.call('plain', '/api/v1/user/sendUpdateTradePasswordCode', {}, { token })).code).toBe(
      BodyCode.ok,
    );
    const code = t.mailer.lastCode('trade@example.com');
    const wrongOld = await t.call(
      'plain',
      '/api/v1/user/updateTradePassword',
      { oldTradePassword: 'nope1234', tradePassword: 'trade456', confirmPassword: 'trade456', code },
      { token },
    );
    expect(wrongOld).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'oldTradePassword' } });
    const wrongCode = await t.call(
      'plain',
      '/api/v1/user/updateTradePassword',
      {
        oldTradePassword: 'trade123',
        tradePassword: 'trade456',
        confirmPassword: 'trade456',
        code: code === '000000' ? '000001' : '000000',
      },
      { token },
    );
    expect(wrongCode.code).toBe(BodyCode.oneTimeCodeRejected);
    const changed = await t.call<Change>(
      'plain',
      '/api/v1/user/updateTradePassword',
      { oldTradePassword: 'trade123', tradePassword: 'trade456', confirmPassword: 'trade456', code },
      { token },
    );
    expect(changed.code).toBe(BodyCode.ok);
    const opens = new Date(t.clock.now().getTime() + 24 * HOUR * 1000);
    expect(await lockedUntil(userId)).toEqual(opens);
    await expect(verify('trade123')).rejects.toMatchObject({ code: 400 });
    await verify('trade456');
    // The lock opens exactly 24 hours later.
    t.clock.advance(24 * HOUR - 1);
    expect((await lockedUntil(userId))!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    t.clock.advance(1);
    expect((await lockedUntil(userId))!.getTime()).toBe(t.clock.now().getTime());
  });

  test('the login password change: old password and e-mailed code; the other sessions end, this one stays; withdrawals wait 24 hours', async () => {
    const { token, userId } = await t.register('plain', 'login@example.com');
    const other = await t.call<{ token: string }>('plain', '/api/v1/sso/emailLogin', {
      email: 'login@example.com',
      password: 'secret123',
    });
    expect(other.code).toBe(BodyCode.ok);
    expect((await t.call('plain', '/api/v1/user/sendUpdateLoginPasswordCode', {}, { token })).code).toBe(
      BodyCode.ok,
    );
    // Within the 60 s countdown: 429.
    expect((await t.call('plain', '/api/v1/user/sendUpdateLoginPasswordCode', {}, { token })).code).toBe(
      BodyCode.tooManyRequests,
    );
    const code = t.mailer.lastCode('login@example.com');
    const mismatch = await t.call(
      'plain',
      '/api/v1/user/updateLoginPassword',
      { oldPassword: 'secret123', password: 'newpass1', confirmPassword: 'newpass2', code },
      { token },
    );
    expect(mismatch).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'confirmPassword' } });
    const wrongOld = await t.call(
      'plain',
      '/api/v1/user/updateLoginPassword',
      { oldPassword: 'secret999', password: 'newpass1', confirmPassword: 'newpass1', code },
      { token },
    );
    expect(wrongOld).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'oldPassword' } });
    const changed = await t.call<Change>(
      'plain',
      '/api/v1/user/updateLoginPassword',
      { oldPassword: 'secret123', password: 'newpass1', confirmPassword: 'newpass1', code },
      { token },
    );
    expect(changed.code).toBe(BodyCode.ok);
    expect(changed.data.withdrawalsLockedUntil).toBe(
      new Date(t.clock.now().getTime() + 24 * HOUR * 1000).toISOString(),
    );
    expect(await lockedUntil(userId)).not.toBeNull();
    expect((await t.call('plain', '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.ok);
    expect((await t.call('plain', '/api/v1/user/info', {}, { token: other.data.token })).code).toBe(
      BodyCode.notLoggedIn,
    );
    const oldLogin = await t.call('plain', '/api/v1/sso/emailLogin', {
      email: 'login@example.com',
      password: 'secret123',
    });
    expect(oldLogin.code).toBe(BodyCode.invalidInput);
    const newLogin = await t.call('plain', '/api/v1/sso/emailLogin', {
      email: 'login@example.com',
      password: 'newpass1',
    });
    expect(newLogin.code).toBe(BodyCode.ok);
    // The used code cannot change it again.
    const reused = await t.call(
      'plain',
      '/api/v1/user/updateLoginPassword',
      { oldPassword: 'newpass1', password: 'newpass2', confirmPassword: 'newpass2', code },
      { token },
    );
    expect(reused.code).toBe(BodyCode.oneTimeCodeRejected);
  });

  test('a password reset also locks withdrawals for 24 hours', async () => {
    const { userId } = await t.register('plain', 'reset@example.com');
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: 'reset@example.com' });
    const reset = await t.call('plain', '/api/v1/sso/forgot', {
      email: 'reset@example.com',
      code: t.mailer.lastCode('reset@example.com'),
      password: 'another1',
      confirmPassword: 'another1',
    });
    expect(reset.code).toBe(BodyCode.ok);
    expect(await lockedUntil(userId)).toEqual(new Date(t.clock.now().getTime() + 24 * HOUR * 1000));
  });

  test('hostile inputs are 400 naming the field, through both transports', async () => {
    const { token } = await t.register('plain', 'hostile@example.com');
    for (const transport of ['plain', 'envelope'] as const) {
      for (const [uri, params, field] of [
        ['/api/v1/user/bindGoogle2Fa', { code: '12345' }, 'code'],
        ['/api/v1/user/bindGoogle2Fa', { code: '12345a' }, 'code'],
        ['/api/v1/user/bindGoogle2Fa', { code: ['123456'] }, 'code'],
        ['/api/v1/user/bindGoogle2Fa', {}, 'code'],
        [
          '/api/v1/user/modifyGoogle2Fa',
          { oldCode: '123456', newCode: '123456', secret: 'A\u0000B' },
          'secret',
        ],
        [
          '/api/v1/user/modifyGoogle2Fa',
          { oldCode: '123456', newCode: '123456', secret: 'A'.repeat(5000) },
          'secret',
        ],
        [
          '/api/v1/user/bindTradePassword',
          { tradePassword: 'abc\u0000def', confirmPassword: 'abc\u0000def' },
          'tradePassword',
        ],
        [
          '/api/v1/user/bindTradePassword',
          { tradePassword: 'x'.repeat(1000), confirmPassword: 'x'.repeat(1000) },
          'tradePassword',
        ],
        [
          '/api/v1/user/bindTradePassword',
          { tradePassword: 123456, confirmPassword: 123456 },
          'tradePassword',
        ],
        [
          '/api/v1/user/updateLoginPassword',
          { oldPassword: 'secret123', password: 'newpass1', confirmPassword: 'newpass1' },
          'code',
        ],
      ] as const) {
        const answer = await t.call(transport, uri, params, { token });
        expect(answer.code, `${uri} ${JSON.stringify(params).slice(0, 60)}`).toBe(BodyCode.invalidInput);
        expect(answer.data).toMatchObject({ field });
      }
    }
    // Messages come in the caller's language.
    const zh = await t.call(
      'plain',
      '/api/v1/user/bindTradePassword',
      { tradePassword: 'trade123', confirmPassword: 'trade124' },
      { token, lang: 'CN' },
    );
    expect(zh.message).toMatch(/[\u4e00-\u9fff]/);
  });
});
