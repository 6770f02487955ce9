/**
 * A first visit stores the language the page shows (src/main.tsx, after the first page), but never
 * over a language the user picked before that ran (src/app/i18n.ts): the e2e language test once
 * picked Japanese, reloaded and got English back.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';

const sent = vi.hoisted(() => [] as Array<{ kind: string; body: unknown }>);
vi.mock('../../src/app/worker-client.js', () => ({
  send: (kind: string, body: unknown) => {
    sent.push({ kind, body });
    return Promise.resolve({ kind: 'ok', message: '', data: body });
  },
}));

beforeEach(() => {
  sent.length = 0;
  vi.resetModules();
  vi.stubGlobal('document', { documentElement: { lang: '' } });
});

describe("a first visit's language", () => {
  test('is stored when the user has not picked one', async () => {
    const { storeFirstLocale } = await import('../../src/app/i18n.js');
    storeFirstLocale('en');
    expect(sent).toEqual([{ kind: 'session-set-locale', body: { locale: 'en' } }]);
  });

  test("is not stored over the user's pick, which is stored and shown", async () => {
    const { chooseLocale, startI18n, storeFirstLocale } = await import('../../src/app/i18n.js');
    await startI18n('en');
    await chooseLocale('ja');
    storeFirstLocale('en');
    expect(sent).toEqual([{ kind: 'session-set-locale', body: { locale: 'ja' } }]);
    expect(document.documentElement.lang).toBe('ja');
  });
});
