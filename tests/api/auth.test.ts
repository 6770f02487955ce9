/** The spec's auth rules (sections 5, 7, 9 and CONTRACT.md), on each database tier and through both transports. */
import { describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { listAncestors } from '../../server/repositories/user.repository.js';
import { availableTiers } from '../helpers/database.js';
import { TRANSPORTS, useTestServer } from '../helpers/server.js';

const tiers = await availableTiers('auth');

/** The 400 answer that names `field` as invalid, with its English `message`. */
const fieldRefusal = (field: string, message: string) => ({ code: 400, message, data: { field } });

describe.each(tiers)('auth on %s', (tier) => {
  const t = useTestServer(tier);

  describe.each(TRANSPORTS)('through the %s transport', (transport) => {
    const email = (name: string) => `${name}.${transport}@example.com`;
    const EN = { lang: 'EN' };
    /** A call through this transport in English, without a token. */
    const callEn = <T = unknown>(uri: string, params: Record<string, unknown>) =>
      t.call<T>(transport, uri, params, EN);

    test('a new user registers with the mailed code and an invite, logs in, and user/info returns the full profile', async () => {
      const address = email('alice');
      const sent = await callEn('/api/v1/sso/sendRegisterCode', { email: address });
      expect(sent).toMatchObject({ code: 200, message: 'Verification code sent', data: { resendAfter: 60 } });
      const registered = await t.call<{ token: string }>(transport, '/api/v1/sso/register', {
        email: address,
        code: t.mailer.lastCode(address),
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      });
      expect(registered.code).toBe(200);
      const login = await t.call<{ token: string }>(transport, '/api/v1/sso/emailLogin', {
        email: address,
        password: 'secret123',
      });
      expect(login.code).toBe(200);
      expect(login.data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const info = await t.call(
        transport,
        '/api/v1/user/info',
        {},
        { token: login.data.token, method: 'GET' },
      );
      expect(info.code).toBe(200);
      expect(info.data).toMatchObject({
        email: address,
        nickname: `alice.${transport}`,
        kycStatus: 'not_verified',
        tradePasswordSet: false,
        authenticatorBound: false,
        referrerInviteCode: null,
        accounts: [{ kind: 'main' }],
      });
      expect(info.data['inviteCode']).toMatch(/^[A-Z2-9]{8}$/);
      expect(info.data['defaultAccountId']).toBe((info.data['accounts'] as Array<{ id: string }>)[0]?.id);
    });

    test('a password needs at least 6 characters', async () => {
      const answer = await callEn('/api/v1/sso/register', {
        email: email('short'),
        code: '123456',
        inviteCode: t.rootInvite,
        password: '12345',
        confirmPassword: '12345',
      });
      expect(answer).toMatchObject({
        code: BodyCode.invalidInput,
        message: 'The password needs at least 6 characters',
        data: { field: 'password' },
      });
    });

    test('the confirm password must equal the password: "the two passwords do not match"', async () => {
      const answer = await callEn('/api/v1/sso/register', {
        email: email('mismatch'),
        code: '123456',
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret124',
      });
      expect(answer).toMatchObject(fieldRefusal('confirmPassword', 'The two passwords do not match'));
    });

    test('an e-mail must match the e-mail pattern', async () => {
      const answer = await callEn('/api/v1/sso/sendRegisterCode', { email: 'not-an-address' });
      expect(answer).toMatchObject(fieldRefusal('email', 'The e-mail address is invalid'));
    });

    test('e-mail addresses compare case-insensitively: one account per address', async () => {
      await t.register(transport, email('Mixed.Case').toUpperCase());
      const login = await t.call(transport, '/api/v1/sso/emailLogin', {
        email: email('mixed.case'),
        password: 'secret123',
      });
      expect(login.code).toBe(200);
      const again = await callEn('/api/v1/sso/sendRegisterCode', { email: email('MIXED.case') });
      expect(again).toMatchObject({
        code: BodyCode.conflict,
        message: 'This e-mail address is already registered',
      });
    });

    test('a verification code has 6 digits', async () => {
      const answer = await callEn('/api/v1/sso/checkForgetCode', { email: email('x'), code: '12345' });
      expect(answer).toMatchObject(fieldRefusal('code', 'The verification code has 6 digits'));
    });

    test('the server enforces the 60 s resend countdown per address and purpose', async () => {
      const address = email('countdown');
      expect((await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address })).code).toBe(200);
      t.clock.advance(20);
      const early = await callEn('/api/v1/sso/sendRegisterCode', { email: address });
      expect(early).toMatchObject({ code: BodyCode.tooManyRequests, data: { retryAfter: 40 } });
      expect(early.message).toBe('Please wait 40 s before asking for another code');
      t.clock.advance(40);
      expect((await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address })).code).toBe(200);
    });

    test('a code expires after 10 minutes', async () => {
      const address = email('expiry');
      await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address });
      t.clock.advance(601);
      const answer = await callEn('/api/v1/sso/register', {
        email: address,
        code: t.mailer.lastCode(address),
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      });
      expect(answer).toMatchObject({
        code: BodyCode.oneTimeCodeRejected,
        message: 'The verification code has expired. Ask for a new one',
      });
    });

    test('a code is dead after 5 wrong tries, even when the right one follows', async () => {
      const address = email('wrongtries');
      await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address });
      const right = t.mailer.lastCode(address);
      const wrong = right === '000000' ? '111111' : '000000';
      const params = {
        email: address,
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      };
      for (let i = 0; i < 4; i += 1) {
        expect((await callEn('/api/v1/sso/register', { ...params, code: wrong })).message).toBe(
          'The verification code is wrong',
        );
      }
      const fifth = await callEn('/api/v1/sso/register', { ...params, code: wrong });
      expect(fifth).toMatchObject({
        code: 472,
        message: 'Too many wrong tries. Ask for a new verification code',
      });
      const after = await callEn('/api/v1/sso/register', { ...params, code: right });
      expect(after.code).toBe(472);
    });

    test('an invite code must exist, and its owner becomes the referrer with the whole chain stored', async () => {
      const unknown = await callEn('/api/v1/sso/checkRegisterInfo', {
        email: email('orphan'),
        inviteCode: 'NOPE0000',
      });
      expect(unknown).toMatchObject(fieldRefusal('inviteCode', 'This invite code does not exist'));
      const a = await t.register(transport, email('chain-a'));
      const aInfo = await t.call(transport, '/api/v1/user/info', {}, { token: a.token });
      const b = await t.register(
        transport,
        email('chain-b'),
        'secret123',
        String(aInfo.data['inviteCode']).toLowerCase(),
      );
      const bInfo = await t.call(transport, '/api/v1/user/info', {}, { token: b.token });
      expect(bInfo.data['referrerInviteCode']).toBe(aInfo.data['inviteCode']);
      const c = await t.register(transport, email('chain-c'), 'secret123', String(bInfo.data['inviteCode']));
      const chain = await listAncestors(t.server.database.db, Number(c.userId));
      expect(chain).toEqual([
        { ancestorId: Number(b.userId), depth: 1 },
        { ancestorId: Number(a.userId), depth: 2 },
      ]);
    });

    test('checkRegisterInfo checks the address and the invite without registering', async () => {
      const address = email('check');
      const ok = await callEn('/api/v1/sso/checkRegisterInfo', {
        email: address,
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      });
      expect(ok).toMatchObject({ code: 200, data: { valid: true } });
      const login = await t.call(transport, '/api/v1/sso/emailLogin', {
        email: address,
        password: 'secret123',
      });
      expect(login.code).toBe(400);
      await t.register(transport, address);
      const taken = await callEn('/api/v1/sso/checkRegisterInfo', {
        email: address,
        inviteCode: t.rootInvite,
      });
      expect(taken.code).toBe(BodyCode.conflict);
    });

    test('checkForgetCode verifies a code without using it; forgot uses it once and revokes every session', async () => {
      const address = email('forgot');
      const { token } = await t.register(transport, address);
      const other = await t.call<{ token: string }>(transport, '/api/v1/sso/emailLogin', {
        email: address,
        password: 'secret123',
      });
      await t.call(transport, '/api/v1/sso/sendForgetCode', { email: address });
      const code = t.mailer.lastCode(address);
      expect((await t.call(transport, '/api/v1/sso/checkForgetCode', { email: address, code })).code).toBe(
        200,
      );
      expect((await t.call(transport, '/api/v1/sso/checkForgetCode', { email: address, code })).code).toBe(
        200,
      );
      const reset = await callEn('/api/v1/sso/forgot', {
        email: address,
        code,
        password: 'newsecret',
        confirmPassword: 'newsecret',
      });
      expect(reset).toMatchObject({ code: 200, message: 'Password reset successful' });
      for (const old of [token, other.data.token]) {
        expect((await t.call(transport, '/api/v1/user/info', {}, { token: old })).code).toBe(
          BodyCode.notLoggedIn,
        );
      }
      const reused = await callEn('/api/v1/sso/forgot', {
        email: address,
        code,
        password: 'another1',
        confirmPassword: 'another1',
      });
      expect(reused).toMatchObject({
        code: 472,
        message: 'The verification code has already been used. Ask for a new one',
      });
      expect(
        (await t.call(transport, '/api/v1/sso/emailLogin', { email: address, password: 'newsecret' })).code,
      ).toBe(200);
    });

    test('a password reset code for an unknown address is refused with 404', async () => {
      const answer = await callEn('/api/v1/sso/sendForgetCode', { email: email('nobody') });
      expect(answer).toMatchObject({ code: 404, message: 'No account uses this e-mail address' });
    });

    test('repeated wrong passwords lock the account for a while (423 with retryAfter)', async () => {
      const address = email('locked');
      await t.register(transport, address);
      const ip = `198.51.100.${transport === 'plain' ? 1 : 2}`;
      for (let i = 0; i < 5; i += 1) {
        expect(
          (
            await t.call(
              transport,
              '/api/v1/sso/emailLogin',
              { email: address, password: 'wrong-one' },
              { ip },
            )
          ).code,
        ).toBe(400);
      }
      const locked = await t.call(
        transport,
        '/api/v1/sso/emailLogin',
        { email: address, password: 'secret123' },
        { ip, lang: 'EN' },
      );
      expect(locked.code).toBe(BodyCode.locked);
      expect(locked.data['retryAfter']).toBeGreaterThan(0);
      expect(locked.message).toMatch(/Too many wrong attempts/);
      t.clock.advance(15 * 60 + 1);
      expect(
        (await t.call(transport, '/api/v1/sso/emailLogin', { email: address, password: 'secret123' }, { ip }))
          .code,
      ).toBe(200);
    });

    test('repeated wrong passwords from one client address lock that address, not others', async () => {
      const ip = `192.0.2.${transport === 'plain' ? 10 : 20}`;
      for (let i = 0; i < 30; i += 1) {
        await t.call(
          transport,
          '/api/v1/sso/emailLogin',
          { email: email(`spray${i}`), password: 'guess1234' },
          { ip },
        );
      }
      const address = email('bystander');
      await t.register(transport, address);
      expect(
        (await t.call(transport, '/api/v1/sso/emailLogin', { email: address, password: 'secret123' }, { ip }))
          .code,
      ).toBe(BodyCode.locked);
      expect(
        (
          await t.call(
            transport,
            '/api/v1/sso/emailLogin',
            { email: address, password: 'secret123' },
            { ip: '192.0.2.99' },
          )
        ).code,
      ).toBe(200);
      t.clock.advance(15 * 60 + 1);
    });

    test('logout revokes the token on the server', async () => {
      const { token } = await t.register(transport, email('logout'));
      expect((await t.call(transport, '/api/v1/sso/logout', {}, { token })).code).toBe(200);
      expect((await t.call(transport, '/api/v1/user/info', {}, { token })).code).toBe(BodyCode.notLoggedIn);
    });

    test('user/info without a token or with a forged one answers 401', async () => {
      expect((await t.call(transport, '/api/v1/user/info')).code).toBe(401);
      expect((await t.call(transport, '/api/v1/user/info', {}, { token: 'x'.repeat(43) })).code).toBe(401);
    });

    test.each([
      ['EN', 'The e-mail address is invalid'],
      ['KO', '이메일 주소 형식이 올바르지 않습니다'],
      ['CN', undefined],
      [undefined, undefined],
      ['TW', undefined],
      ['JP', undefined],
      ['DE', undefined],
      ['FH', undefined],
    ])('messages follow the lang header (%s)', async (lang, expected) => {
      const answer = await t.call(
        transport,
        '/api/v1/sso/sendRegisterCode',
        { email: 'bad' },
        lang ? { lang } : {},
      );
      const chinese = (
        await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: 'bad' }, { lang: 'CN' })
      ).message;
      if (expected) expect(answer.message).toBe(expected);
      if (lang === 'CN' || lang === undefined) expect(answer.message).toBe(chinese);
      else expect(answer.message).not.toBe(chinese);
      if (lang === 'DE') expect(answer.message).toMatch(/[\u0e00-\u0e7f]/); // Thai script
      if (lang === 'FH')
        expect(answer.message).toMatch(/[ạảãáàâấầẩẫậăắằẳẵặđêếềểễệôốồổỗộơớờởỡợưứừửữựíìỉĩịýỳỷỹỵ]/i);
    });
  });
});
