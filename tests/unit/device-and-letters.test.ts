/**
 * The device a User-Agent names (bowser) and the key that tells a new device from one seen
 * before; and a letter's two parts: the anti-phishing code on top, every piece of text escaped.
 */
import { describe, expect, test } from 'vitest';
import { deviceKeyOf, deviceOf } from '../../server/security/device.js';
import { escapeHtml, Letters } from '../../server/mail/letters.js';
import type { Mail, Mailer } from '../../server/mail/mailer.js';
import { loadTranslator } from '../../server/i18n/i18n.js';

const CHROME_120 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const CHROME_121 = CHROME_120.replace('Chrome/120.0.0.0', 'Chrome/121.0.6167.85');
const EDGE = `${CHROME_120} Edg/120.0.2210.91`;
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36';

describe('the device of a User-Agent', () => {
  test.each([
    [CHROME_120, 'Chrome 120 on Windows 10'],
    [EDGE, 'Microsoft Edge 120 on Windows 10'],
    [ANDROID, 'Chrome 120 on Android 14 (mobile)'],
    ['', 'Unknown device'],
    ['curl/8.4.0', 'curl/8.4.0'],
  ])('%j reads as %j', (agent, label) => {
    expect(deviceOf(agent).label).toBe(label);
  });

  test('an update of the browser is the same device; another browser, system or user is not', () => {
    const key = (agent: string, userId = 1) => deviceKeyOf(userId, deviceOf(agent));
    expect(key(CHROME_121)).toBe(key(CHROME_120));
    expect(key(EDGE)).not.toBe(key(CHROME_120));
    expect(key(ANDROID)).not.toBe(key(CHROME_120));
    expect(key(CHROME_120, 2)).not.toBe(key(CHROME_120, 1));
    expect(key(CHROME_120)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a very long User-Agent is cut before it is parsed', () => {
    expect(deviceOf('x'.repeat(10_000)).label.length).toBeLessThanOrEqual(60);
  });
});

describe('a letter', () => {
  const sent: Mail[] = [];
  const mailer: Mailer = {
    description: 'test',
    send: async (mail) => {
      sent.push(mail);
    },
    close: () => undefined,
  };
  const letters = new Letters(mailer, loadTranslator());
  const letter = {
    subjectKey: 'mail.email_changed_subject',
    paragraphs: [{ key: 'mail.email_changed_body', vars: { email: '"a&b"<i>@example.com' } }],
  };

  test('has both parts, the anti-phishing code first in each, and every piece of text escaped in the HTML', () => {
    const mail = letters.compose(
      { email: 'to@example.com', locale: 'en', antiPhishingCode: 'Code42' },
      letter,
    );
    expect(mail.subject).toBe('The e-mail address of your Coffer account was changed');
    expect(mail.text.split('\n\n')[0]).toBe('Your anti-phishing code: Code42');
    expect(mail.text).toContain('"a&b"<i>@example.com');
    expect(mail.html.indexOf('Code42')).toBeLessThan(mail.html.indexOf('changed to'));
    expect(mail.html).toContain('&quot;a&amp;b&quot;&lt;i&gt;@example.com');
    expect(mail.html).not.toContain('<i>');
    expect(mail.html).toContain('<html lang="en">');
  });

  test('without an anti-phishing code there is no such line; the language is the recipient’s', () => {
    const mail = letters.compose(
      { email: 'to@example.com', locale: 'zh-Hans', antiPhishingCode: null },
      letter,
    );
    expect(mail.subject).toBe('您的 Coffer 账户邮箱已更换');
    expect(mail.text).not.toContain('防钓鱼码');
    expect(mail.html).not.toContain('防钓鱼码');
  });

  test('escapeHtml escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
