/**
 * Secrets at rest (the authenticator's TOTP secret, document numbers): AES-256-GCM under the server key
 * COFFER_SECRET_KEY, a random 96-bit nonce per seal, and associated data naming what the secret
 * belongs to, so a sealed value copied to another user's row does not open there.
 * Without a configured key a development setup gets one generated once into the data directory;
 * production refuses to start without one (server/config.ts).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { devKeyFile } from './dev-key-file.js';

/** The development key's file in the data directory. */
export const DEV_SECRET_KEY_FILE = 'secret-dev-key';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/**
 * COFFER_SECRET_KEY's value as 32 bytes: 64 hex digits, or base64 (standard or URL-safe) of 32
 * bytes. Returns null for anything else.
 */
export function parseSecretKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === KEY_BYTES ? bytes : null;
  }
  return null;
}

/**
 * The development key in `<dataDir>/secret-dev-key`, generated on first use (mode 0600, exclusive
 * create so two processes starting at once end with one key). A file that does not hold a key is
 * an error, never replaced: secrets sealed under it would be lost.
 */
export function devSecretKey(dataDir: string, warn: (line: string) => void): Buffer {
  const file = path.join(dataDir, DEV_SECRET_KEY_FILE);
  const key = devKeyFile(
    file,
    'a 32-byte hex key',
    (text) => parseSecretKey(text) ?? undefined,
    () => `${crypto.randomBytes(KEY_BYTES).toString('hex')}\n`,
  );
  warn(
    `!!! No COFFER_SECRET_KEY configured: authenticator secrets are sealed with a development key in ${file}.`,
  );
  return key;
}

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error('the secret key must be 32 bytes');
    this.#key = Buffer.from(key);
  }

  /** Seals `plaintext` for `context` (e.g. `totp:<userId>`): `v1.<nonce>.<ciphertext>.<tag>`, base64url. */
  seal(plaintext: string, context: string): string {
    const nonce = crypto.randomBytes(NONCE_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, ciphertext, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /**
   * A keyed digest (HMAC-SHA256, base64url) of `value` under a subkey for `purpose`: equal values
   * give equal digests (a blind index, a link's signature) and nobody without the key can compute
   * or reverse one.
   */
  digest(value: string, purpose: string): string {
    const subkey = Buffer.from(
      crypto.hkdfSync('sha256', this.#key, Buffer.alloc(0), `coffer:${purpose}`, KEY_BYTES),
    );
    return crypto.createHmac('sha256', subkey).update(value, 'utf8').digest('base64url');
  }

  /** Whether `digest` is `value`'s digest for `purpose` (compared in constant time). */
  verifyDigest(value: string, purpose: string, digest: string): boolean {
    const expected = Buffer.from(this.digest(value, purpose));
    const given = Buffer.from(digest);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  /** Opens a sealed value for `context`; throws when it was altered, sealed for another context or under another key. */
  open(sealed: string, context: string): string {
    const [version, nonce, ciphertext, tag, extra] = sealed.split('.');
    if (
      version !== VERSION ||
      nonce === undefined ||
      ciphertext === undefined ||
      !tag ||
      extra !== undefined
    ) {
      throw new Error('not a sealed secret');
    }
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.#key, Buffer.from(nonce, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
