/**
 * Accepting an authenticator code, for customers (security.service.ts) and operators
 * (operator-auth.service.ts) alike: wrong codes count toward the same 423 lockout as wrong
 * passwords, and a code of an already accepted time step is a replay (472).
 */
import { BodyCode } from '../../contract/codes.js';
import type { Clock } from '../clock.js';
import { BusinessError } from '../core/errors.js';
import type { Limits } from '../security/limits.js';
import { checkTotp } from '../security/totp.js';

export interface CodeCheck {
  /** limits.ts's key: the subject whose wrong codes lock it. */
  lockKey: string;
  /** The Base32 secret, already opened. */
  secret: string;
  code: string;
  /** The field a refusal names. */
  field: string;
  /** The last accepted time step (null for a new key). */
  lastStep: number | null;
}

/** Returns the accepted code's time step; throws 423 while locked, 472 when wrong or used. */
export async function acceptAuthenticatorCode(
  limits: Limits,
  clock: Clock,
  check: CodeCheck,
): Promise<number> {
  await limits.assertNotLocked(check.lockKey, null);
  const result = await checkTotp(check.secret, check.code, clock.now(), check.lastStep);
  if (!result.ok) {
    await limits.recordFailure(check.lockKey, null);
    const key =
      result.reason === 'used' ? 'server.authenticator_code_used' : 'server.authenticator_code_wrong';
    throw new BusinessError(
      BodyCode.oneTimeCodeRejected,
      key,
      { field: check.field },
      { field: check.field },
    );
  }
  return result.step;
}
