/**
 * The envelope codec, client side. Runs in the browser's Web Worker (and in Node 20 for tests).
 *
 * Only individual crypto-js submodules are imported, to keep the worker's crypto chunk small;
 * random bytes come from `globalThis.crypto.getRandomValues` and text from TextEncoder /
 * TextDecoder (platform globals in browsers, workers and Node 20). No `node:` imports here.
 *
 * The wire format, its types, constants and every rule without crypto are defined once in
 * `contract/envelope.ts` (docs/protocol.md, "Envelope"); this file adds the crypto calls. The key
 * is the 16 UTF-8 bytes of the handshake used raw. crypto-js is always given the key as a WordArray plus an explicit IV:
 * given a string key, crypto-js would run OpenSSL's EVP_BytesToKey with a random salt and
 * produce something the server cannot open.
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

import {
  AES_BLOCK,
  EnvelopeError,
  plaintextOf,
  randomHandshakeWith,
  requestFieldsOf,
  sealIvOf,
  sealedPartsOf,
  type EnvelopeFields,
  type EnvelopeInner,
  type SealedAnswer,
} from '../contract/envelope.js';

export { EnvelopeError, type EnvelopeInner } from '../contract/envelope.js';

type Words = ReturnType<typeof WordArray.create>;

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

/**
 * A new handshake: 16 characters drawn uniformly from [A-Za-z0-9] by rejection sampling over
 * crypto.getRandomValues (bytes >= 248 are discarded, so `byte % 62` is unbiased).
 */
export function randomHandshake(): string {
  return randomHandshakeWith((bound) => {
    const limit = 256 - (256 % bound); // 248 for 62 symbols: `byte % bound` is unbiased below it
    for (;;) {
      for (const byte of randomBytes(32)) {
        if (byte < limit) return byte % bound;
      }
    }
  });
}

/**
 * Seals `plaintext` (encoded as UTF-8 by TextEncoder; lone surrogates become U+FFFD, as on the
 * server) under `handshake`: returns Base64(iv || AES-128-CBC-PKCS7(plaintext)). `ivBytes`
 * defaults to 16 fresh random bytes; pass one only for fixed test vectors.
 * @throws TypeError if `handshake` is not 16 characters of [A-Za-z0-9] or `ivBytes` is not 16 bytes.
 */
export function seal(plaintext: string, handshake: string, ivBytes?: Uint8Array): string {
  const iv = bytesToWords(sealIvOf(handshake, ivBytes, randomBytes));
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
  const { iv, ciphertext } = sealedPartsOf(data, handshake);
  const params = CryptoCore.lib.CipherParams.create({ ciphertext: bytesToWords(ciphertext) });
  const padded = wordsToBytes(
    AES.decrypt(params, keyOf(handshake), {
      iv: bytesToWords(iv),
      mode: CryptoCore.mode.CBC,
      padding: NoPadding,
    }),
  );
  const pad = padded[padded.length - 1] ?? 0;
  if (pad < 1 || pad > AES_BLOCK || pad > padded.length) {
    throw new EnvelopeError('bad padding');
  }
  let bad = 0;
  for (let i = padded.length - pad; i < padded.length; i++) {
    bad |= (padded[i] ?? 0) ^ pad;
  }
  if (bad !== 0) {
    throw new EnvelopeError('bad padding');
  }
  return plaintextOf(padded.subarray(0, padded.length - pad));
}

/**
 * `open` on WebCrypto's native AES-CBC, which checks the PKCS#7 padding itself; the same rules
 * and errors. Falls back to `open` where `crypto.subtle` is missing (insecure contexts).
 * @throws EnvelopeError as `open` does; nothing else.
 */
export async function openAsync(data: string, handshake: string): Promise<string> {
  const subtle = globalThis.crypto.subtle as SubtleCrypto | undefined; // undefined outside secure contexts
  if (subtle === undefined) return open(data, handshake);
  const { iv, ciphertext } = sealedPartsOf(data, handshake);
  let plaintext: ArrayBuffer;
  try {
    const key = await subtle.importKey('raw', new TextEncoder().encode(handshake), 'AES-CBC', false, [
      'decrypt',
    ]);
    plaintext = await subtle.decrypt({ name: 'AES-CBC', iv }, key, ciphertext);
  } catch {
    throw new EnvelopeError('bad padding');
  }
  return plaintextOf(plaintext);
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
  return requestFieldsOf(inner, nowSeconds, opts, { randomHandshake, seal, signOf });
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
