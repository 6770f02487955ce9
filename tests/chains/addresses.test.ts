/**
 * Deposit addresses and deposit keys (CONTRACT.md "Chains"), checked against published vectors:
 * BIP32 test vector 1, the BIP39 test mnemonic's Ethereum and TRON addresses, EIP-55's examples
 * and USDT's TRON contract address.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError } from '../../server/config.js';
import {
  accountXpub,
  depositAddress,
  depositPrivateKey,
  isEvmAddress,
  isTronAddress,
  toEvmChecksum,
  tronFromHex,
  tronToHex,
} from '../../server/chains/addresses.js';
import { DEV_KEYS_FILE, loadDepositKeys, readDevMnemonic } from '../../server/chains/keys.js';

const TEST_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = () => HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC));

describe('published vectors', () => {
  test('BIP32 test vector 1: seed 000102…0f gives the published master xpub', () => {
    const master = HDKey.fromMasterSeed(hex.decode('000102030405060708090a0b0c0d0e0f'));
    expect(master.publicExtendedKey).toBe(
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
    );
  });

  test("the BIP39 test mnemonic's BEP20 address 0 is m/44'/60'/0'/0/0 = 0x9858EfFD…aEda94", () => {
    const xpub = accountXpub(TEST_MNEMONIC, 'BEP20');
    expect(depositAddress('BEP20', xpub, 0)).toEqual({
      address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      hex: '0x9858effd232b4033e47d90003d41ec34ecaeda94',
    });
  });

  test("the BIP39 test mnemonic's TRC20 address 0 is m/44'/195'/0'/0/0 = TUEZSdKs…GWYdH", () => {
    const xpub = accountXpub(TEST_MNEMONIC, 'TRC20');
    expect(depositAddress('TRC20', xpub, 0)).toEqual({
      address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
      hex: '0xc8599111f29c1e1e061265b4af93ea1f274ad78a',
    });
  });

  test.each([
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('EIP-55 example %s is its own checksum form and is accepted', (address) => {
    expect(toEvmChecksum(address.toLowerCase())).toBe(address);
    expect(toEvmChecksum(address.slice(2).toUpperCase())).toBe(address);
    expect(isEvmAddress(address)).toBe(true);
  });

  test("USDT's TRON contract: TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t is 41a614f803b6fd780986a42c78ec9c7f77e6ded13c", () => {
    expect(tronToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
    );
    expect(tronFromHex('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    expect(tronFromHex('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
  });
});

describe('address forms', () => {
  test('a mixed-case address with a wrong checksum, a short one or one without 0x is refused', () => {
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae')).toBe(false);
    expect(isEvmAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(false);
    expect(isEvmAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true);
    expect(() => toEvmChecksum('0x1234')).toThrow();
  });

  test('a TRON address with a bad checksum, prefix or length is refused', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(() => tronToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toThrow(/base58check/);
    // A Bitcoin address: valid base58check, prefix 0x00.
    expect(() => tronToHex('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toThrow(/prefix/);
    expect(isTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(false);
  });

  test('every TRON deposit address round-trips to the same 20 bytes as its hex', () => {
    const xpub = accountXpub(TEST_MNEMONIC, 'TRC20');
    for (const index of [0, 1, 7, 2 ** 31 - 1]) {
      const { address, hex: account } = depositAddress('TRC20', xpub, index);
      expect(tronToHex(address)).toBe(account);
      expect(tronFromHex(account)).toBe(address);
    }
  });
});

describe('deposit addresses from an xpub', () => {
  const bep20Account = root().derive("m/44'/60'/0'").publicExtendedKey;
  const bep20Chain = root().derive("m/44'/60'/0'/0").publicExtendedKey;

  test('a depth-3 account xpub and its depth-4 external chain xpub give the same addresses', () => {
    for (const index of [0, 1, 2, 1000]) {
      expect(depositAddress('BEP20', bep20Chain, index)).toEqual(
        depositAddress('BEP20', bep20Account, index),
      );
    }
    expect(accountXpub(TEST_MNEMONIC, 'BEP20')).toBe(bep20Account);
  });

  test('an address is stable per index and distinct between indexes', () => {
    const first = Array.from({ length: 20 }, (_, index) => depositAddress('BEP20', bep20Account, index).hex);
    const again = Array.from({ length: 20 }, (_, index) => depositAddress('BEP20', bep20Account, index).hex);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(20);
  });

  test('BEP20 and TRC20 keys give different accounts for the same index', () => {
    const trc20 = accountXpub(TEST_MNEMONIC, 'TRC20');
    expect(depositAddress('TRC20', trc20, 0).hex).not.toBe(depositAddress('BEP20', bep20Account, 0).hex);
  });

  test('keys of other depths, of another account or of the change chain are refused', () => {
    expect(() => depositAddress('BEP20', root().publicExtendedKey, 0)).toThrow(/depth 0/);
    expect(() => depositAddress('BEP20', root().derive("m/44'/60'").publicExtendedKey, 0)).toThrow(/depth 2/);
    expect(() => depositAddress('BEP20', root().derive("m/44'/60'/0'/0/0").publicExtendedKey, 0)).toThrow(
      /depth 5/,
    );
    expect(() => depositAddress('BEP20', root().derive("m/44'/60'/1'").publicExtendedKey, 0)).toThrow(
      /account 0'/,
    );
    expect(() => depositAddress('BEP20', root().derive("m/44'/60'/0'/1").publicExtendedKey, 0)).toThrow(
      /external chain/,
    );
    expect(() => depositAddress('BEP20', 'xpub-nonsense', 0)).toThrow(/extended public key/);
  });

  test('a private extended key is refused even where an xpub is asked for', () => {
    const xprv = root().derive("m/44'/60'/0'").privateExtendedKey;
    expect(() => depositAddress('BEP20', xprv, 0)).toThrow(/private/);
  });

  test('an index outside 0..2^31-1 or not an integer is refused', () => {
    for (const index of [-1, 2 ** 31, 1.5, Number.NaN]) {
      expect(() => depositAddress('BEP20', bep20Account, index)).toThrow(RangeError);
    }
  });
});

describe('deposit private keys (the sweep command)', () => {
  /** The 20-byte account of a private key, computed here from the curve and keccak directly. */
  const accountOfPrivateKey = (privateKey: Uint8Array) =>
    `0x${hex.encode(keccak_256(secp256k1.getPublicKey(privateKey, false).subarray(1)).subarray(-20))}`;

  test.each(['BEP20', 'TRC20'] as const)(
    '%s: the key at each index controls that index’s address',
    (chain) => {
      const xpub = accountXpub(TEST_MNEMONIC, chain);
      for (const index of [0, 1, 5, 123_456]) {
        expect(accountOfPrivateKey(depositPrivateKey(TEST_MNEMONIC, chain, index))).toBe(
          depositAddress(chain, xpub, index).hex,
        );
      }
    },
  );

  test('a root xprv works as the secret as well as the mnemonic', () => {
    const xprv = root().privateExtendedKey;
    expect(accountXpub(xprv, 'TRC20')).toBe(accountXpub(TEST_MNEMONIC, 'TRC20'));
    expect(depositPrivateKey(xprv, 'BEP20', 3)).toEqual(depositPrivateKey(TEST_MNEMONIC, 'BEP20', 3));
  });

  test('a non-root xprv, a mnemonic with a bad checksum or a bad index is refused without echoing the secret', () => {
    const accountXprv = root().derive("m/44'/60'/0'").privateExtendedKey;
    expect(() => depositPrivateKey(accountXprv, 'BEP20', 0)).toThrow(/neither/);
    const badWords = TEST_MNEMONIC.replace(/about$/, 'abandon');
    expect(() => accountXpub(badWords, 'BEP20')).toThrow(/neither/);
    try {
      accountXpub(badWords, 'BEP20');
    } catch (error) {
      expect(String(error)).not.toContain('abandon');
    }
    expect(() => depositPrivateKey(TEST_MNEMONIC, 'BEP20', -1)).toThrow(RangeError);
  });
});

describe('deposit keys of the API (loadDepositKeys)', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const bep20 = accountXpub(TEST_MNEMONIC, 'BEP20');
  const trc20 = accountXpub(TEST_MNEMONIC, 'TRC20');

  /** Loads the deposit keys with `options` in a fresh data dir, keeping what it warns. */
  const loadInFreshDir = (options: Omit<Parameters<typeof loadDepositKeys>[0], 'dataDir' | 'warn'>) => {
    const dataDir = tempDir();
    const warnings: string[] = [];
    const keys = loadDepositKeys({ ...options, dataDir, warn: (line) => warnings.push(line) });
    return { dataDir, warnings, keys };
  };

  test('configured xpubs are used as given, with no development file and no warning', () => {
    const { dataDir, warnings, keys } = loadInFreshDir({
      production: true,
      bep20Xpub: bep20,
      trc20Xpub: ` ${trc20}\n`,
    });
    expect(keys).toEqual({ BEP20: bep20, TRC20: trc20 });
    expect(warnings).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, DEV_KEYS_FILE))).toBe(false);
  });

  test('a configured xprv is refused: the API must never hold a private key', () => {
    const xprv = root().derive("m/44'/60'/0'").privateExtendedKey;
    const load = () =>
      loadDepositKeys({
        production: false,
        dataDir: tempDir(),
        bep20Xpub: xprv,
        trc20Xpub: trc20,
        warn: () => {},
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/CHAIN_BEP20_XPUB.*never hold a private key/);
  });

  test('a configured key of a wrong depth or garbage is a ConfigError naming the variable', () => {
    const rootXpub = root().publicExtendedKey;
    expect(() =>
      loadDepositKeys({
        production: true,
        dataDir: tempDir(),
        bep20Xpub: bep20,
        trc20Xpub: rootXpub,
        warn: () => {},
      }),
    ).toThrow(/CHAIN_TRC20_XPUB.*depth 0/);
    expect(() =>
      loadDepositKeys({
        production: true,
        dataDir: tempDir(),
        bep20Xpub: 'hello',
        trc20Xpub: trc20,
        warn: () => {},
      }),
    ).toThrow(ConfigError);
  });

  test('production without a key refuses to start, naming the missing variables', () => {
    expect(() => loadDepositKeys({ production: true, dataDir: tempDir(), warn: () => {} })).toThrow(
      /CHAIN_BEP20_XPUB and CHAIN_TRC20_XPUB/,
    );
    expect(() =>
      loadDepositKeys({
        production: true,
        dataDir: tempDir(),
        bep20Xpub: bep20,
        trc20Xpub: '',
        warn: () => {},
      }),
    ).toThrow(ConfigError);
  });

  test('in development the key file is made once (mode 0600, directory created), reused, and loudly warned about', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const warnings: string[] = [];
    const first = loadDepositKeys({ production: false, dataDir, warn: (line) => warnings.push(line) });
    const file = path.join(dataDir, DEV_KEYS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const mnemonic = readDevMnemonic(dataDir);
    expect(mnemonic?.split(' ')).toHaveLength(12);
    expect(first).toEqual({
      BEP20: accountXpub(mnemonic ?? '', 'BEP20'),
      TRC20: accountXpub(mnemonic ?? '', 'TRC20'),
    });
    expect(warnings.length).toBeGreaterThan(2);
    expect(warnings.join('\n')).toMatch(/development only/i);
    expect(warnings.join('\n')).toContain(file);
    expect(warnings.join('\n')).toMatch(/never send real funds/i);

    const second = loadDepositKeys({ production: false, dataDir, warn: () => {} });
    expect(second).toEqual(first);
    expect(readDevMnemonic(dataDir)).toBe(mnemonic);
  });

  test('in development a configured key wins and only the missing chain uses the development key', () => {
    const { dataDir, warnings, keys } = loadInFreshDir({ production: false, bep20Xpub: bep20 });
    expect(keys.BEP20).toBe(bep20);
    expect(keys.TRC20).toBe(accountXpub(readDevMnemonic(dataDir) ?? '', 'TRC20'));
    expect(warnings.join('\n')).toContain('CHAIN_TRC20_XPUB');
    expect(warnings.join('\n')).not.toContain('CHAIN_BEP20_XPUB');
  });

  test('no development file reads as undefined; a damaged one is an error, never silently replaced', () => {
    const dataDir = tempDir();
    expect(readDevMnemonic(dataDir)).toBeUndefined();
    fs.writeFileSync(path.join(dataDir, DEV_KEYS_FILE), '{"mnemonic":"not twelve words"}');
    expect(() => readDevMnemonic(dataDir)).toThrow(ConfigError);
    expect(() => loadDepositKeys({ production: false, dataDir, warn: () => {} })).toThrow(ConfigError);
    expect(fs.readFileSync(path.join(dataDir, DEV_KEYS_FILE), 'utf8')).toContain('not twelve words');
  });
});
