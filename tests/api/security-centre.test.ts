/**
 * The security centre through the API (issue 24, docs/protocol.md), on PGlite and PostgreSQL:
 * the sessions list (device, address, times, the current one) and ending one or all others, also
 * across two instances sharing Redis; the anti-phishing code (set with the trade password or an
 * authenticator code, never shown back, at the top of every e-mail; the registration code mail,
 * sent before the account exists, says it cannot carry one, and a welcome mailed once after the
 * registration says how to set it); every e-mail multipart in the
 * request's language; the sign-in alert from a new device; the e-mail change with both codes,
 * which ends the other sessions and starts the 24-hour withdrawal lock; a taken address refused
 * like any unusable one.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { LANGUAGES } from '../../contract/locales.js';
import { users } from '../../server/db/schema.js';
import { smtpMailer, type Mail } from '../../server/mail/mailer.js';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/security/totp.js';
import { availableTiers, postgresReachable } from '../helpers/database.js';
import { redisReachable } from '../helpers/redis.js';
import { newKey, type TestServer, useTestServer } from '../helpers/server.js';
import { twoInstancesPerTest } from '../helpers/two-instances.js';
import { startSmtp } from '../helpers/smtp.js';
import { loadTranslator } from '../../server/i18n/i18n.js';
import type { Locale } from '../../server/i18n/i18n.js';

/** The server's own mail texts, as a recipient in `locale` reads them. */
const translator = loadTranslator();
const mailText = (locale: Locale, key: string, vars: Record<string, string> = {}) =>
  translator.t(locale, key, vars);
const SECURITY_CENTRE = 'pages/setting/setting5';

const tiers = await availableTiers('security-centre');
const redisUp = await redisReachable();
const postgresUp = await postgresReachable();
if (!redisUp || !postgresUp)
  console.warn('[security-centre] SKIPPED the two-instance tests: Redis or PostgreSQL is not reachable');

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const CHROME_WINDOWS_NEWER = CHROME_WINDOWS.replace('Chrome/120.0.0.0', 'Chrome/121.0.6167.85');
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const PASSWORD = 'secret123';

interface Session {
  id: string;
  device: string;
  ip: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** Registers `email` from a Windows Chrome at 198.51.100.1 and signs in again from `others` (user agents). */
async function signedIn(t: TestServer, email: string, ...others: string[]) {
  const registered = await registerFrom(t, email, CHROME_WINDOWS);
  const tokens = [registered.token];
  for (const [index, userAgent] of others.entries())
    tokens.push(await login(t, email, userAgent, `198.51.100.${index + 2}`));
  return { userId: registered.userId, tokens };
}

async function registerFrom(t: TestServer, email: string, userAgent: string, lang?: string) {
  const options = { userAgent, ip: '198.51.100.1', ...(lang ? { lang } : {}) };
  return t.register('plain', email, PASSWORD, t.rootInvite, options);
}

async function login(t: TestServer, email: string, userAgent: string, ip = '198.51.100.9', lang?: string) {
  const answer = await t.call<{ token: string }>(
    'plain',
    '/api/v1/sso/emailLogin',
    { email, password: PASSWORD },
    { userAgent, ip, ...(lang ? { lang } : {}) },
  );
  expect(answer.code).toBe(BodyCode.ok);
  return answer.data.token;
}

const sessionsOf = async (t: TestServer, token: string) => {
  const answer = await t.call<{ items: Session[] }>('plain', '/api/v1/user/sessions', {}, { token });
  expect(answer.code).toBe(BodyCode.ok);
  return answer.data.items;
};

const infoCode = async (t: TestServer, token: string) =>
  (await t.call('plain', '/api/v1/user/info', {}, { token })).code;

/** `session-revoke` called with `params` (a sessionId, or others: true) by the holder of `token`. */
const revokeSessions = (t: TestServer, token: string, params: Record<string, unknown>) =>
  t.call('plain', '/api/v1/user/session-revoke', params, { token });

const mailsTo = (t: TestServer, email: string) => t.mailer.sent.filter((mail) => mail.to === email);
const lastMailTo = (t: TestServer, email: string): Mail => {
  const mail = mailsTo(t, email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
};

describe.each(tiers)('the security centre on %s', (tier) => {
  const t = useTestServer(tier);

  const nextStep = () => {
    const ms = t.clock.now().getTime();
    t.clock.advance((TOTP_PERIOD_SECONDS * 1000 - (ms % (TOTP_PERIOD_SECONDS * 1000))) / 1000);
  };
  const setTradePassword = async (token: string) =>
    expect(
      (
        await t.call(
          'plain',
          '/api/v1/user/bindTradePassword',
          { tradePassword: 'trade123', confirmPassword: 'trade123' },
          { token },
        )
      ).code,
    ).toBe(BodyCode.ok);
  /** `anti-phishing` called with `params` (the code and a trade password or authenticator code). */
  const antiPhishing = (token: string, params: Record<string, unknown>) =>
    t.call('plain', '/api/v1/user/anti-phishing', params, { token });
  const setAntiPhishing = (token: string, code: string) =>
    antiPhishing(token, { code, tradePassword: 'trade123' });

  test('user/sessions lists each sign-in with its device, address and times, the caller marked current; last seen moves at most once a minute', async () => {
    const started = t.clock.now().toISOString();
    const { tokens } = await signedIn(t, 'list@example.com', SAFARI_IPHONE);
    const [first, second] = tokens as [string, string];
    const items = await sessionsOf(t, first);
    expect(items).toHaveLength(2);
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          device: 'Chrome 120 on Windows 10',
          ip: '198.51.100.1',
          createdAt: started,
          current: true,
        }),
        expect.objectContaining({
          device: 'Safari 17 on iOS 17.2 (mobile)',
          ip: '198.51.100.2',
          current: false,
        }),
      ]),
    );
    expect(new Set(items.map((item) => item.id)).size).toBe(2);
    for (const item of items) expect(item.id).toMatch(/^\d+$/); // never the token or its hash
    expect((await sessionsOf(t, second)).find((item) => item.current)?.device).toContain('Safari');

    const lastSeen = async () => (await sessionsOf(t, first)).find((item) => !item.current)?.lastSeenAt;
    t.clock.advance(30);
    expect(await infoCode(t, second)).toBe(BodyCode.ok);
    expect(await lastSeen()).toBe(started); // within the minute: no write
    t.clock.advance(31);
    expect(await infoCode(t, second)).toBe(BodyCode.ok);
    expect(await lastSeen()).toBe(t.clock.now().toISOString());
  });

  test('through the envelope the session names the device that sent the envelope', async () => {
    await registerFrom(t, 'envelope-device@example.com', CHROME_WINDOWS);
    const answer = await t.call<{ token: string }>(
      'envelope',
      '/api/v1/sso/emailLogin',
      { email: 'envelope-device@example.com', password: PASSWORD },
      { userAgent: FIREFOX_LINUX },
    );
    expect(answer.code).toBe(BodyCode.ok);
    const items = await sessionsOf(t, answer.data.token);
    expect(items.find((item) => item.current)?.device).toBe('Firefox 121 on Linux');
  });

  test('session-revoke with a sessionId ends that session at once; an id of another user, or an ended one, is 404', async () => {
    const { tokens } = await signedIn(t, 'revoke-one@example.com', SAFARI_IPHONE, FIREFOX_LINUX);
    const [first, second, third] = tokens as [string, string, string];
    const { tokens: strangers } = await signedIn(t, 'stranger@example.com');
    for (const token of [first, second, third]) expect(await infoCode(t, token)).toBe(BodyCode.ok); // cached now
    const target = (await sessionsOf(t, first)).find((item) => item.device.startsWith('Safari'));
    const revoked = await revokeSessions(t, first, { sessionId: target?.id });
    expect(revoked).toMatchObject({ code: BodyCode.ok, data: { revoked: 1 } });
    expect(await infoCode(t, second)).toBe(BodyCode.notLoggedIn);
    expect(await infoCode(t, first)).toBe(BodyCode.ok);
    expect(await infoCode(t, third)).toBe(BodyCode.ok);
    expect((await sessionsOf(t, first)).map((item) => item.device)).not.toContain(target?.device);
    // Ended already, or not the caller's: 404, and the stranger's session lives on.
    const again = await revokeSessions(t, first, { sessionId: target?.id });
    expect(again.code).toBe(BodyCode.notFound);
    const strangersSession = (await sessionsOf(t, strangers[0] ?? ''))[0];
    const theirs = await revokeSessions(t, first, { sessionId: strangersSession?.id });
    expect(theirs.code).toBe(BodyCode.notFound);
    expect(await infoCode(t, strangers[0] ?? '')).toBe(BodyCode.ok);
    // Neither or both of sessionId and others: 400.
    expect((await revokeSessions(t, first, {})).code).toBe(BodyCode.invalidInput);
    const both = await revokeSessions(t, first, { sessionId: '1', others: true });
    expect(both.code).toBe(BodyCode.invalidInput);
  });

  test('session-revoke with others: true ends every session but the caller’s', async () => {
    const { tokens } = await signedIn(t, 'revoke-others@example.com', SAFARI_IPHONE, FIREFOX_LINUX);
    const [first, second, third] = tokens as [string, string, string];
    for (const token of tokens) expect(await infoCode(t, token)).toBe(BodyCode.ok);
    const revoked = await revokeSessions(t, second, { others: true });
    expect(revoked).toMatchObject({ code: BodyCode.ok, data: { revoked: 2 } });
    expect(await infoCode(t, first)).toBe(BodyCode.notLoggedIn);
    expect(await infoCode(t, third)).toBe(BodyCode.notLoggedIn);
    expect(await infoCode(t, second)).toBe(BodyCode.ok);
    expect(await sessionsOf(t, second)).toEqual([expect.objectContaining({ current: true })]);
  });

  test('the anti-phishing code: 4 to 20 letters and digits, proved with the trade password (300 before one is set); user/info says it is set, never the code; stored sealed', async () => {
    const { tokens, userId } = await signedIn(t, 'phish@example.com');
    const token = tokens[0] ?? '';
    expect((await setAntiPhishing(token, 'Blue42Fox')).code).toBe(BodyCode.tradePasswordNotSet);
    await setTradePassword(token);
    for (const bad of ['abc', 'a'.repeat(21), 'with space', 'ünïcode1', 'semi;colon'])
      expect(await setAntiPhishing(token, bad)).toMatchObject({
        code: BodyCode.invalidInput,
        data: { field: 'code' },
      });
    const missing = await antiPhishing(token, { code: 'Blue42Fox' });
    expect(missing).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'tradePassword' } });
    const wrong = await antiPhishing(token, { code: 'Blue42Fox', tradePassword: 'wrong123' });
    expect(wrong).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'tradePassword' } });
    const info = async () =>
      (await t.call<Record<string, unknown>>('plain', '/api/v1/user/info', {}, { token })).data;
    expect((await info())['antiPhishingSet']).toBe(false);
    expect((await setAntiPhishing(token, 'Blue42Fox')).code).toBe(BodyCode.ok);
    const shown = await info();
    expect(shown['antiPhishingSet']).toBe(true);
    expect(JSON.stringify(shown)).not.toContain('Blue42Fox');
    const [row] = await t.server.database.db
      .select()
      .from(users)
      .where(eq(users.id, Number(userId)));
    expect(row?.antiPhishingCode).toMatch(/^v1\./);
    expect(row?.antiPhishingCode).not.toContain('Blue42Fox');
    // Changed: the next mail shows the new one.
    expect((await setAntiPhishing(token, 'Green7Owl')).code).toBe(BodyCode.ok);
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: 'phish@example.com' });
    expect(lastMailTo(t, 'phish@example.com').text).toContain('Green7Owl');
    expect(lastMailTo(t, 'phish@example.com').text).not.toContain('Blue42Fox');
  });

  test('with an authenticator bound the anti-phishing code takes its code (googleCode), not the trade password', async () => {
    const { tokens } = await signedIn(t, 'phish-2fa@example.com');
    const token = tokens[0] ?? '';
    const key = await t.call<{ secret: string }>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    nextStep();
    const codeNow = () => totpCode(key.data.secret, t.clock.now());
    expect(
      (await t.call('plain', '/api/v1/user/bindGoogle2Fa', { code: await codeNow() }, { token })).code,
    ).toBe(BodyCode.ok);
    nextStep();
    const withoutCode = await antiPhishing(token, { code: 'Moon9Owl', tradePassword: 'trade123' });
    expect(withoutCode).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'googleCode' } });
    const wrong = await antiPhishing(token, { code: 'Moon9Owl', googleCode: '000000' });
    expect(wrong.code).toBe(BodyCode.oneTimeCodeRejected);
    const set = await antiPhishing(token, { code: 'Moon9Owl', googleCode: await codeNow() });
    expect(set.code).toBe(BodyCode.ok);
  });

  test('every e-mail to the user after the code is set shows it at the top: the reset code, the code mails, the sign-in alert; the registration code and the welcome (before it was set) show none', async () => {
    const { tokens } = await signedIn(t, 'top@example.com');
    const [registration, welcome] = mailsTo(t, 'top@example.com');
    expect(registration?.text).not.toMatch(/Your anti-phishing code/i);
    expect(welcome?.text).not.toMatch(/Your anti-phishing code/i);
    const token = tokens[0] ?? '';
    await setTradePassword(token);
    expect((await setAntiPhishing(token, 'Tiger8Lily')).code).toBe(BodyCode.ok);
    const expectCodeOnTop = (mail: Mail | undefined) => {
      expect(mail?.text.split('\n')[0]).toBe('Your anti-phishing code: Tiger8Lily');
      const html = mail?.html ?? '';
      expect(html).toContain('Tiger8Lily');
      expect(html.indexOf('Tiger8Lily')).toBeLessThan(html.indexOf('<p style="margin:0 0 12px">'));
    };
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: 'top@example.com' }, { lang: 'EN' });
    expectCodeOnTop(lastMailTo(t, 'top@example.com'));
    expect(t.mailer.lastCode('top@example.com')).toMatch(/^\d{6}$/); // the code is still the only 6 digits
    t.clock.advance(61);
    await t.call('plain', '/api/v1/user/sendUpdateLoginPasswordCode', {}, { token, lang: 'EN' });
    expectCodeOnTop(lastMailTo(t, 'top@example.com'));
    await login(t, 'top@example.com', SAFARI_IPHONE, '198.51.100.77', 'EN');
    const alert = lastMailTo(t, 'top@example.com');
    expect(alert.subject).toBe('New sign-in to your Coffer account');
    expectCodeOnTop(alert);
  });

  test.each(LANGUAGES.map(({ code, locale }) => [code, locale] as const))(
    'the registration code mail (lang %s) says in the user’s language that it carries no anti-phishing code because the account does not exist yet, and where to set one',
    async (lang, locale) => {
      const email = `no-code-yet-${locale.toLowerCase()}@example.com`;
      const sent = await t.call('plain', '/api/v1/sso/sendRegisterCode', { email }, { lang });
      expect(sent.code).toBe(BodyCode.ok);
      const mail = lastMailTo(t, email);
      expect(mail.subject).toBe(mailText(locale, 'mail.register_subject'));
      const notice = mailText(locale, 'mail.no_account_no_anti_phishing', { page: SECURITY_CENTRE });
      expect(notice).toContain(SECURITY_CENTRE);
      expect(mail.text).toContain(notice);
      expect(mail.html).toContain(SECURITY_CENTRE);
      // No anti-phishing line: the code first, then the notice.
      expect(mail.text.split('\n')[0]).toBe(
        mailText(locale, 'mail.register_body', { code: t.mailer.lastCode(email) }),
      );
      expect(mail.text).not.toContain(mailText(locale, 'mail.anti_phishing_line', { code: '' }).trim());
    },
  );

  test('a code mail to an address that has an account carries no such notice', async () => {
    await signedIn(t, 'has-account@example.com');
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: 'has-account@example.com' }, { lang: 'EN' });
    expect(lastMailTo(t, 'has-account@example.com').text).not.toContain(
      mailText('en', 'mail.no_account_no_anti_phishing', { page: SECURITY_CENTRE }),
    );
  });

  test('the welcome mail is sent once after registration, in the user’s language, saying how to set an anti-phishing code; a replayed registration sends no second one', async () => {
    const email = 'welcome@example.com';
    const options = { userAgent: CHROME_WINDOWS, lang: 'JP' };
    expect((await t.call('plain', '/api/v1/sso/sendRegisterCode', { email }, options)).code).toBe(
      BodyCode.ok,
    );
    const params = {
      email,
      code: t.mailer.lastCode(email),
      inviteCode: t.rootInvite,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    };
    const key = newKey();
    const first = await t.call('plain', '/api/v1/sso/register', params, { ...options, key });
    expect(first.code).toBe(BodyCode.ok);
    expect(await t.call('plain', '/api/v1/sso/register', params, { ...options, key })).toEqual(first);
    const welcomes = mailsTo(t, email).filter(
      (mail) => mail.subject === mailText('ja', 'mail.welcome_subject'),
    );
    expect(welcomes).toHaveLength(1);
    const [welcome] = welcomes;
    expect(welcome?.text).toContain(mailText('ja', 'mail.welcome_body', { email }));
    expect(welcome?.text).toContain(mailText('ja', 'mail.welcome_anti_phishing', { page: SECURITY_CENTRE }));
    expect(welcome?.html).toContain('<html lang="ja">');
    expect(mailsTo(t, email)).toHaveLength(2); // the code, then the welcome
    // A sign-in afterwards (the same device) sends no welcome again.
    await login(t, email, CHROME_WINDOWS, '198.51.100.1', 'JP');
    expect(mailsTo(t, email)).toHaveLength(2);
  });

  test('after the anti-phishing code is set, the next mail carries it at the top (the welcome before it did not)', async () => {
    const { tokens } = await signedIn(t, 'set-later@example.com');
    const token = tokens[0] ?? '';
    await setTradePassword(token);
    expect((await setAntiPhishing(token, 'Later7Set')).code).toBe(BodyCode.ok);
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: 'set-later@example.com' }, { lang: 'EN' });
    const next = lastMailTo(t, 'set-later@example.com');
    expect(next.text.split('\n')[0]).toBe(mailText('en', 'mail.anti_phishing_line', { code: 'Later7Set' }));
    expect(next.html).toContain('Later7Set');
  });

  test('a sign-in from a device not seen before mails an alert naming the device, the address, the time and where to end the session, in the request’s language; the same device again (a newer version) does not', async () => {
    const email = 'alert@example.com';
    await registerFrom(t, email, CHROME_WINDOWS);
    const count = () => mailsTo(t, email).length;
    const before = count();
    await login(t, email, CHROME_WINDOWS, '198.51.100.20');
    await login(t, email, CHROME_WINDOWS_NEWER, '198.51.100.21');
    expect(count()).toBe(before); // the registration's device, updated: no alert
    await login(t, email, SAFARI_IPHONE, '198.51.100.22', 'EN');
    expect(count()).toBe(before + 1);
    const alert = lastMailTo(t, email);
    expect(alert.subject).toBe('New sign-in to your Coffer account');
    expect(alert.text).toContain('Device: Safari 17 on iOS 17.2 (mobile)');
    expect(alert.text).toContain('IP address: 198.51.100.22');
    expect(alert.text).toContain(`Time: ${t.clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(alert.text).toContain('pages/setting/setting5');
    expect(alert.html).toContain('Safari 17 on iOS 17.2 (mobile)');
    await login(t, email, SAFARI_IPHONE, '198.51.100.23', 'EN');
    expect(count()).toBe(before + 1); // known now
    // Another language: the request's.
    await login(t, email, FIREFOX_LINUX, '198.51.100.24', 'JP');
    expect(lastMailTo(t, email).subject).toBe('Coffer アカウントへの新しいログイン');
    // The language last used is stored (user/info shows it at once, though it had the profile
    // cached) and mail no request of theirs causes is written in it.
    const [row] = await t.server.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.lang).toBe('ja');
    const token = await login(t, email, FIREFOX_LINUX, '198.51.100.24', 'EN');
    const lang = async () =>
      (await t.call<{ lang: string }>('plain', '/api/v1/user/info', {}, { token })).data.lang;
    expect(await lang()).toBe('en');
    await login(t, email, FIREFOX_LINUX, '198.51.100.24', 'KO');
    expect(await lang()).toBe('ko');
    const letter = {
      subjectKey: 'mail.sign_in_alert_subject',
      paragraphs: [{ key: 'mail.email_changed_body', vars: { email: 'x@example.com' } }],
    };
    expect(await t.server.services.userMail.send(row?.id ?? 0, letter)).toBe(true);
    expect(lastMailTo(t, email)).toMatchObject({ subject: 'Coffer 계정에 새로운 로그인' });
    expect(lastMailTo(t, email).html).toContain('<html lang="ko">');
  });

  test('a device name from the user agent is HTML-escaped in the HTML part', async () => {
    const email = 'escape@example.com';
    await registerFrom(t, email, CHROME_WINDOWS);
    await login(t, email, '<script>alert(1)</script>', '198.51.100.30', 'EN');
    const alert = lastMailTo(t, email);
    expect(alert.text).toContain('<script>alert(1)</script>');
    expect(alert.html).not.toContain('<script>');
    expect(alert.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('each mail goes out multipart: an SMTP server receives a plain-text and an HTML part, both with the anti-phishing code', async () => {
    const { tokens } = await signedIn(t, 'multipart@example.com');
    const token = tokens[0] ?? '';
    await setTradePassword(token);
    expect((await setAntiPhishing(token, 'Multi5Part')).code).toBe(BodyCode.ok);
    await t.call('plain', '/api/v1/sso/sendForgetCode', { email: 'multipart@example.com' }, { lang: 'EN' });
    await login(t, 'multipart@example.com', SAFARI_IPHONE, '198.51.100.40', 'EN');
    const smtp = await startSmtp();
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, 'Coffer <no-reply@coffer.test>');
    try {
      const sent = mailsTo(t, 'multipart@example.com');
      for (const mail of sent) await mailer.send(mail);
      expect(smtp.received).toHaveLength(sent.length);
      for (const { mail } of smtp.received) {
        expect(mail.subject).toBeTruthy();
        expect(mail.text?.trim()).toBeTruthy();
        expect(typeof mail.html === 'string' && mail.html.includes('<p')).toBe(true);
      }
      for (const { mail } of smtp.received.slice(-2)) {
        expect(mail.text).toContain('Multi5Part');
        expect(mail.html || '').toContain('Multi5Part');
      }
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  test('the e-mail change: codes to the old and the new address, both needed; then the other sessions end, this one stays, withdrawals wait 24 hours, and the old address is told', async () => {
    const { tokens, userId } = await signedIn(t, 'move-old@example.com', SAFARI_IPHONE);
    const [token, other] = tokens as [string, string];
    await setTradePassword(token);
    expect((await setAntiPhishing(token, 'Move4Me')).code).toBe(BodyCode.ok);
    const newEmail = 'move-new@example.com';
    const sent = await t.call(
      'plain',
      '/api/v1/user/sendEmailUpdateCode',
      { newEmail },
      { token, lang: 'EN' },
    );
    expect(sent).toMatchObject({ code: BodyCode.ok, data: { resendAfter: 60 } });
    const oldCode = t.mailer.lastCode('move-old@example.com');
    const newCode = t.mailer.lastCode(newEmail);
    expect(lastMailTo(t, newEmail).text.split('\n')[0]).toBe('Your anti-phishing code: Move4Me');
    expect(lastMailTo(t, newEmail).subject).toBe('Your Coffer code to confirm this e-mail address');
    const wrongCode = (code: string) => (code === '000000' ? '000001' : '000000');
    const wrongNew = await t.call(
      'plain',
      '/api/v1/user/email-update',
      { newEmail, oldCode, newCode: wrongCode(newCode) },
      { token },
    );
    expect(wrongNew).toMatchObject({ code: BodyCode.oneTimeCodeRejected, data: { field: 'newCode' } });
    const wrongOld = await t.call(
      'plain',
      '/api/v1/user/email-update',
      { newEmail, oldCode: wrongCode(oldCode), newCode },
      { token },
    );
    expect(wrongOld).toMatchObject({ code: BodyCode.oneTimeCodeRejected, data: { field: 'oldCode' } });
    // The codes are for this new address only.
    const elsewhere = await t.call(
      'plain',
      '/api/v1/user/email-update',
      { newEmail: 'move-elsewhere@example.com', oldCode, newCode },
      { token },
    );
    expect(elsewhere.code).toBe(BodyCode.oneTimeCodeRejected);
    expect(await infoCode(t, other)).toBe(BodyCode.ok);
    const moved = await t.call<{ email: string; withdrawalsLockedUntil: string }>(
      'plain',
      '/api/v1/user/email-update',
      { newEmail, oldCode, newCode },
      { token, lang: 'EN' },
    );
    expect(moved).toMatchObject({
      code: BodyCode.ok,
      data: {
        email: newEmail,
        withdrawalsLockedUntil: new Date(t.clock.now().getTime() + 24 * 3600 * 1000).toISOString(),
      },
    });
    expect(await infoCode(t, other)).toBe(BodyCode.notLoggedIn);
    const info = await t.call<{ email: string }>('plain', '/api/v1/user/info', {}, { token });
    expect(info.data.email).toBe(newEmail);
    expect(
      await t.server.services.security.withdrawalsLockedUntil(t.server.database.db, Number(userId)),
    ).toEqual(new Date(t.clock.now().getTime() + 24 * 3600 * 1000));
    const notice = lastMailTo(t, 'move-old@example.com');
    expect(notice.subject).toBe('The e-mail address of your Coffer account was changed');
    expect(notice.text).toContain(newEmail);
    expect(notice.text.split('\n')[0]).toBe('Your anti-phishing code: Move4Me');
    // The new address signs in; the old one no longer does.
    expect(
      (await t.call('plain', '/api/v1/sso/emailLogin', { email: 'move-old@example.com', password: PASSWORD }))
        .code,
    ).toBe(BodyCode.invalidInput);
    await login(t, newEmail, CHROME_WINDOWS);
    // The codes are used up.
    const replay = await t.call(
      'plain',
      '/api/v1/user/email-update',
      { newEmail, oldCode, newCode },
      { token },
    );
    expect(replay.code).not.toBe(BodyCode.ok);
  });

  test('a taken address is refused with the very answer the user’s own address gets, naming nobody', async () => {
    await signedIn(t, 'taken-by@example.com');
    const { tokens } = await signedIn(t, 'wants@example.com');
    const token = tokens[0] ?? '';
    const before = t.mailer.sent.length;
    const taken = await t.call(
      'plain',
      '/api/v1/user/sendEmailUpdateCode',
      { newEmail: 'taken-by@example.com' },
      { token },
    );
    const own = await t.call(
      'plain',
      '/api/v1/user/sendEmailUpdateCode',
      { newEmail: 'wants@example.com' },
      { token },
    );
    expect(taken).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'newEmail' } });
    expect(taken).toEqual(own);
    expect(JSON.stringify(taken)).not.toContain('taken-by');
    expect(t.mailer.sent.length).toBe(before); // nothing mailed to either
    const update = await t.call(
      'plain',
      '/api/v1/user/email-update',
      { newEmail: 'TAKEN-BY@example.com', oldCode: '123456', newCode: '123456' },
      { token },
    );
    expect(update).toEqual(own);
  });
});

describe('revoking across two instances on one PostgreSQL database and one Redis', () => {
  const twoInstances = twoInstancesPerTest();

  test.skipIf(!redisUp || !postgresUp)(
    'a session ended on one instance is refused at once by the other, which had it cached; so are all others after others: true',
    async () => {
      const [a, b] = await twoInstances();
      const { tokens } = await signedIn(a, 'two-revoke@example.com', SAFARI_IPHONE, FIREFOX_LINUX);
      const [first, second, third] = tokens as [string, string, string];
      for (const server of [a, b])
        for (const token of tokens) expect(await infoCode(server, token)).toBe(BodyCode.ok);
      // Revoke one (the Safari session) on a: b, which holds it cached, refuses it at once.
      const target = (await sessionsOf(a, first)).find((item) => item.device.startsWith('Safari'));
      const one = await revokeSessions(a, first, { sessionId: target?.id });
      expect(one).toMatchObject({ code: BodyCode.ok, data: { revoked: 1 } });
      expect(await infoCode(b, second)).toBe(BodyCode.notLoggedIn);
      expect(await infoCode(b, third)).toBe(BodyCode.ok);
      // Revoke the others from b: a, which holds the first one cached, refuses it at once.
      const others = await revokeSessions(b, third, { others: true });
      expect(others).toMatchObject({ code: BodyCode.ok, data: { revoked: 1 } });
      expect(await infoCode(a, first)).toBe(BodyCode.notLoggedIn);
      expect(await infoCode(b, first)).toBe(BodyCode.notLoggedIn);
      expect(await infoCode(a, third)).toBe(BodyCode.ok);
    },
  );
});
