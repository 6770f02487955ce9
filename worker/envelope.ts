/**
 * The envelope codec, client side. Runs in the browser's Web Worker (and in Node 20 for tests).
 *
 * Only individual crypto-js submodules are imported, to keep the worker's crypto chunk small;
 * random bytes come from `globalThis.crypto.getRandomValues` and text from TextEncoder /
 * TextDecoder (platform globals in browsers, workers and Node 20). No `node:` imports here.
 *
 * Wire format (docs/protocol.md, "Envelope"): `data` = standard Base64 of 16 IV bytes followed
 * by AES-128-CBC / PKCS#7 ciphertext of the UTF-8 plaintext; the key is the 16 UTF-8 bytes of
 * the handshake used raw. crypto-js is always given the key as a WordArray plus an explicit IV:
 * given a string key, crypto-js would run OpenSSL's EVP_BytesToKey with a random salt and
 * produce something the server cannot open.
 * `sign` = lowercase hex SHA-256 of `data + timestamp + handshake`.
 *
 * Answers are opened with WebCrypto (`openAsync`: native AES, several times faster than
 * crypto-js on a 500 KB sync page) wherever `crypto.subtle` exists, that is in secure contexts;
 * crypto-js's `open` remains for the others (plain http on a LAN address) and both follow the
 * same rules, held to the same vectors.
 */
import AES from 'crypto-js/aes.js';
import Base64 from 'crypto-js/enc-base64.js';
import Hex from 'crypto-js/enc-hex.js';
import SHA256 from 'crypto-js/sha256.js';
import WordArray from 'crypto-js/lib-typedarrays.js';
import NoPadding from 'crypto-js/pad-nopadding.js';
// core.js is already loaded by aes.js (every submodule requires it), so this adds no bytes;
// it gives typed access to CipherParams, mode.CBC and pad.Pkcs7 that cipher-core.js installs.
import CryptoCore from 'crypto-js/core.js';

type Words = ReturnType<typeof WordArray.create>;

const HANDSHAKE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HANDSHAKE_PATTERN = /^[A-Za-z0-9]{16}$/;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HANDSHAKE_LENGTH = 16;
const IV_LENGTH = 16;
const BLOCK = 16;

/** The call carried inside a request envelope. */
export interface EnvelopeInner {
  method: string;
  uri: string;
  headers: Record<string, string>;
  params: Record<string, unknown>;
}

/** The four form fields of a request envelope, all strings as they are posted. */
export interface EnvelopeFields {
  handshake: string;
  timestamp: string;
  sign: string;
  data: string;
}

/** A sealed answer as it comes back from the gateway. */
export interface SealedAnswer {
  code: number;
  handshake: string;
  data: string;
}

/** Thrown by `open` / `openAnswer` when `data` cannot be opened with the given handshake. */
export class EnvelopeError extends Error {
  readonly reason: 'undecryptable';

  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
    this.reason = 'undecryptable';
  }
}

function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

function bytesToWords(bytes: Uint8Array): Words {
  return WordArray.create(bytes);
}

function wordsToBytes(words: Words): Uint8Array {
  const out = new Uint8Array(words.sigBytes);
  for (let i = 0; i < words.sigBytes; i++) {
    const word = words.words[i >>> 2] ?? 0;
    out[i] = (word >>> (24 - (i % 4) * 8)) & 0xff;
  }
  return out;
}

function keyOf(handshake: string): Words {
  return bytesToWords(new TextEncoder().encode(handshake));
}

/** True when `value` is a well-formed handshake: exactly 16 characters of [A-Za-z0-9]. */
export function isHandshake(value: string): boolean {
  return HANDSHAKE_PATTERN.test(value);
}

/**
 * A new handshake: 16 characters drawn uniformly from [A-Za-z0-9] by rejection sampling over
 * crypto.getRandomValues (bytes >= 248 are discarded, so `byte % 62` is unbiased).
 */
export function randomHandshake(): string {
  const limit = 256 - (256 % HANDSHAKE_ALPHABET.length); // 248
  let out = '';
  while (out.length < HANDSHAKE_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte < limit && out.length < HANDSHAKE_LENGTH) {
        out += HANDSHAKE_ALPHABET.charAt(byte % HANDSHAKE_ALPHABET.length);
      }
    }
  }
  return out;
}

/**
 * Seals `plaintext` (encoded as UTF-8 by TextEncoder; lone surrogates become U+FFFD, as on the
 * server) under `handshake`: returns Base64(iv || AES-128-CBC-PKCS7(plaintext)). `ivBytes`
 * defaults to 16 fresh random bytes; pass one only for fixed test vectors.
 * @throws TypeError if `handshake` is not 16 characters of [A-Za-z0-9] or `ivBytes` is not 16 bytes.
 */
export function seal(plaintext: string, handshake: string, ivBytes?: Uint8Array): string {
  if (!isHandshake(handshake)) {
    throw new TypeError('handshake must be 16 characters of [A-Za-z0-9]');
  }
  const ivRaw = ivBytes ?? randomBytes(IV_LENGTH);
  if (ivRaw.length !== IV_LENGTH) {
    throw new TypeError('iv must be 16 bytes');
  }
  const iv = bytesToWords(ivRaw);
  const sealed = AES.encrypt(bytesToWords(new TextEncoder().encode(plaintext)), keyOf(handshake), {
    iv,
    mode: CryptoCore.mode.CBC,
    padding: CryptoCore.pad.Pkcs7,
  });
  return Base64.stringify(iv.clone().concat(sealed.ciphertext));
}

/**
 * Opens `data` sealed under `handshake` and returns the UTF-8 plaintext. Same rules as the
 * server: canonical standard Base64 with padding, 16 + a positive multiple of 16 bytes, correct
 * PKCS#7 padding (checked here: crypto-js's own unpad does not check it), strict UTF-8.
 * @throws EnvelopeError on any of those failures or a malformed handshake; nothing else.
 */
export function open(data: string, handshake: string): string {
  if (!isHandshake(handshake)) {
    throw new EnvelopeError('malformed handshake');
  }
  if (!BASE64_PATTERN.test(data)) {
    throw new EnvelopeError('data is not standard Base64');
  }
  const raw = Base64.parse(data);
  // Non-zero bits after the last full byte mean a non-canonical encoding; refuse it as the
  // server does.
  if (Base64.stringify(raw) !== data) {
    throw new EnvelopeError('data is not canonical Base64');
  }
  const bytes = wordsToBytes(raw);
  if (bytes.length < IV_LENGTH + BLOCK || (bytes.length - IV_LENGTH) % BLOCK !== 0) {
    throw new EnvelopeError('data has the wrong length');
  }
  const params = CryptoCore.lib.CipherParams.create({ ciphertext: bytesToWords(bytes.subarray(IV_LENGTH)) });
  const padded = wordsToBytes(
    AES.decrypt(params, keyOf(handshake), {
      iv: bytesToWords(bytes.subarray(0, IV_LENGTH)),
      mode: CryptoCore.mode.CBC,
      padding: NoPadding,
    }),
  );
  const pad = padded[padded.length - 1] ?? 0;
  if (pad < 1 || pad > BLOCK || pad > padded.length) {
    throw new EnvelopeError('bad padding');
  }
  let bad = 0;
  for (let i = padded.length - pad; i < padded.length; i++) {
    bad |= (padded[i] ?? 0) ^ pad;
  }
  if (bad !== 0) {
    throw new EnvelopeError('bad padding');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(
      padded.subarray(0, padded.length - pad),
    );
  } catch {
    throw new EnvelopeError('plaintext is not UTF-8');
  }
}

/**
 * The bytes of standard, canonical, padded Base64 (what `open` accepts): the symbol before the
 * padding may carry no set bits past the last byte.
 * @throws EnvelopeError otherwise.
 */
function canonicalBase64Bytes(data: string): Uint8Array<ArrayBuffer> {
  if (!BASE64_PATTERN.test(data)) throw new EnvelopeError('data is not standard Base64');
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if (padding > 0) {
    const last = BASE64_ALPHABET.indexOf(data.charAt(data.length - padding - 1));
    if ((last & (padding === 2 ? 0x0f : 0x03)) !== 0) throw new EnvelopeError('data is not canonical Base64');
  }
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * `open` on WebCrypto's native AES-CBC, which checks the PKCS#7 padding itself; the same rules
 * and errors. Falls back to `open` where `crypto.subtle` is missing (insecure contexts).
 * @throws EnvelopeError as `open` does; nothing else.
 */
export async function openAsync(data: string, handshake: string): Promise<string> {
  const subtle = globalThis.crypto.subtle as SubtleCrypto | undefined; // undefined outside secure contexts
  if (subtle === undefined) return open(data, handshake);
  if (!isHandshake(handshake)) throw new EnvelopeError('malformed handshake');
  const bytes = canonicalBase64Bytes(data);
  if (bytes.length < IV_LENGTH + BLOCK || (bytes.length - IV_LENGTH) % BLOCK !== 0) {
    throw new EnvelopeError('data has the wrong length');
  }
  let plaintext: ArrayBuffer;
  try {
    const key = await subtle.importKey('raw', new TextEncoder().encode(handshake), 'AES-CBC', false, [
      'decrypt',
    ]);
    plaintext = await subtle.decrypt(
      { name: 'AES-CBC', iv: bytes.subarray(0, IV_LENGTH) },
      key,
      bytes.subarray(IV_LENGTH),
    );
  } catch {
    throw new EnvelopeError('bad padding');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(plaintext);
  } catch {
    throw new EnvelopeError('plaintext is not UTF-8');
  }
}

/** Lowercase hex SHA-256 of the UTF-8 string `data + timestamp + handshake`. */
export function signOf(data: string, timestamp: string, handshake: string): string {
  return Hex.stringify(SHA256(bytesToWords(new TextEncoder().encode(data + timestamp + handshake))));
}

/**
 * Builds the form fields of a request envelope around `inner`. The plaintext is
 * `JSON.stringify(inner)`; the timestamp is `nowSeconds` floored to whole Unix seconds.
 * Every call makes a new handshake and IV unless `opts` fixes them (test vectors only). A retry
 * must call this again (new handshake, new sign) with the same inner `Idempotency-Key`.
 * @throws TypeError if `nowSeconds` is not a finite non-negative number or `opts` is malformed.
 */
export function sealRequest(
  inner: EnvelopeInner,
  nowSeconds: number,
  opts?: { handshake?: string; iv?: Uint8Array },
): EnvelopeFields {
  if (!Number.isFinite(nowSeconds) || nowSeconds < 0) {
    throw new TypeError('nowSeconds must be a finite non-negative number');
  }
  const handshake = opts?.handshake ?? randomHandshake();
  const timestamp = String(Math.floor(nowSeconds));
  const data = seal(JSON.stringify(inner), handshake, opts?.iv);
  return { handshake, timestamp, sign: signOf(data, timestamp, handshake), data };
}

/**
 * Opens a sealed answer `{code, handshake, data}` and returns its plaintext (the JSON text of
 * `{code, message, data}`). An unsealed refusal (460, data null) is not a sealed answer; check
 * `code` first.
 * @throws EnvelopeError as `open` does.
 */
export function openAnswer(answer: SealedAnswer): Promise<string> {
  return openAsync(answer.data, answer.handshake);
}
