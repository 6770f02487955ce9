/**
 * The envelope, defined once (docs/protocol.md, "Envelope"): its wire types, constants, the
 * validation of the posted form and of the inner call, and every rule that needs no crypto
 * library. The two codecs, `server/http/envelope-codec.ts` (node:crypto) and
 * `worker/envelope.ts` (crypto-js / WebCrypto), import this and add only the crypto calls.
 *
 * Wire format:
 * - `handshake`: 16 characters of [A-Za-z0-9], new for every envelope; its UTF-8 bytes are the
 *   raw AES-128 key (no key derivation, no passphrase).
 * - `data`: standard Base64 (with `=` padding) of 16 IV bytes followed by the AES-128-CBC /
 *   PKCS#7 ciphertext of the UTF-8 plaintext.
 * - `sign`: lowercase hex SHA-256 of the UTF-8 string `data + timestamp + handshake` (plain
 *   concatenation, no separators).
 * - answer: `{code, handshake, data}` sealed under a new handshake; a refusal of the envelope
 *   itself is the unsealed `{code: 460, message, data: null}`.
 *
 * Loaded by the server and by the worker: no `node:` module, no crypto library here.
 */
import { z } from 'zod';

/** The characters a handshake is drawn from. */
export const HANDSHAKE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Characters in a handshake (its UTF-8 bytes are the 16-byte AES key). */
export const HANDSHAKE_LENGTH = 16;
/** Bytes of the IV that opens `data`. */
export const IV_LENGTH = 16;
/** The AES block size in bytes. */
export const AES_BLOCK = 16;

const HANDSHAKE_PATTERN = /^[A-Za-z0-9]{16}$/;
/**
 * Standard Base64 symbols with at most two `=` at the end; with a length that is a multiple of 4,
 * exactly padded Base64. Written as one character class, not as groups of four: a page of a pull
 * is megabytes of Base64, which the grouped pattern scanned about 20 times slower (half a second
 * a page in a phone-class worker).
 */
const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

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

/** The posted form as the gateway accepts it; anything else is refused with 460. */
export const envelopeFieldsSchema = z.object({
  handshake: z.string().regex(HANDSHAKE_PATTERN),
  timestamp: z.string().regex(/^\d{1,12}$/),
  sign: z.string().regex(/^[0-9a-f]{64}$/),
  data: z.string().min(44).max(1_500_000),
});

/** The inner call once opened; a plaintext that does not parse to this is refused with 460. */
export const envelopeInnerSchema = z.object({
  method: z.enum(['GET', 'POST']),
  uri: z
    .string()
    .max(2048)
    .regex(/^\/api\/(v1|admin)\/[A-Za-z0-9/_-]+$/),
  headers: z.record(z.string(), z.union([z.string().max(4096), z.number()])).default({}),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** Inner headers that count for the inner call (lower case); the gateway drops all others. */
export const ENVELOPE_INNER_HEADERS = [
  'authorization',
  'lang',
  'idempotency-key',
  'x-coffer-protocol',
] as const;

/** The gateway's sealed answer; anything else from the gateway is an unsealed answer. */
export const sealedAnswerSchema = z.object({
  code: z.number().int(),
  handshake: z.string(),
  data: z.string(),
});

/**
 * Thrown by either codec's `open` (and `openAnswer`) when `data` cannot be opened with the given
 * handshake. The gateway maps it to body code 460.
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
 * A new handshake of 16 characters of [A-Za-z0-9]; `randomIndex(n)` must return an unbiased
 * random integer in [0, n). Uniform when `randomIndex` is. Never throws by itself.
 */
export function randomHandshakeWith(randomIndex: (bound: number) => number): string {
  let out = '';
  for (let i = 0; i < HANDSHAKE_LENGTH; i++) {
    out += HANDSHAKE_ALPHABET.charAt(randomIndex(HANDSHAKE_ALPHABET.length));
  }
  return out;
}

/**
 * The IV to seal with under `handshake`: the given `iv` (fixed test vectors only), or
 * IV_LENGTH fresh bytes from the codec's `randomBytes`; the checks are the same on both sides.
 * @throws TypeError if `handshake` is not 16 characters of [A-Za-z0-9] or the IV is not 16 bytes.
 */
export function sealIvOf<Bytes extends { length: number }>(
  handshake: string,
  iv: Bytes | undefined,
  randomBytes: (length: number) => Bytes,
): Bytes {
  if (!isHandshake(handshake)) {
    throw new TypeError('handshake must be 16 characters of [A-Za-z0-9]');
  }
  const bytes = iv ?? randomBytes(IV_LENGTH);
  if (bytes.length !== IV_LENGTH) {
    throw new TypeError('iv must be 16 bytes');
  }
  return bytes;
}

/**
 * The bytes of standard, canonical, padded Base64 (what `open` accepts): the symbol before the
 * padding may carry no set bits past the last byte.
 * @throws EnvelopeError otherwise.
 */
function canonicalBase64Bytes(data: string): Uint8Array<ArrayBuffer> {
  return nativeBase64Bytes(data) ?? checkedBase64Bytes(data);
}

type FromBase64 = (
  text: string,
  options: { alphabet: 'base64'; lastChunkHandling: 'strict' },
) => Uint8Array<ArrayBuffer>;

/**
 * The bytes of canonical padded Base64 through the engine's own decoder (Uint8Array.fromBase64,
 * in current browsers): a pull's page is megabytes of Base64, which the pattern, `atob` and the
 * byte-by-byte copy below took 35 to 45 ms a page (2 MB) to check and decode in a Chromium
 * worker, against about 5 ms here. `strict` refuses missing padding and set bits past the last
 * byte; the length check refuses the white space the decoder would skip. Null where the decoder
 * is missing or refuses: `checkedBase64Bytes` then decides, and says why.
 */
function nativeBase64Bytes(data: string): Uint8Array<ArrayBuffer> | null {
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;
  if (fromBase64 === undefined || data.length % 4 !== 0) return null;
  try {
    const bytes = fromBase64(data, { alphabet: 'base64', lastChunkHandling: 'strict' });
    const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
    return bytes.length === (data.length / 4) * 3 - padding ? bytes : null;
  } catch {
    return null;
  }
}

/** `canonicalBase64Bytes` by the pattern and atob, for engines without Uint8Array.fromBase64. */
function checkedBase64Bytes(data: string): Uint8Array<ArrayBuffer> {
  if (data.length % 4 !== 0 || !BASE64_PATTERN.test(data))
    throw new EnvelopeError('data is not standard Base64');
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
 * The checks before opening that need no decryption, and the IV and ciphertext of `data`.
 * @throws EnvelopeError when the handshake is malformed, `data` is not canonical standard Base64
 *   with padding, or decodes to fewer than 32 bytes or to a length that is not 16 + a multiple
 *   of 16.
 */
export function sealedPartsOf(
  data: string,
  handshake: string,
): { iv: Uint8Array<ArrayBuffer>; ciphertext: Uint8Array<ArrayBuffer> } {
  if (!isHandshake(handshake)) throw new EnvelopeError('malformed handshake');
  const bytes = canonicalBase64Bytes(data);
  if (bytes.length < IV_LENGTH + AES_BLOCK || (bytes.length - IV_LENGTH) % AES_BLOCK !== 0) {
    throw new EnvelopeError('data has the wrong length');
  }
  return { iv: bytes.subarray(0, IV_LENGTH), ciphertext: bytes.subarray(IV_LENGTH) };
}

/**
 * Decodes the opened plaintext as strict UTF-8 (a BOM is kept as U+FEFF).
 * @throws EnvelopeError when the bytes are not valid UTF-8.
 */
export function plaintextOf(bytes: Uint8Array | ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new EnvelopeError('plaintext is not UTF-8');
  }
}

/** The crypto calls of one codec that building a request envelope needs. */
export interface RequestSealer<Iv> {
  randomHandshake(): string;
  seal(plaintext: string, handshake: string, iv?: Iv): string;
  signOf(data: string, timestamp: string, handshake: string): string;
}

/**
 * The form fields of a request envelope around `inner`, given a codec's crypto calls: the
 * handshake and IV are `opts`' (fixed test vectors only) or new ones, the plaintext is
 * `JSON.stringify(inner)`, the timestamp `unixSeconds` floored. The caller checks
 * `unixSeconds` is a valid time.
 * @throws TypeError as `seal` does for a malformed handshake or IV.
 */
export function requestFieldsOf<Iv>(
  inner: EnvelopeInner,
  unixSeconds: number,
  opts: { handshake?: string; iv?: Iv } | undefined,
  codec: RequestSealer<Iv>,
): EnvelopeFields {
  const handshake = opts?.handshake ?? codec.randomHandshake();
  const timestamp = String(Math.floor(unixSeconds));
  const data = codec.seal(JSON.stringify(inner), handshake, opts?.iv);
  return { handshake, timestamp, sign: codec.signOf(data, timestamp, handshake), data };
}
