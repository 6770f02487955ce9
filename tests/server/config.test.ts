/** Configuration by environment (README), and the rules that keep production honest. */
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { localeFromHeader } from '../../server/i18n/i18n.js';
import { accountXpub } from '../../server/chains/addresses.js';

const TEST_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** Account-level public keys (the BIP39 test mnemonic's m/44'/60'/0' and m/44'/195'/0'). */
const XPUBS = {
  CHAIN_BEP20_XPUB: accountXpub(TEST_MNEMONIC, 'BEP20'),
  CHAIN_TRC20_XPUB: accountXpub(TEST_MNEMONIC, 'TRC20'),
  /** Production also needs the key that seals authenticator secrets. */
  COFFER_SECRET_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  /** And web push's VAPID pair (a test pair, npx web-push generate-vapid-keys). */
  COFFER_VAPID_PUBLIC_KEY:
    'BEFi7m4a4bDdysggDeaHmDZUzz6jOGvjxlfi3oa9nAcC7Ieq771ZVjEBQRJlkQNwWWQHviyN7lFHnPhTWEYQBH8',
  COFFER_VAPID_PRIVATE_KEY: 'eSqRQ9IiH4k-vODTcH4PyiVzad6-EHvgRctnMZt8qOc',
};

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
  test("COFFER_PUBLIC_URL is passkeys' relying party: the server's own http://localhost:PORT by default, an http(s) URL otherwise", () => {
    expect(loadConfig({}).publicUrl.href).toBe('http://localhost:8080/');
    expect(loadConfig({ PORT: '3000' }).publicUrl.origin).toBe('http://localhost:3000');
    const set = loadConfig({ COFFER_PUBLIC_URL: 'https://coffer.example.com/app' }).publicUrl;
    expect([set.hostname, set.origin]).toEqual(['coffer.example.com', 'https://coffer.example.com']);
    for (const bad of ['coffer.example.com', 'ftp://coffer.example.com'])
      expect(() => loadConfig({ COFFER_PUBLIC_URL: bad })).toThrow(/COFFER_PUBLIC_URL/);
  });
  test('production refuses the dev mailbox: SMTP_URL is required', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...XPUBS })).toThrow(/SMTP_URL/);
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', ...XPUBS }).production).toBe(
      true,
    );
  });
  test('production refuses the development deposit key: CHAIN_BEP20_XPUB and CHAIN_TRC20_XPUB are required', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' };
    expect(() => loadConfig(production)).toThrow(/CHAIN_BEP20_XPUB and CHAIN_TRC20_XPUB/);
    expect(() => loadConfig({ ...production, CHAIN_BEP20_XPUB: XPUBS.CHAIN_BEP20_XPUB })).toThrow(
      ConfigError,
    );
  });
  test('production refuses to start without COFFER_SECRET_KEY; it takes 32 bytes as hex or base64 and nothing else', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', ...XPUBS };
    const { COFFER_SECRET_KEY: hex, ...withoutKey } = production;
    expect(() => loadConfig(withoutKey)).toThrow(/COFFER_SECRET_KEY is required/);
    expect(loadConfig(production).secretKey?.toString('hex')).toBe(hex);
    const base64 = Buffer.from(hex, 'hex').toString('base64');
    expect(loadConfig({ ...production, COFFER_SECRET_KEY: base64 }).secretKey?.toString('hex')).toBe(hex);
    expect(
      loadConfig({ COFFER_SECRET_KEY: Buffer.from(hex, 'hex').toString('base64url') }).secretKey?.toString(
        'hex',
      ),
    ).toBe(hex);
    for (const bad of [
      'abc',
      hex.slice(2),
      `${hex}00`,
      Buffer.alloc(16).toString('base64'),
      'z'.repeat(64),
    ]) {
      expect(() => loadConfig({ COFFER_SECRET_KEY: bad })).toThrow(/COFFER_SECRET_KEY/);
    }
    expect(loadConfig({}).secretKey).toBeUndefined();
  });
  test('chains: mainnet USDT contracts and finality depths by default; the devnet starts only in development without a BEP20 node', () => {
    const config = loadConfig({});
    expect(config.chains.BEP20).toMatchObject({
      contract: '0x55d398326f99059fF775485246999027B3197955',
      decimals: 18,
      finality: 15,
      url: undefined,
    });
    expect(config.chains.TRC20).toMatchObject({
      contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      decimals: 6,
      finality: 20,
    });
    expect(config.devnet).toEqual({ port: 8545, blockSeconds: 2 });
    expect(loadConfig({ CHAIN_BEP20_RPC_URL: 'http://node:8545' }).devnet).toBeUndefined();
    expect(loadConfig({ COFFER_DEVNET: 'off' }).devnet).toBeUndefined();
    // On PostgreSQL (several instances, one DEVNET_PORT) only when asked for by name.
    expect(loadConfig({ DATABASE_URL: 'postgres://db/coffer' }).devnet).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/coffer', COFFER_DEVNET: 'on' }).devnet).toEqual({
      port: 8545,
      blockSeconds: 2,
    });
    expect(loadConfig({ DEVNET_PORT: '0', DEVNET_BLOCK_SECONDS: '1' }).devnet).toEqual({
      port: 0,
      blockSeconds: 1,
    });
    expect(() => loadConfig({ CHAIN_BEP20_FINALITY: '2' })).toThrow(/CHAIN_BEP20_FINALITY/);
    expect(() => loadConfig({ CHAIN_TRC20_USDT_CONTRACT: '0xabc' })).toThrow(/CHAIN_TRC20_USDT_CONTRACT/);
  });
  test('the test clock COFFER_NOW is refused in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail:25',
        COFFER_NOW: '2026-01-01T00:00:00Z',
        ...XPUBS,
      }),
    ).toThrow(ConfigError);
    expect(loadConfig({ COFFER_NOW: '2026-01-01T00:00:00Z' }).now?.toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
  });
  test('DATABASE_READ_URL (a streaming replica) is taken beside DATABASE_URL and refused without it: the embedded database has none', () => {
    expect(loadConfig({}).databaseReadUrl).toBeUndefined();
    const both = loadConfig({
      DATABASE_URL: 'postgres://db-primary:5432/coffer',
      DATABASE_READ_URL: 'postgres://db-replica:5432/coffer',
    });
    expect(both.databaseReadUrl).toBe('postgres://db-replica:5432/coffer');
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://db-replica:5432/coffer' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://db-replica:5432/coffer' })).toThrow(
      /DATABASE_URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://a/b', DATABASE_READ_URL: 'replica' })).toThrow(
      /DATABASE_READ_URL/,
    );
  });
  test('AI dividend records may be claimed for COFFER_DIVIDEND_CLAIM_DAYS days (30 unless set; a whole number of at least 1)', () => {
    expect(loadConfig({}).dividendClaimDays).toBe(30);
    expect(loadConfig({ COFFER_DIVIDEND_CLAIM_DAYS: '7' }).dividendClaimDays).toBe(7);
    for (const bad of ['0', '1.5', 'month'])
      expect(() => loadConfig({ COFFER_DIVIDEND_CLAIM_DAYS: bad })).toThrow(/COFFER_DIVIDEND_CLAIM_DAYS/);
  });
  test('bad values are named', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ COFFER_TIMEZONE: 'Mars/Olympus' })).toThrow(/COFFER_TIMEZONE/);
    expect(() => loadConfig({ COFFER_GATEWAY_SEGMENT: 'v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ COFFER_GATEWAY_SEGMENT: 'a/b' })).toThrow(/COFFER_GATEWAY_SEGMENT/);
  });
  test('no proxy is trusted unless COFFER_TRUST_PROXY names it; the web app is told the envelope unless COFFER_CLIENT_TRANSPORT says plain', () => {
    expect(loadConfig({})).toMatchObject({ trustProxy: undefined, clientTransport: 'envelope' });
    expect(loadConfig({ COFFER_TRUST_PROXY: ' loopback, 10.0.0.0/8 ,fd00::1 ' }).trustProxy).toBe(
      'loopback, 10.0.0.0/8 ,fd00::1',
    );
    for (const bad of ['true', '*', 'everyone', '10.0.0.0/8;rm', ''])
      expect(() => loadConfig({ COFFER_TRUST_PROXY: bad })).toThrow(/COFFER_TRUST_PROXY/);
    expect(loadConfig({ COFFER_CLIENT_TRANSPORT: 'plain' }).clientTransport).toBe('plain');
    expect(() => loadConfig({ COFFER_CLIENT_TRANSPORT: 'json' })).toThrow(/COFFER_CLIENT_TRANSPORT/);
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
