/** Exactly-once commands (CONTRACT.md "Exactly once"), on each tier and through both transports. */
import { count, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { users, verificationCodes } from '../../server/db/schema.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, TRANSPORTS, useTestServer } from '../helpers/server.js';

const tiers = await availableTiers('idempotency');

describe.each(tiers)('exactly-once commands on %s', (tier) => {
  const t = useTestServer(tier);

  const rawPost = (uri: string, params: Record<string, unknown>, key: string, lang = 'EN') =>
    t.server.app.inject({
      method: 'POST',
      url: uri,
      headers: { 'content-type': 'application/json', 'idempotency-key': key, lang },
      payload: JSON.stringify(params),
    });

  const usersWith = async (email: string) =>
    (await t.server.database.db.select({ n: count() }).from(users).where(eq(users.email, email)))[0]?.n;

  describe.each(TRANSPORTS)('through the %s transport', (transport) => {
    const email = (name: string) => `${name}.${transport}@example.com`;
    /** Sends `address` its register code and returns the register call's parameters under the root invite. */
    const registration = async (address: string) => {
      await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address });
      return {
        email: address,
        code: t.mailer.lastCode(address),
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      };
    };

    test('a repeated command returns the stored answer byte for byte and has no second effect', async () => {
      const address = email('repeat');
      const params = await registration(address);
      const key = newKey();
      const first = await rawPost('/api/v1/sso/register', params, key);
      const second = await rawPost('/api/v1/sso/register', params, key, 'KO');
      expect(JSON.parse(first.body)).toMatchObject({ code: 200 });
      expect(second.body).toBe(first.body);
      const viaTransport = await t.call(transport, '/api/v1/sso/register', params, { key });
      expect(JSON.stringify(viaTransport)).toBe(first.body);
      expect(await usersWith(address)).toBe(1);
    });

    test('the same key with another body answers 409', async () => {
      const key = newKey();
      expect(
        (await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: email('k1') }, { key })).code,
      ).toBe(200);
      const other = await t.call(
        transport,
        '/api/v1/sso/sendRegisterCode',
        { email: email('k2') },
        { key, lang: 'EN' },
      );
      expect(other).toMatchObject({
        code: BodyCode.conflict,
        message: 'This request was already sent with different content',
      });
    });

    test('the key is checked before the resend countdown: a retry of a sent code replays, it is not refused', async () => {
      const address = email('retry-countdown');
      const key = newKey();
      const first = await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address }, { key });
      const retry = await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address }, { key });
      expect(retry).toEqual(first);
      expect(t.mailer.sent.filter((mail) => mail.to === address)).toHaveLength(1);
      expect(
        (await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address }, { key: newKey() })).code,
      ).toBe(429);
    });

    test('a refused command is stored too: its repeat gets the same refusal without counting another wrong try', async () => {
      const address = email('refusal');
      await t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address });
      const right = t.mailer.lastCode(address);
      const params = {
        email: address,
        code: right === '000000' ? '111111' : '000000',
        inviteCode: t.rootInvite,
        password: 'secret123',
        confirmPassword: 'secret123',
      };
      const key = newKey();
      const first = await t.call(transport, '/api/v1/sso/register', params, { key });
      for (let i = 0; i < 6; i += 1)
        expect(await t.call(transport, '/api/v1/sso/register', params, { key })).toEqual(first);
      const [row] = await t.server.database.db
        .select()
        .from(verificationCodes)
        .where(eq(verificationCodes.email, address));
      expect(row?.wrongTries).toBe(1);
      expect((await t.call(transport, '/api/v1/sso/register', { ...params, code: right })).code).toBe(200);
    });

    test('concurrent repeats of one key make one effect', async () => {
      const address = email('concurrent');
      const key = newKey();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.call(transport, '/api/v1/sso/sendRegisterCode', { email: address }, { key }),
        ),
      );
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers[0]?.code).toBe(200);
      expect(t.mailer.sent.filter((mail) => mail.to === address)).toHaveLength(1);
    });

    test('one account per address even when registrations with different keys race', async () => {
      const address = email('race');
      const params = await registration(address);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => t.call(transport, '/api/v1/sso/register', params, { key: newKey() })),
      );
      expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
      for (const answer of answers) expect([200, 409, 472]).toContain(answer.code);
      expect(await usersWith(address)).toBe(1);
    });
  });

  test('a malformed Idempotency-Key is refused with 400 naming the header', async () => {
    const response = await rawPost(
      '/api/v1/sso/sendRegisterCode',
      { email: 'malformed-key@example.com' },
      'short',
    );
    expect(JSON.parse(response.body)).toMatchObject({ code: 400, data: { field: 'idempotencyKey' } });
  });
});
