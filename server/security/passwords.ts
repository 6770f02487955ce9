/** Password hashing with scrypt (memory-hard, in node:crypto, no native build). */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify<crypto.BinaryLike, crypto.BinaryLike, number, crypto.ScryptOptions, Buffer>(
  crypto.scrypt,
);
const KEY_LENGTH = 32;

/** Hashes a password as `scrypt$<log2N>$<r>$<p>$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = crypto.randomBytes(16);
  const N = 2 ** cost;
  const key = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, {
    N,
    r: 8,
    p: 1,
    maxmem: 256 * N * 8,
  });
  return ['scrypt', cost, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !r || !p || !salt || !hash) return false;
  const N = 2 ** Number(cost);
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password.normalize('NFC'), Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * N * Number(r),
  });
  return crypto.timingSafeEqual(key, expected);
}

/** A hash of a random password: makes "no such user" cost the same as "wrong password". */
export async function decoyHash(cost: number): Promise<string> {
  return hashPassword(crypto.randomBytes(12).toString('base64'), cost);
}
