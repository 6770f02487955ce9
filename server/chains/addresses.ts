/**
 * Deposit addresses (CONTRACT.md "Chains"): one BIP32 extended public key per chain, BIP44 coin
 * type 60 for BEP20 (Ethereum-style addresses) and 195 for TRC20 (TRON addresses). An account's
 * address is child `0/<index>` of the account-level key m/44'/<coin>'/0', so the API derives
 * addresses without ever holding a private key. The private side (a mnemonic or a root xprv) is
 * used only by the operator's sweep command and by development setups, through the functions at
 * the end of this file.
 *
 * Both address forms name the same 20 bytes: the last 20 bytes of keccak256 of the uncompressed
 * public key without its 0x04 prefix. BEP20 shows them EIP-55 checksummed; TRON prefixes 0x41 and
 * encodes them base58check (double SHA-256, 4-byte checksum).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createBase58check, hex } from '@scure/base';
import { HDKey, HARDENED_OFFSET } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import type { Chain } from '../../contract/constants.js';

/** BIP44 coin types (SLIP-44): BEP20 addresses are Ethereum addresses; TRON has its own. */
export const COIN_TYPE: Readonly<Record<Chain, number>> = { BEP20: 60, TRC20: 195 };

/** The last child index BIP32 allows without hardening. */
export const MAX_DEPOSIT_INDEX = HARDENED_OFFSET - 1;

const TRON_PREFIX = 0x41;
const base58check = createBase58check(sha256);
const HEX20 = /^[0-9a-f]{40}$/;
/** BIP32 serialisation: 4 version, 1 depth, 4 fingerprint, 4 child number, 32 chain code, 33 key. */
const EXTENDED_KEY_BYTES = 78;
const KEY_DATA_OFFSET = 45;

/** The 40 hex digits of a 20-byte account given as `0x…` or bare hex, lower-cased; throws when it is not one. */
function hex20Of(text: string): string {
  const body = (text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text).toLowerCase();
  if (!HEX20.test(body)) throw new Error('not a 20-byte hex account');
  return body;
}

/** The 20-byte account of a secp256k1 public key (compressed or not). */
function accountOf(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(-20);
}

/** EIP-55: `0x` + the 40 hex digits, each letter upper-cased when its nibble of keccak256(lower-case hex) is 8 or more. Throws on anything but 20 bytes of hex. */
export function toEvmChecksum(hex20: string): string {
  const body = hex20Of(hex20);
  const hash = hex.encode(keccak_256(new TextEncoder().encode(body)));
  let out = '0x';
  for (let i = 0; i < body.length; i += 1) {
    const char = body.charAt(i);
    out += parseInt(hash.charAt(i), 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/** `0x` + 40 hex digits, all lower-case, all upper-case, or mixed with a valid EIP-55 checksum. */
export function isEvmAddress(text: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return false;
  const body = text.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toEvmChecksum(body) === text;
}

/** The TRON address (`T…`) of a 20-byte account, given as `0x…`/bare 40 hex or TRON's own `41…` hex. Throws on anything else. */
export function tronFromHex(hex20: string): string {
  const tronHex = /^41[0-9a-fA-F]{40}$/.test(hex20) ? hex20.slice(2) : hex20;
  return base58check.encode(Uint8Array.of(TRON_PREFIX, ...hex.decode(hex20Of(tronHex))));
}

/** The 20-byte account of a TRON address, lower-case with `0x`; throws on a bad checksum, prefix or length. */
export function tronToHex(address: string): `0x${string}` {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(address);
  } catch {
    throw new Error('not a TRON address: bad base58check');
  }
  if (bytes.length !== 21) throw new Error('not a TRON address: wrong length');
  if (bytes[0] !== TRON_PREFIX) throw new Error('not a TRON address: wrong prefix');
  return `0x${hex.encode(bytes.subarray(1))}`;
}

/** A valid base58check TRON address with the 0x41 prefix. */
export function isTronAddress(text: string): boolean {
  try {
    tronToHex(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `text` is a serialised BIP32 private key (`xprv…` or any other version bytes): its key
 * data starts with a zero byte. False for anything that is not an extended key at all.
 */
export function isPrivateExtendedKey(text: string): boolean {
  try {
    const bytes = base58check.decode(text.trim());
    return bytes.length === EXTENDED_KEY_BYTES && bytes[KEY_DATA_OFFSET] === 0;
  } catch {
    return false;
  }
}

/**
 * The external chain key m/44'/<coin>'/0'/0 of a deposit xpub: an account-level key (depth 3,
 * child 0') or that chain key itself (depth 4, child 0). The child number is checked too: the
 * sweep command derives m/44'/<coin>'/0'/0/<index>, so a key of another account or of the change
 * chain would hand out addresses the sweep cannot reach. Throws an Error saying what is wrong;
 * never a private key.
 */
function externalChainKey(xpub: string): HDKey {
  if (isPrivateExtendedKey(xpub)) {
    throw new Error('a private extended key was given where an xpub belongs; deposit keys must be public');
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub.trim());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`not an extended public key (xpub): ${reason}`);
  }
  if (key.depth === 3) {
    if (key.index !== HARDENED_OFFSET) {
      throw new Error("the depth-3 key must be account 0' (m/44'/<coin>'/0')");
    }
    return key.deriveChild(0);
  }
  if (key.depth === 4) {
    if (key.index !== 0) throw new Error("the depth-4 key must be the external chain m/44'/<coin>'/0'/0");
    return key;
  }
  throw new Error(
    `the xpub has depth ${key.depth}; give the account key m/44'/<coin>'/0' (depth 3) or m/44'/<coin>'/0'/0 (depth 4)`,
  );
}

/** Throws an Error saying why `xpub` cannot serve as a deposit key (see depositAddress). */
export function checkDepositXpub(xpub: string): void {
  externalChainKey(xpub);
}

function checkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index > MAX_DEPOSIT_INDEX) {
    throw new RangeError(`a deposit index is an integer from 0 to ${MAX_DEPOSIT_INDEX}`);
  }
}

/**
 * The deposit address number `index` (0..2^31-1) of `chain` under `xpub` (m/44'/<coin>'/0' or
 * m/44'/<coin>'/0'/0): the same index always gives the same address. `address` is what users see
 * (EIP-55 on BEP20, base58 `T…` on TRC20); `hex` is the 20-byte account, lower-case, the form the
 * watcher matches logs by. Throws on a bad key or index.
 */
export function depositAddress(
  chain: Chain,
  xpub: string,
  index: number,
): { address: string; hex: `0x${string}` } {
  checkIndex(index);
  const child = externalChainKey(xpub).deriveChild(index);
  // A public-only HDKey always has a public key; the check satisfies the type.
  if (!child.publicKey) throw new Error('derived key has no public key');
  const account = hex.encode(accountOf(child.publicKey));
  return {
    address: chain === 'BEP20' ? toEvmChecksum(account) : tronFromHex(account),
    hex: `0x${account}`,
  };
}

/**
 * The root key of a secret: a BIP39 mnemonic (English, no passphrase) or a root `xprv` (depth 0).
 * The caller wipes it. Error messages never repeat the secret.
 */
function rootKey(secret: string): HDKey {
  const words = secret.trim().split(/\s+/).join(' ');
  if (validateMnemonic(words, english)) return HDKey.fromMasterSeed(mnemonicToSeedSync(words));
  let key: HDKey | undefined;
  try {
    key = HDKey.fromExtendedKey(secret.trim());
  } catch {
    key = undefined;
  }
  if (!key?.privateKey || key.depth !== 0) {
    throw new Error('the secret is neither a valid BIP39 mnemonic nor a root extended private key (xprv)');
  }
  return key;
}

/** The account-level xpub m/44'/<coin>'/0' of a mnemonic or root xprv: what CHAIN_<chain>_XPUB holds. */
export function accountXpub(secret: string, chain: Chain): string {
  const root = rootKey(secret);
  try {
    return root.derive(`m/44'/${COIN_TYPE[chain]}'/0'`).publicExtendedKey;
  } finally {
    root.wipePrivateData();
  }
}

/**
 * The private key of deposit address `index` (m/44'/<coin>'/0'/0/<index>) from a mnemonic or a
 * root xprv: for the operator's sweep command only, which takes the secret at run time and never
 * stores it. The caller owns (and should wipe) the returned bytes.
 */
export function depositPrivateKey(secret: string, chain: Chain, index: number): Uint8Array {
  checkIndex(index);
  const root = rootKey(secret);
  const child = root.derive(`m/44'/${COIN_TYPE[chain]}'/0'/0/${index}`);
  try {
    if (!child.privateKey) throw new Error('derived key has no private key');
    return Uint8Array.from(child.privateKey);
  } finally {
    child.wipePrivateData();
    root.wipePrivateData();
  }
}
