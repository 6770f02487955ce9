/**
 * The deposit keys the API derives addresses from (CONTRACT.md "Chains"): one account-level xpub
 * per chain, from CHAIN_BEP20_XPUB / CHAIN_TRC20_XPUB. The API process must never hold a private
 * key, so a configured `xprv` is refused. Without a configured key a development setup gets one
 * from a mnemonic generated once into the data directory; production refuses to start instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { z } from 'zod';
import { CHAINS, type Chain } from '../../contract/constants.js';
import { ConfigError } from '../config.js';
import { accountXpub, checkDepositXpub, isPrivateExtendedKey } from './addresses.js';
import { readKeyFile } from '../security/dev-key-file.js';

/** The development mnemonic's file in the data directory. */
export const DEV_KEYS_FILE = 'chain-dev-keys.json';

const ENV_NAME: Readonly<Record<Chain, string>> = { BEP20: 'CHAIN_BEP20_XPUB', TRC20: 'CHAIN_TRC20_XPUB' };

const devKeysFileSchema = z.object({ mnemonic: z.string() });

export interface DepositKeyOptions {
  production: boolean;
  dataDir: string;
  bep20Xpub?: string | undefined;
  trc20Xpub?: string | undefined;
  /** Where the development-key warning goes, one line per call. */
  warn: (line: string) => void;
}

/**
 * The development mnemonic in `<dataDir>/chain-dev-keys.json`, or undefined when there is no such
 * file. Throws when the file exists but does not hold a valid mnemonic: it is never replaced
 * silently, since addresses already handed out came from it.
 */
export function readDevMnemonic(dataDir: string): string | undefined {
  const file = path.join(dataDir, DEV_KEYS_FILE);
  const text = readKeyFile(file);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = devKeysFileSchema.safeParse(parsed);
  if (!result.success || !validateMnemonic(result.data.mnemonic, english)) {
    throw new ConfigError(
      `${file} does not hold a valid BIP39 mnemonic; fix or remove it (development only)`,
    );
  }
  return result.data.mnemonic;
}

/**
 * The development mnemonic, generated on the first call into a new file (mode 0600, the directory
 * made if missing) and read back on every later one. Exclusive creation: two processes starting at
 * once end with one mnemonic.
 */
function devMnemonic(dataDir: string): string {
  const existing = readDevMnemonic(dataDir);
  if (existing) return existing;
  fs.mkdirSync(dataDir, { recursive: true });
  const mnemonic = generateMnemonic(english);
  const content = {
    warning: 'DEVELOPMENT ONLY. Deposit addresses derived from this mnemonic must never receive real funds.',
    mnemonic,
  };
  try {
    fs.writeFileSync(path.join(dataDir, DEV_KEYS_FILE), `${JSON.stringify(content, null, 2)}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // `as`: fs errors carry a code
    const raced = readDevMnemonic(dataDir);
    if (raced) return raced;
    throw error;
  }
  return mnemonic;
}

/** A configured xpub, checked; a private key or a key of the wrong depth is a ConfigError naming the variable. */
function configuredXpub(chain: Chain, value: string): string {
  const name = ENV_NAME[chain];
  if (isPrivateExtendedKey(value)) {
    throw new ConfigError(
      `${name} holds a private extended key (xprv): the API must never hold a private key; give the account's xpub (m/44'/<coin>'/0')`,
    );
  }
  try {
    checkDepositXpub(value);
  } catch (error) {
    throw new ConfigError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return value.trim();
}

/**
 * The xpub per chain: the configured one, checked, else (not in production) one derived from the
 * development mnemonic, with a loud warning through `warn`. Throws ConfigError for a private or
 * malformed key, and in production for a missing one (naming CHAIN_BEP20_XPUB / CHAIN_TRC20_XPUB).
 */
export function loadDepositKeys(options: DepositKeyOptions): Record<Chain, string> {
  const configured: Record<Chain, string | undefined> = {
    BEP20: options.bep20Xpub?.trim() || undefined,
    TRC20: options.trc20Xpub?.trim() || undefined,
  };
  const missing = CHAINS.filter((chain) => configured[chain] === undefined);
  if (options.production && missing.length > 0) {
    throw new ConfigError(
      `${missing.map((chain) => ENV_NAME[chain]).join(' and ')} required when NODE_ENV=production (the account-level xpub m/44'/<coin>'/0' of each chain)`,
    );
  }
  let mnemonic: string | undefined;
  const keys = {} as Record<Chain, string>; // `as`: filled for every chain just below
  for (const chain of CHAINS) {
    const value = configured[chain];
    if (value !== undefined) {
      keys[chain] = configuredXpub(chain, value);
      continue;
    }
    mnemonic ??= devMnemonic(options.dataDir);
    keys[chain] = accountXpub(mnemonic, chain);
  }
  if (mnemonic !== undefined) {
    const file = path.join(options.dataDir, DEV_KEYS_FILE);
    for (const line of [
      '!!! DEVELOPMENT DEPOSIT KEYS !!!',
      `!!! No ${missing.map((chain) => ENV_NAME[chain]).join(' / ')} configured: deposit addresses for ${missing.join(', ')} come from a development mnemonic.`,
      `!!! The mnemonic is stored in plain text in ${file}; anyone who reads it controls these addresses.`,
      '!!! These addresses are for development only: NEVER send real funds to them.',
    ]) {
      options.warn(line);
    }
  }
  return keys;
}
