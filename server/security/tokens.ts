/** Random secrets: session tokens, verification codes, invite codes, upload ids. */
import crypto from 'node:crypto';
import { CODE_LENGTH } from '../../contract/constants.js';

/** A 256-bit session token, base64url. Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string | Buffer): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** A uniformly random 6-digit verification code. */
export function newVerificationCode(): string {
  return crypto
    .randomInt(0, 10 ** CODE_LENGTH)
    .toString()
    .padStart(CODE_LENGTH, '0');
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O or 1/I: codes are read aloud and typed

/** An invite code of 8 characters from an unambiguous alphabet. */
export function newInviteCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += INVITE_ALPHABET[crypto.randomInt(INVITE_ALPHABET.length)];
  return code;
}

export function newOpaqueId(): string {
  return crypto.randomBytes(18).toString('base64url');
}

/** A readable random password for a new operator, shown once. */
export function newOperatorPassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}
