/** Configuration by environment (README), and the rules that keep production honest. */
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../server/config.js';
import { localeFromHeader } from '../server/i18n/i18n.js';

describe('configuration', () => {
  test('with no environment, Coffer runs on port 8080 with PGlite in ./data and the dev mailbox', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
      smtpUrl: undefined,
      gatewaySegment: 'gw',
      uploadSegment: 'up',
      timezone: 'Asia/Shanghai',
      production: false,
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });
  test('production refuses the dev mailbox: SMTP_URL is required', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' }).production).toBe(true);
  });
  test('the test clock COFFER_NOW is refused in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', COFFER_NOW: '2026-01-01T00:00:00Z' }),
    ).toThrow(ConfigError);
    expect(loadConfig({ COFFER_NOW: '2026-01-01T00:00:00Z' }).now?.toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
  });
  test('bad values are named', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ COFFER_TIMEZONE: 'Mars/Olympus' })).toThrow(/COFFER_TIMEZONE/);
    expect(() => loadConfig({ COFFER_GATEWAY_SEGMENT: 'v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ COFFER_GATEWAY_SEGMENT: 'a/b' })).toThrow(/COFFER_GATEWAY_SEGMENT/);
  });
  test.each([
    ['KO', 'ko'],
    ['EN', 'en'],
    ['JP', 'ja'],
    ['CN', 'zh-Hans'],
    ['DE', 'th'],
    ['FH', 'vi'],
    ['TW', 'zh-Hant'],
    [undefined, 'zh-Hans'],
    ['xx', 'zh-Hans'],
  ])(
    'the lang header %s selects the %s catalogue (DE is Thai, FH Vietnamese; CN is the default)',
    (header, locale) => {
      expect(localeFromHeader(header)).toBe(locale);
    },
  );
});
