/**
 * Time-based one-time passwords for the authenticator (RFC 6238 with otplib): SHA-1, 6 digits,
 * 30-second steps from the Unix epoch, one step of clock drift either way. Times come from the
 * server clock, never from Date.now(), so tests can move them.
 */
import { generate, generateSecret, generateURI, verify } from 'otplib';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of drift accepted either way. */
export const TOTP_DRIFT_STEPS = 1;
export const TOTP_ISSUER = 'Coffer';

/** A new random secret of 20 bytes (160 bits, RFC 4226's recommendation), Base32 as apps expect. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://totp/Coffer:<email>?secret=...&issuer=Coffer` address a QR code carries. */
export function totpUri(secret: string, email: string): string {
  return generateURI({
    issuer: TOTP_ISSUER,
    label: email,
    secret,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The time step (RFC 6238's T) at `at`. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of a Base32 secret (or raw bytes) at `at`; `digits` other than 6 only for the RFC's vectors. */
export function totpCode(
  secret: string | Uint8Array,
  at: Date,
  digits: 6 | 8 = TOTP_DIGITS,
): Promise<string> {
  return generate({
    secret,
    epoch: Math.floor(at.getTime() / 1000),
    period: TOTP_PERIOD_SECONDS,
    digits,
    algorithm: 'sha1',
  });
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'wrong' | 'used' };

/**
 * Checks `code` against `secret` at `at` within the drift window. A code whose step is at or before
 * `lastStep` (the last one this user had accepted) is `used`: each code works once, and never an
 * older one after a newer. Never throws for a malformed code.
 */
export async function checkTotp(
  secret: string,
  code: string,
  at: Date,
  lastStep: number | null,
): Promise<TotpCheck> {
  if (!/^\d{6}$/.test(code)) return { ok: false, reason: 'wrong' };
  const options = {
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    period: TOTP_PERIOD_SECONDS,
    digits: TOTP_DIGITS,
    algorithm: 'sha1',
    epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
  } as const;
  const fresh = await verify(lastStep === null ? options : { ...options, afterTimeStep: lastStep });
  if (fresh.valid) return { ok: true, step: totpStep(at) + fresh.delta };
  if (lastStep === null) return { ok: false, reason: 'wrong' };
  const any = await verify(options);
  return { ok: false, reason: any.valid ? 'used' : 'wrong' };
}
