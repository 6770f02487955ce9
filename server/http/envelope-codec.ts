/**
 * The envelope codec, server side (node:crypto only).
 *
 * Wire format (docs/protocol.md, "Envelope"):
 * - `handshake`: 16 characters of [A-Za-z0-9], new for every envelope; its UTF-8 bytes are the
 *   raw AES-128 key (no key derivation, no passphrase).
 * - `data`: standard Base64 (with `=` padding) of 16 IV bytes followed by the AES-128-CBC /
 *   PKCS#7 ciphertext of the UTF-8 plaintext.
 * - `sign`: lowercase hex SHA-256 of the string `data + timestamp + handshake`.
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

const HANDSHAKE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HANDSHAKE_PATTERN = /^[A-Za-z0-9]{16}$/;
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

/**
 * Thrown by `open` (and `openAnswer`) when `data` cannot be opened with the given handshake.
 * The gateway maps it to body code 460.
 */
export class EnvelopeError extends Error {
  readonly reason: 'undecryptable';

  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
    this.reason = 'undecryptable';
  }
}

/** True when `value` is a well-formed handshake: exactly 16 characters of [A-Za-z0-9]. */
export function isHandshake(value: string): boolean {
  return HANDSHAKE_PATTERN.test(value);
}

/**
 * A new handshake: 16 characters drawn uniformly and independently from [A-Za-z0-9]
 * (crypto.randomInt, which is unbiased), about 95 bits of entropy. Never throws.
 */
export function randomHandshake(): string {
  let out = '';
  for (let i = 0; i < HANDSHAKE_LENGTH; i++) {
    out += HANDSHAKE_ALPHABET.charAt(randomInt(HANDSHAKE_ALPHABET.length));
  }
  return out;
}

/**
 * Seals `plaintext` (encoded as UTF-8; lone surrogates become U+FFFD) under `handshake`:
 * returns Base64(iv || AES-128-CBC-PKCS7(plaintext)). `iv` defaults to 16 fresh random bytes;
 * pass one only for fixed test vectors.
 * @throws TypeError if `handshake` is not 16 characters of [A-Za-z0-9] or `iv` is not 16 bytes.
 */
export function seal(plaintext: string, handshake: string, iv?: Buffer): string {
  if (!isHandshake(handshake)) {
    throw new TypeError('handshake must be 16 characters of [A-Za-z0-9]');
  }
  const ivBytes = iv ?? randomBytes(IV_LENGTH);
  if (ivBytes.length !== IV_LENGTH) {
    throw new TypeError('iv must be 16 bytes');
  }
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
  if (!isHandshake(handshake)) {
    throw new EnvelopeError('malformed handshake');
  }
  const raw = Buffer.from(data, 'base64');
  // Buffer.from skips characters outside the alphabet; re-encoding catches them, missing
  // padding, URL-safe characters, whitespace and non-zero trailing bits.
  if (raw.toString('base64') !== data) {
    throw new EnvelopeError('data is not canonical Base64');
  }
  if (raw.length < IV_LENGTH + BLOCK || (raw.length - IV_LENGTH) % BLOCK !== 0) {
    throw new EnvelopeError('data has the wrong length');
  }
  let plain: Buffer;
  try {
    const decipher = createDecipheriv(
      'aes-128-cbc',
      Buffer.from(handshake, 'utf8'),
      raw.subarray(0, IV_LENGTH),
    );
    plain = Buffer.concat([decipher.update(raw.subarray(IV_LENGTH)), decipher.final()]);
  } catch {
    throw new EnvelopeError('bad padding');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(plain);
  } catch {
    throw new EnvelopeError('plaintext is not UTF-8');
  }
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
  inner: EnvelopeInner,
  now: Date,
  opts?: { handshake?: string; iv?: Buffer },
): EnvelopeFields {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) {
    throw new TypeError('now is not a valid date');
  }
  const handshake = opts?.handshake ?? randomHandshake();
  const timestamp = String(Math.floor(ms / 1000));
  const data = seal(JSON.stringify(inner), handshake, opts?.iv);
  return { handshake, timestamp, sign: signOf(data, timestamp, handshake), data };
}

/**
 * Opens a sealed answer `{code, handshake, data}` and returns its plaintext (the JSON text of
 * `{code, message, data}`); parsing it is up to the caller. An unsealed refusal (460, data null)
 * is not a sealed answer; check `code` first.
 * @throws EnvelopeError as `open` does.
 */
export function openAnswer(answer: SealedAnswer): string {
  return open(answer.data, answer.handshake);
}
