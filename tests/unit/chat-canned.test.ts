/** Canned replies in the desk (admin/pages/chat-canned.ts): `/code` in the customer's language. */
import { describe, expect, test } from 'vitest';
import type { CannedReply } from '../../contract/api/chat.js';
import { cannedFor, repliesFor } from '../../admin/pages/chat-canned.js';

const reply = (code: string, language: CannedReply['language'], text: string): CannedReply => ({
  id: `${code}-${language}`,
  code,
  language,
  text,
  updatedAt: '2026-01-05T02:00:00.000Z',
});

const canned = [
  reply('hello', 'en', 'Hello, how can we help?'),
  reply('hello', 'zh-Hans', '您好，请问有什么可以帮您？'),
  reply('hours', 'en', 'We answer 09:00-21:00.'),
  reply('deposit', 'zh-Hans', '充值到账需要 3 个确认。'),
];

describe('canned replies typed /code', () => {
  test("a whole /code takes the reply in the customer's language, else another language's", () => {
    const chinese = repliesFor(canned, 'zh-Hans');
    expect(cannedFor('/hello', chinese).exact?.text).toBe('您好，请问有什么可以帮您？');
    expect(cannedFor('/hours', chinese).exact?.text).toBe('We answer 09:00-21:00.');
    expect(cannedFor(' /hello ', repliesFor(canned, 'en')).exact?.text).toBe('Hello, how can we help?');
  });

  test('a partial code lists the codes that begin so; plain text or an unknown code is no canned reply', () => {
    const english = repliesFor(canned, 'en');
    expect(cannedFor('/h', english).matching.map((item) => item.code)).toEqual(['hello', 'hours']);
    expect(cannedFor('/', english).matching).toHaveLength(3);
    expect(cannedFor('hello', english)).toEqual({ exact: undefined, matching: [] });
    expect(cannedFor('/nothing', english).exact).toBeUndefined();
  });
});
