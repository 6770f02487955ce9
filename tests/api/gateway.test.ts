/** The envelope gateway's refusals and its inner call (CONTRACT.md "Envelope"). */
import { describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { openAnswer, sealRequest, signOf, type EnvelopeFields } from '../../server/http/envelope-codec.js';
import { answerCodeOf } from '../../server/http/gateway.js';
import { availableTiers } from '../helpers/database.js';
import { useTestServer } from '../helpers/server.js';

const tiers = await availableTiers('gateway');

describe.each(tiers)('the envelope gateway on %s', (tier) => {
  const t = useTestServer(tier);

  const post = async (fields: Partial<EnvelopeFields> | string, ip = '203.0.113.50') => {
    const response = await t.server.app.inject({
      method: 'POST',
      url: '/api/gw',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'EN' },
      payload:
        typeof fields === 'string'
          ? fields
          : new URLSearchParams(fields as Record<string, string>).toString(),
      remoteAddress: ip,
    });
    expect(response.statusCode).toBe(200);
    return JSON.parse(response.body) as {
      code: number;
      message?: string;
      handshake?: string;
      data: string | null;
    };
  };
  const inner = { method: 'GET', uri: '/api/v1/common/version', headers: { lang: 'EN' }, params: {} };

  test('a sealed call is answered sealed under a new handshake with the inner answer', async () => {
    const fields = sealRequest(inner, t.clock.now());
    const answer = await post(fields);
    expect(answer.code).toBe(200);
    expect(answer.handshake).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(answer.handshake).not.toBe(fields.handshake);
    const opened = JSON.parse(
      openAnswer({ code: answer.code, handshake: answer.handshake ?? '', data: answer.data ?? '' }),
    );
    const plain = await t.server.app.inject({
      method: 'GET',
      url: '/api/v1/common/version',
      headers: { lang: 'EN' },
    });
    expect(opened).toEqual(JSON.parse(plain.body));
  });

  test('a wrong sign is refused unsealed with 460', async () => {
    const fields = sealRequest(inner, t.clock.now());
    const answer = await post({
      ...fields,
      sign: signOf(fields.data, String(Number(fields.timestamp) + 1), fields.handshake),
    });
    expect(answer).toEqual({
      code: BodyCode.envelopeRefused,
      message: 'The request signature is wrong',
      data: null,
    });
  });

  test('a timestamp more than 300 s away is refused with 460, either way', async () => {
    const old = sealRequest(inner, new Date(t.clock.now().getTime() - 301_000));
    expect(await post(old)).toMatchObject({
      code: 460,
      message: "The request has expired. Check your device's clock",
    });
    const future = sealRequest(inner, new Date(t.clock.now().getTime() + 301_000));
    expect((await post(future)).code).toBe(460);
    const edge = sealRequest(inner, new Date(t.clock.now().getTime() - 299_000));
    expect((await post(edge)).code).toBe(200);
  });

  test('a replayed sign is refused with 460', async () => {
    const fields = sealRequest(inner, t.clock.now());
    expect((await post(fields)).code).toBe(200);
    expect(await post(fields)).toMatchObject({ code: 460, message: 'This request was already received' });
  });

  test('undecryptable data, a wrong handshake, missing fields or junk are refused with 460', async () => {
    const fields = sealRequest(inner, t.clock.now());
    const otherHandshake = 'A'.repeat(16);
    expect(
      (
        await post({
          ...fields,
          handshake: otherHandshake,
          sign: signOf(fields.data, fields.timestamp, otherHandshake),
        })
      ).code,
    ).toBe(460);
    const junk = Buffer.alloc(48, 7).toString('base64');
    expect(
      (await post({ ...fields, data: junk, sign: signOf(junk, fields.timestamp, fields.handshake) })).code,
    ).toBe(460);
    expect((await post({ handshake: fields.handshake })).code).toBe(460);
    expect((await post('%%%not=form')).code).toBe(460);
  });

  test('the inner call may only reach the API, not the gateway itself', async () => {
    for (const uri of ['/api/gw', '/api/health', '/etc/passwd', '/api/v1/../gw']) {
      expect((await post(sealRequest({ ...inner, uri }, t.clock.now()))).code).toBe(460);
    }
  });

  test('the inner call keeps the outer client address: lockouts through the envelope count per client', async () => {
    const { token } = await t.register('plain', 'gateway-ip@example.com');
    expect(token).toBeTruthy();
    const login = (email: string, password: string, ip: string) =>
      post(
        sealRequest(
          { method: 'POST', uri: '/api/v1/sso/emailLogin', headers: {}, params: { email, password } },
          t.clock.now(),
        ),
        ip,
      );
    for (let i = 0; i < 30; i += 1) await login(`spray${i}@example.com`, 'wrongpass', '198.18.0.1');
    expect((await login('gateway-ip@example.com', 'secret123', '198.18.0.1')).code).toBe(BodyCode.locked);
    expect((await login('gateway-ip@example.com', 'secret123', '198.18.0.2')).code).toBe(200);
    t.clock.advance(16 * 60);
  });
});

describe('the code of an inner answer', () => {
  test("read from the prefix of Coffer's own answers, whatever follows", () => {
    expect(answerCodeOf('{"code":200,"message":"OK","data":{"changes":{}')).toBe(200);
    expect(answerCodeOf('{"code":4900,"message":"Bind an authenticator first","data":null}')).toBe(4900);
  });

  test('parsed from any other JSON; null without a numeric code; a throw for what is not JSON', () => {
    expect(answerCodeOf('{ "message": "x", "code": 404 }')).toBe(404);
    expect(answerCodeOf('{"code":"200"}')).toBeNull();
    expect(answerCodeOf('[]')).toBeNull();
    expect(() => answerCodeOf('<html>')).toThrow(SyntaxError);
  });
});
