/**
 * The envelope codec, server side: the crypto calls on node:crypto. The wire format, its types,
 * constants and every rule without crypto are defined once in `contract/envelope.ts`
 * (docs/protocol.md, "Envelope"); the worker's codec follows the same definition.
 *
 * The envelope is obfuscation plus a check against casual tampering; TLS provides secrecy.
 * `open` detects corrupted padding and bad UTF-8, not every alteration of `data` (CBC has no
 * authentication); the sign check binds `data` to the form fields.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import * as envelope from '../../contract/envelope.js';

export { EnvelopeError, type EnvelopeFields, type EnvelopeInner } from '../../contract/envelope.js';

/**
 * A new handshake: 16 characters drawn uniformly and independently from [A-Za-z0-9]
 * (crypto.randomInt, which is unbiased), about 95 bits of entropy. Never throws.
 */
export function randomHandshake(): string {
  return envelope.randomHandshakeWith((bound) => randomInt(bound));
}

/**
 * Seals `plaintext` (encoded as UTF-8; lone surrogates become U+FFFD) under `handshake`:
 * returns Base64(iv || AES-128-CBC-PKCS7(plaintext)). `iv` defaults to 16 fresh random bytes;
 * pass one only for fixed test vectors.
 * @throws TypeError if `handshake` is not 16 characters of [A-Za-z0-9] or `iv` is not 16 bytes.
 */
export function seal(plaintext: string, handshake: string, iv?: Buffer): string {
  const ivBytes = envelope.sealIvOf(handshake, iv, randomBytes);
  const cipher = createCipheriv('aes-128-cbc', Buffer.from(handshake, 'utf8'), ivBytes);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([ivBytes, ciphertext]).toString('base64');
}

/**
 * Opens `data` sealed under `handshake` and returns the UTF-8 plaintext.
 * Accepts only canonical standard Base64 with padding (no whitespace, no URL-safe alphabet).
 * @throws EnvelopeError (reason 'undecryptable') when the handshake is malformed, `data` is not
 *   canonical Base64, decodes to fewer than 32 bytes or to a length that is not 16 + a multiple
 *   of 16, the PKCS#7 padding is wrong, or the plaintext is not valid UTF-8. Never throws
 *   anything else.
 */
export function open(data: string, handshake: string): string {
  const { iv, ciphertext } = envelope.sealedPartsOf(data, handshake);
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-cbc', Buffer.from(handshake, 'utf8'), iv);
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new envelope.EnvelopeError('bad padding');
  }
  return envelope.plaintextOf(plain);
}

/**
 * The sign of an envelope: lowercase hex SHA-256 of the UTF-8 string
 * `data + timestamp + handshake` (plain concatenation, no separators). Never throws.
 */
export function signOf(data: string, timestamp: string, handshake: string): string {
  return createHash('sha256')
    .update(data + timestamp + handshake, 'utf8')
    .digest('hex');
}

/**
 * Compares two signs in time independent of where they differ (crypto.timingSafeEqual).
 * Returns false, without throwing, when their UTF-8 lengths differ.
 */
export function signMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  if (a.length !== b.length) {
    return false;
  }
  return timingSafeEqual(a, b);
}

/**
 * Builds the form fields of a request envelope around `inner` (a client, for tests and the
 * bench). The plaintext is `JSON.stringify(inner)`; the timestamp is `now` in whole Unix
 * seconds. `opts` fixes the handshake and IV for reproducible vectors; both are random otherwise.
 * @throws TypeError if `now` is not a valid date or `opts` holds a malformed handshake or IV.
 */
export function sealRequest(
  inner: envelope.EnvelopeInner,
  now: Date,
  opts?: { handshake?: string; iv?: Buffer },
): envelope.EnvelopeFields {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) {
    throw new TypeError('now is not a valid date');
  }
  return envelope.requestFieldsOf(inner, ms / 1000, opts, { randomHandshake, seal, signOf });
}

/**
 * Opens a sealed answer `{code, handshake, data}` and returns its plaintext (the JSON text of
 * `{code, message, data}`); parsing it is up to the caller. An unsealed refusal (460, data null)
 * is not a sealed answer; check `code` first.
 * @throws EnvelopeError as `open` does.
 */
export function openAnswer(answer: envelope.SealedAnswer): string {
  return open(answer.data, answer.handshake);
}
