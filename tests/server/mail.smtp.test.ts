/**
 * Verification mail over real SMTP (CONTRACT.md "Verification codes and limits"): Coffer started
 * with SMTP_URL and no injected mailer uses nodemailer's SMTP transport; a local smtp-server
 * receives the mail and mailparser reads it. Everything goes over real HTTP on loopback.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { ParsedMail } from 'mailparser';
import { eq } from 'drizzle-orm';
import { startSmtp, type LocalSmtp } from '../helpers/smtp.js';
import { answerSchema, call, type Answer } from '../helpers/http.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { verificationCodes } from '../../server/db/schema.js';
import { openAnswer, sealRequest } from '../../server/http/envelope-codec.js';
import { startHttpCoffer, type HttpCoffer } from '../helpers/http-coffer.js';

const ROOT_INVITE = 'ROOTSMTP1';

const sealedSchema = z.object({ code: z.number(), handshake: z.string(), data: z.string() });

const mailTextSchema = z.object({
  mail: z.object({
    register_subject: z.string(),
    register_body: z.string(),
    forget_subject: z.string(),
    forget_body: z.string(),
  }),
});
const catalogue = (locale: string) =>
  mailTextSchema.parse(
    JSON.parse(fs.readFileSync(new URL(`../../locales/${locale}.json`, import.meta.url), 'utf8')),
  ).mail;
const en = catalogue('en');
const ko = catalogue('ko');
/** The fixed part of a body template before the code, e.g. "Your Coffer registration code is ". */
const bodyLead = (template: string) => template.split('{{code}}')[0] ?? template;

// ---------------------------------------------------------------------------------------------
// A local SMTP server that keeps every message it receives: tests/helpers/smtp.ts.

/** The newest message to `to`, waiting a little for it (it normally arrives before the HTTP answer). */
async function mailTo(smtp: LocalSmtp, to: string, after = 0): Promise<ParsedMail> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = smtp.received
      .slice(after)
      .reverse()
      .find((item) => item.rcptTo.includes(to));
    if (found) return found.mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}; received ${smtp.received.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function codeIn(mail: ParsedMail): string {
  const code = (mail.text ?? '').match(/(?<!\d)(\d{6})(?!\d)/)?.[1];
  if (!code) throw new Error(`no 6-digit code in ${JSON.stringify(mail.text)}`);
  return code;
}

/** A TCP port on 127.0.0.1 with nothing listening on it. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

// ---------------------------------------------------------------------------------------------
// Coffer on SMTP, over real HTTP.

async function callSealed(
  base: string,
  uri: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const fields = sealRequest({ method: 'POST', uri, headers, params }, new Date());
  const response = await fetch(`${base}/api/gw`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields }).toString(),
    signal: AbortSignal.timeout(20_000),
  });
  expect(response.status).toBe(200);
  const sealed = sealedSchema.parse(await response.json());
  const answer = answerSchema.parse(JSON.parse(openAnswer(sealed)));
  expect(sealed.code).toBe(answer.code);
  return answer;
}

describe('verification mail over real SMTP', () => {
  let smtp: LocalSmtp;
  let coffer: HttpCoffer;
  beforeAll(async () => {
    smtp = await startSmtp();
    coffer = await startHttpCoffer({ smtpPort: smtp.port, rootInvite: ROOT_INVITE });
  });
  afterAll(async () => {
    await coffer?.close();
    await smtp?.close();
  });

  test('sendRegisterCode with lang EN mails the address an English message with a 6-digit code, and register accepts that code', async () => {
    const address = 'smtp.alice@example.com';
    const sent = await call(coffer.base, '/api/v1/sso/sendRegisterCode', { email: address }, { lang: 'EN' });
    expect(sent).toMatchObject({ code: 200, message: 'Verification code sent', data: { resendAfter: 60 } });
    const mail = await mailTo(smtp, address);
    expect(mail.subject).toBe(en.register_subject);
    expect(mail.text).toContain(bodyLead(en.register_body));
    expect(mail.from?.value[0]?.address).toBe('no-reply@coffer.local');
    const code = codeIn(mail);
    const registered = await call(coffer.base, '/api/v1/sso/register', {
      email: address,
      code,
      inviteCode: ROOT_INVITE,
      password: 'secret123',
      confirmPassword: 'secret123',
    });
    expect(registered.code).toBe(200);
    expect(registered.data?.['token']).toEqual(expect.any(String));
  });

  test('sendForgetCode with lang KO mails a Korean message whose code checkForgetCode accepts', async () => {
    const address = 'smtp.alice@example.com';
    const before = smtp.received.length;
    const sent = await call(coffer.base, '/api/v1/sso/sendForgetCode', { email: address }, { lang: 'KO' });
    expect(sent.code).toBe(200);
    const mail = await mailTo(smtp, address, before);
    expect(mail.subject).toBe(ko.forget_subject);
    expect(mail.text).toContain(bodyLead(ko.forget_body));
    const code = codeIn(mail);
    const checked = await call(coffer.base, '/api/v1/sso/checkForgetCode', { email: address, code });
    expect(checked).toMatchObject({ code: 200, data: { valid: true } });
  });

  test('a code asked for through the envelope is mailed the same way, in the inner lang header', async () => {
    const address = 'smtp.bob@example.com';
    const sent = await callSealed(
      coffer.base,
      '/api/v1/sso/sendRegisterCode',
      { email: address },
      { lang: 'KO' },
    );
    expect(sent).toMatchObject({ code: 200, data: { resendAfter: 60 } });
    const mail = await mailTo(smtp, address);
    expect(mail.subject).toBe(ko.register_subject);
    const registered = await callSealed(coffer.base, '/api/v1/sso/register', {
      email: address,
      code: codeIn(mail),
      inviteCode: ROOT_INVITE,
      password: 'secret123',
      confirmPassword: 'secret123',
    });
    expect(registered.code).toBe(200);
  });
});

describe('when the SMTP server is unreachable', () => {
  let port: number;
  let coffer: HttpCoffer;
  let smtp: LocalSmtp | undefined;
  /** Asks Coffer to mail a registration code to `address`, in English. */
  const sendCode = (address: string) =>
    call(coffer.base, '/api/v1/sso/sendRegisterCode', { email: address }, { lang: 'EN' });
  beforeAll(async () => {
    port = await closedPort();
    coffer = await startHttpCoffer({ smtpPort: port, rootInvite: ROOT_INVITE });
  });
  afterAll(async () => {
    await coffer?.close();
    await smtp?.close();
  });

  test('sendRegisterCode answers body code 500 with a request id promptly, and stores no code (no countdown starts)', async () => {
    const address = 'smtp.down@example.com';
    const started = Date.now();
    const answer = await sendCode(address);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(answer.code).toBe(500);
    expect(answer.data).toEqual({ requestId: expect.any(String) });
    expect(answer.message).not.toMatch(/ECONNREFUSED|smtp|127\.0\.0\.1/i);
    const rows = await coffer.server.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.email, address));
    expect(rows).toEqual([]);
  });

  test('once the SMTP server is back, a send right after the failed one is accepted and mailed', async () => {
    const address = 'smtp.down@example.com';
    smtp = await startSmtp(port);
    const answer = await sendCode(address);
    expect(answer).toMatchObject({ code: 200, data: { resendAfter: 60 } });
    const mail = await mailTo(smtp, address);
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
  });
});
